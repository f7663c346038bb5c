import { withDates, type Stored } from '../../platform/db/json-rows.js';
import type { Queryable } from '../../platform/db/database.js';
import type { Language } from '../../../i18n/languages.js';
import { CART_CUSTOMER_CTES, cartCustomerParams, type CartCustomer } from '../carts/customers-repository.js';
import type { ShippingProfileRow } from '../catalog/shipping-profiles-repository.js';
import { SqlParams } from '../../platform/db/sql-params.js';
import type { BillingPlan } from '../../../domain/billing-plan.js';

export interface OrderAddress {
  fname: string;
  lname: string;
  address1: string;
  address2: string;
  city: string;
  state: string;
  zipcode: string;
  country: string;
  phone: string;
}

export interface OrderRow {
  id: number;
  organization_id: number;
  cart_id: number;
  customer_id: number | null;
  status: 'pending' | 'declined' | 'awaiting_payment' | 'complete';
  is_test: boolean;
  currency: string;
  subtotal: number;
  total_discount: number;
  total_offer_shipping: number;
  total_campaign_shipping: number;
  total_tax: number;
  total_gift_cards: number;
  total: number;
  discount_code_id: number | null;
  discount_code: string | null;
  shipping_profile_id: number | null;
  email: string;
  phone: string;
  same_address: boolean;
  shipping_address: OrderAddress | null;
  billing_address: OrderAddress | null;
  subscription_terms_accepted: boolean;
  subscription_terms_accepted_at: Date | null;
  subscription_terms_ip: string | null;
  subscription_terms_version: string | null;
  /** the language of the terms' text the shopper agreed to (docs/api.md, "Translations") */
  subscription_terms_language: Language | null;
  email_opt_in: boolean;
  ip_address: string | null;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
  payment_lease_until: Date | null;
  discount_reserved: boolean;
  express_payment_id: number | null;
  payment_method_id: number | null;
  /** the order this one is an accepted upsell of (docs/api.md, "Upsells") */
  parent_order_id?: number | null;
  /** a prepaid plan's $0 fulfilment order (docs/subscriptions.md, "Prepaid plans"): its subscription, the order
   * that paid for it and the cycle it ships; null for any other order */
  fulfilment_of_subscription_id?: number | null;
  fulfilment_of_order_id?: number | null;
  fulfilment_cycle?: number | null;
  /** joined: the cart's token */
  cart_token: string;
}

export interface OrderLineRow {
  id: number;
  cart_offer_id: number;
  offer_id: number;
  item_name: string;
  quantity: number;
  unit_price: number;
  subtotal: number;
  discount: number;
  shipping: number;
  tax: number;
  total: number;
  is_gift: boolean;
  /** the line came from an order-bump box */
  is_bump: boolean;
  is_recurring: boolean;
  billing_interval_days: number | null;
  next_cycle_total: number | null;
  /** the line's prices by cycle as ordered (minor units, docs/subscriptions.md); null for one-off lines */
  billing_plan: BillingPlan | null;
  /** the percent off this line was subscribed at (subscribe and save), null when it was not */
  subscribe_and_save_percent: number | null;
  /** the unit price the line would have cost bought once, when it was subscribed and saved (minor units) */
  subscribe_and_save_once_price: number | null;
}

const SELECT_ORDER = `SELECT o.*, c.token AS cart_token FROM orders o
  JOIN carts c ON c.organization_id = o.organization_id AND c.id = o.cart_id`;

/** What a statement that writes an order answers: the order as written, as SELECT_ORDER reads it. */
const RETURNING_ORDER = `RETURNING orders.*, (SELECT token FROM carts
   WHERE carts.organization_id = orders.organization_id AND carts.id = orders.cart_id) AS cart_token`;

/** What the merchant's order list keeps (docs/api.md, "Orders: search and filters"); each absent filter keeps all. */
export interface OrderListFilters {
  orderId?: number | undefined;
  /** a lower-case LIKE pattern matched in the email and the billing and shipping "first last" names */
  textPattern?: string | undefined;
  status?: OrderRow['status'] | undefined;
  createdFrom?: Date | null | undefined;
  createdBefore?: Date | null | undefined;
  isTest?: boolean | undefined;
}

export async function listOrders(
  db: Queryable,
  organizationId: number,
  options: { limit?: number | undefined; startingAfter?: number | undefined },
  filters: OrderListFilters = {},
): Promise<{ rows: OrderRow[]; hasMore: boolean }> {
  const limit = options.limit ?? 50;
  const p = new SqlParams([organizationId]);
  const where = ['o.organization_id = $1'];
  if (options.startingAfter !== undefined) where.push(`o.id < ${p.add(options.startingAfter, 'bigint')}`);
  if (filters.orderId !== undefined) where.push(`o.id = ${p.add(filters.orderId, 'bigint')}`);
  if (filters.textPattern !== undefined) {
    const pattern = p.add(filters.textPattern, 'text');
    const name = (address: string) =>
      `lower(concat_ws(' ', o.${address}->>'fname', o.${address}->>'lname')) LIKE ${pattern} ESCAPE '\\'`;
    where.push(
      `(lower(o.email) LIKE ${pattern} ESCAPE '\\' OR ${name('billing_address')} OR ${name('shipping_address')})`,
    );
  }
  if (filters.status !== undefined) where.push(`o.status = ${p.add(filters.status, 'text')}`);
  if (filters.createdFrom) where.push(`o.created_at >= ${p.add(filters.createdFrom, 'timestamptz')}`);
  if (filters.createdBefore) where.push(`o.created_at < ${p.add(filters.createdBefore, 'timestamptz')}`);
  if (filters.isTest !== undefined) where.push(`o.is_test = ${p.add(filters.isTest, 'boolean')}`);
  const { rows } = await db.query<OrderRow>(
    `${SELECT_ORDER} WHERE ${where.join(' AND ')} ORDER BY o.id DESC LIMIT ${p.add(limit + 1, 'int')}`,
    p.values,
  );
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
}

export async function findOrder(db: Queryable, organizationId: number, id: number): Promise<OrderRow | null> {
  const { rows } = await db.query<OrderRow>(`${SELECT_ORDER} WHERE o.organization_id = $1 AND o.id = $2`, [
    organizationId,
    id,
  ]);
  return rows[0] ?? null;
}

export async function findOrderLines(
  db: Queryable,
  organizationId: number,
  orderId: number,
): Promise<OrderLineRow[]> {
  const { rows } = await db.query<OrderLineRow>(
    'SELECT * FROM order_lines WHERE organization_id = $1 AND order_id = $2 ORDER BY id',
    [organizationId, orderId],
  );
  return rows;
}

/** An order's lines (as findOrderLines) and the shipping profile it chose, when it did, in one statement. */
export async function findOrderLinesAndProfile(
  db: Queryable,
  organizationId: number,
  orderId: number,
  shippingProfileId: number | null,
): Promise<{ lines: OrderLineRow[]; profile: ShippingProfileRow | null }> {
  const { rows } = await db.query<{
    lines: OrderLineRow[];
    profile: Stored<ShippingProfileRow> | null;
  }>(
    `SELECT coalesce((SELECT json_agg(l ORDER BY l.id) FROM order_lines l
                       WHERE l.organization_id = $1 AND l.order_id = $2), '[]'::json) AS lines,
            (SELECT row_to_json(p) FROM shipping_profiles p
              WHERE $3::bigint IS NOT NULL AND p.organization_id = $1 AND p.id = $3::bigint) AS profile`,
    [organizationId, orderId, shippingProfileId],
  );
  const row = rows[0];
  const profile = row?.profile ?? null;
  return {
    lines: row?.lines ?? [],
    profile: profile ? withDates<ShippingProfileRow>(profile, ['created_at', 'updated_at']) : null,
  };
}

export async function findOrderSubscriptionIds(
  db: Queryable,
  organizationId: number,
  orderId: number,
): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(
    'SELECT id FROM subscriptions WHERE organization_id = $1 AND order_id = $2 ORDER BY id',
    [organizationId, orderId],
  );
  return rows.map((row) => row.id);
}

/** The columns an order attempt writes (its lines, status transitions and leases are written separately). */
export type OrderValues = Pick<OrderRow, (typeof ORDER_COLUMNS)[number]> & { customer_id: number };

const ORDER_COLUMNS = [
  'customer_id',
  'status',
  'is_test',
  'currency',
  'subtotal',
  'total_discount',
  'total_offer_shipping',
  'total_campaign_shipping',
  'total_tax',
  'total_gift_cards',
  'total',
  'discount_code_id',
  'discount_code',
  'shipping_profile_id',
  'email',
  'phone',
  'same_address',
  'shipping_address',
  'billing_address',
  'subscription_terms_accepted',
  'subscription_terms_accepted_at',
  'subscription_terms_ip',
  'subscription_terms_version',
  'subscription_terms_language',
  'email_opt_in',
  'ip_address',
] as const satisfies readonly (keyof OrderRow)[];

function orderParams<Column extends (typeof ORDER_COLUMNS)[number]>(
  values: Pick<OrderValues, Column>,
  columns: readonly Column[],
): unknown[] {
  return columns.map((column) => {
    const value = values[column];
    return column === 'shipping_address' || column === 'billing_address'
      ? value === null
        ? null
        : JSON.stringify(value)
      : value;
  });
}

// A new order's columns but its customer's, which the statement that creates it saves first.
const NEW_ORDER_COLUMNS = ORDER_COLUMNS.filter((column) => column !== 'customer_id');

/**
 * Creates the cart's order with its lines, after saving its customer (as saveCartCustomer), in one statement; the
 * cart_id is unique, so only one order per cart can ever exist. With `paymentLeaseUntil` its payment is in flight from
 * the start (and `discountReserved` says it holds a use of its code). Answers the order as written.
 */
/**
 * Marks an order as a prepaid plan's fulfilment of `cycle`; a second one for the same subscription and cycle breaks
 * the unique index (orders_one_fulfilment_per_cycle).
 */
export async function markFulfilmentOrder(
  db: Queryable,
  organizationId: number,
  orderId: number,
  of: { subscriptionId: number; orderId: number; cycle: number },
): Promise<void> {
  await db.query(
    `UPDATE orders SET fulfilment_of_subscription_id = $3, fulfilment_of_order_id = $4, fulfilment_cycle = $5
      WHERE organization_id = $1 AND id = $2`,
    [organizationId, orderId, of.subscriptionId, of.orderId, of.cycle],
  );
}

export async function insertOrder(
  db: Queryable,
  organizationId: number,
  customer: CartCustomer,
  values: Omit<OrderValues, 'customer_id'>,
  lines: readonly OrderLineValues[],
  payment: { discountReserved?: boolean; paymentLeaseUntil?: Date },
  now: Date,
): Promise<OrderRow & { customer_id: number }> {
  // The customer's common table expressions number their own parameters ($1 is the organization, $2 the cart).
  const p = new SqlParams(cartCustomerParams(organizationId, customer, now));
  // jsonb travels as its text: a JSON array of objects is not a jsonb[] to the driver.
  const column = <K extends keyof OrderLineValues>(key: K) =>
    lines.map((line) => (key === 'billing_plan' ? jsonOrNull(line[key]) : line[key]));
  const at = p.add(now, 'timestamptz');
  const { rows } = await db.query<OrderRow & { customer_id: number }>(
    `WITH ${CART_CUSTOMER_CTES}, new_order AS (
       INSERT INTO orders (organization_id, cart_id, customer_id, ${NEW_ORDER_COLUMNS.join(', ')}, discount_reserved,
                           payment_lease_until, created_at, updated_at)
       SELECT $1, $2, cart_customer.id, ${p.list(orderParams(values, NEW_ORDER_COLUMNS))},
              ${p.add(payment.discountReserved ?? false, 'boolean')},
              ${p.add(payment.paymentLeaseUntil ?? null, 'timestamptz')}, ${at}, ${at}
         FROM cart_customer
       RETURNING *
     ), new_lines AS (
       INSERT INTO order_lines (organization_id, order_id, ${ORDER_LINE_COLUMNS.join(', ')})
       SELECT $1, new_order.id, l.* FROM new_order CROSS JOIN unnest(${p.list(
         ORDER_LINE_COLUMNS.map(column),
         ORDER_LINE_TYPES.map((type) => `${type}[]`),
       )}) AS l
     )
     SELECT new_order.*, c.token AS cart_token FROM new_order
       JOIN carts c ON c.organization_id = new_order.organization_id AND c.id = new_order.cart_id`,
    p.values,
  );
  const row = rows[0];
  if (!row) throw new Error(`the order of cart ${customer.cartId} was not saved: its customer is gone`);
  return row;
}

/**
 * Rewrites an order that is not complete yet with the details and amounts of a new attempt, and answers it as
 * rewritten; null when it is complete (an earlier attempt completed it since the cart was read).
 */
export async function updateOrder(
  db: Queryable,
  organizationId: number,
  orderId: number,
  values: OrderValues,
  now: Date,
): Promise<OrderRow | null> {
  const p = new SqlParams([organizationId, orderId]);
  const params = orderParams(values, ORDER_COLUMNS);
  const { rows } = await db.query<OrderRow>(
    `UPDATE orders SET ${ORDER_COLUMNS.map((column, i) => `${column} = ${p.add(params[i])}`).join(', ')},
            updated_at = ${p.add(now)}
      WHERE organization_id = $1 AND id = $2 AND status <> 'complete'
     ${RETURNING_ORDER}`,
    p.values,
  );
  return rows[0] ?? null;
}

export async function lockOrder(
  db: Queryable,
  organizationId: number,
  orderId: number,
): Promise<OrderRow | null> {
  const { rows } = await db.query<OrderRow>(
    `${SELECT_ORDER} WHERE o.organization_id = $1 AND o.id = $2 FOR UPDATE OF o`,
    [organizationId, orderId],
  );
  return rows[0] ?? null;
}

/** An order line as written: the row without its id. */
export type OrderLineValues = Omit<OrderLineRow, 'id'>;

function jsonOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}

/** The lines as priced for this attempt; replaced wholesale while the order is not complete. */
export async function replaceOrderLines(
  db: Queryable,
  organizationId: number,
  orderId: number,
  lines: readonly OrderLineValues[],
): Promise<void> {
  await db.query('DELETE FROM order_lines WHERE organization_id = $1 AND order_id = $2', [
    organizationId,
    orderId,
  ]);
  await insertOrderLines(db, organizationId, orderId, lines);
}

// The columns of order_lines an attempt writes, and their types, in one order.
const ORDER_LINE_COLUMNS = [
  'cart_offer_id',
  'offer_id',
  'item_name',
  'quantity',
  'unit_price',
  'subtotal',
  'discount',
  'shipping',
  'tax',
  'total',
  'is_gift',
  'is_bump',
  'is_recurring',
  'billing_interval_days',
  'next_cycle_total',
  'billing_plan',
  'subscribe_and_save_percent',
  'subscribe_and_save_once_price',
] as const satisfies readonly (keyof OrderLineValues)[];
const ORDER_LINE_TYPES = [
  'bigint',
  'bigint',
  'text',
  'int',
  'bigint',
  'bigint',
  'bigint',
  'bigint',
  'bigint',
  'bigint',
  'boolean',
  'boolean',
  'boolean',
  'int',
  'bigint',
  'jsonb',
  'int',
  'bigint',
] as const;

/** The lines of an order that has none yet. */
async function insertOrderLines(
  db: Queryable,
  organizationId: number,
  orderId: number,
  lines: readonly OrderLineValues[],
): Promise<void> {
  const column = <K extends keyof OrderLineValues>(key: K) => lines.map((line) => line[key]);
  const p = new SqlParams([organizationId, orderId]);
  await db.query(
    `INSERT INTO order_lines (organization_id, order_id, ${ORDER_LINE_COLUMNS.join(', ')})
     SELECT $1, $2, * FROM unnest(${p.list(
       ORDER_LINE_COLUMNS.map(column),
       ORDER_LINE_TYPES.map((type) => `${type}[]`),
     )})`,
    p.values,
  );
}

/**
 * Sets the order's status and ends any payment lease, or with `paymentLeaseUntil` marks a payment as in flight until
 * then (the caller holds the order row, so no other payment can hold it meanwhile). Answers the order as it is now.
 */
export async function setOrderOutcome(
  db: Queryable,
  organizationId: number,
  orderId: number,
  values: {
    status: OrderRow['status'];
    discountReserved?: boolean;
    expressPaymentId?: number | null;
    paymentLeaseUntil?: Date | null;
  },
  now: Date,
): Promise<OrderRow> {
  const { rows } = await db.query<OrderRow>(
    `UPDATE orders SET status = $3, payment_lease_until = $8, discount_reserved = coalesce($4, discount_reserved),
            express_payment_id = CASE WHEN $5::boolean THEN $6 ELSE express_payment_id END, updated_at = $7
      WHERE organization_id = $1 AND id = $2
     ${RETURNING_ORDER}`,
    [
      organizationId,
      orderId,
      values.status,
      values.discountReserved ?? null,
      values.expressPaymentId !== undefined,
      values.expressPaymentId ?? null,
      now,
      values.paymentLeaseUntil ?? null,
    ],
  );
  const row = rows[0];
  if (!row) throw new Error(`order ${orderId} vanished`);
  return row;
}

export async function releasePaymentLease(
  db: Queryable,
  organizationId: number,
  orderId: number,
): Promise<void> {
  await db.query('UPDATE orders SET payment_lease_until = NULL WHERE organization_id = $1 AND id = $2', [
    organizationId,
    orderId,
  ]);
}
