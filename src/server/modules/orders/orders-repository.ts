import { withDates, type Stored } from '../../platform/db/json-rows.js';
import type { Queryable } from '../../platform/db/database.js';
import type { KeyHolder } from './idempotency-repository.js';
import type { PaymentAttemptValues } from './payment-attempts-repository.js';
import { CART_CUSTOMER_CTES, cartCustomerParams, type CartCustomer } from '../carts/customers-repository.js';
import type { ShippingProfileRow } from '../catalog/shipping-profiles-repository.js';

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
  email_opt_in: boolean;
  ip_address: string | null;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
  payment_lease_until: Date | null;
  discount_reserved: boolean;
  express_payment_id: number | null;
  payment_method_id: number | null;
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
  is_recurring: boolean;
  billing_interval_days: number | null;
  next_cycle_total: number | null;
}

const SELECT_ORDER = `SELECT o.*, c.token AS cart_token FROM orders o
  JOIN carts c ON c.organization_id = o.organization_id AND c.id = o.cart_id`;

export async function listOrders(
  db: Queryable,
  organizationId: number,
  options: { limit?: number | undefined; startingAfter?: number | undefined },
): Promise<{ rows: OrderRow[]; hasMore: boolean }> {
  const limit = options.limit ?? 50;
  const { rows } = await db.query<OrderRow>(
    `${SELECT_ORDER} WHERE o.organization_id = $1 AND ($2::bigint IS NULL OR o.id < $2) ORDER BY o.id DESC LIMIT $3`,
    [organizationId, options.startingAfter ?? null, limit + 1],
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
 * the start (and `discountReserved` says it holds a use of its code). Answers the order's id and its customer's.
 */
export async function insertOrder(
  db: Queryable,
  organizationId: number,
  customer: CartCustomer,
  values: Omit<OrderValues, 'customer_id'>,
  lines: readonly OrderLineValues[],
  payment: { discountReserved?: boolean; paymentLeaseUntil?: Date },
  now: Date,
): Promise<{ id: number; customerId: number }> {
  // $1 to $20 save the customer; the order's own parameters follow.
  const first = 21;
  const n = NEW_ORDER_COLUMNS.length;
  const column = <K extends keyof OrderLineValues>(key: K) => lines.map((line) => line[key]);
  const { rows } = await db.query<{ id: number; customer_id: number }>(
    `WITH ${CART_CUSTOMER_CTES}, new_order AS (
       INSERT INTO orders (organization_id, cart_id, customer_id, ${NEW_ORDER_COLUMNS.join(', ')}, discount_reserved,
                           payment_lease_until, created_at, updated_at)
       SELECT $1, $2, cart_customer.id, ${NEW_ORDER_COLUMNS.map((_, i) => `$${first + i}`).join(', ')},
              $${first + n}::boolean, $${first + n + 1}::timestamptz, $${first + n + 2}::timestamptz,
              $${first + n + 2}::timestamptz
         FROM cart_customer
       RETURNING id, customer_id
     ), new_lines AS (
       INSERT INTO order_lines (organization_id, order_id, ${ORDER_LINE_COLUMNS.join(', ')})
       SELECT $1, new_order.id, l.* FROM new_order CROSS JOIN unnest(${ORDER_LINE_TYPES.map(
         (type, i) => `$${first + n + 3 + i}::${type}[]`,
       ).join(', ')}) AS l
     )
     SELECT id, customer_id FROM new_order`,
    [
      ...cartCustomerParams(organizationId, customer, now),
      ...orderParams(values, NEW_ORDER_COLUMNS),
      payment.discountReserved ?? false,
      payment.paymentLeaseUntil ?? null,
      now,
      ...ORDER_LINE_COLUMNS.map(column),
    ],
  );
  const row = rows[0];
  if (!row) throw new Error(`the order of cart ${customer.cartId} was not saved: its customer is gone`);
  return { id: row.id, customerId: row.customer_id };
}

/** Rewrites an order that is not complete yet with the details and amounts of a new attempt. */
export async function updateOrder(
  db: Queryable,
  organizationId: number,
  orderId: number,
  values: OrderValues,
  now: Date,
) {
  await db.query(
    `UPDATE orders SET ${ORDER_COLUMNS.map((column, i) => `${column} = $${i + 3}`).join(', ')},
            updated_at = $${ORDER_COLUMNS.length + 3}
      WHERE organization_id = $1 AND id = $2 AND status <> 'complete'`,
    [organizationId, orderId, ...orderParams(values, ORDER_COLUMNS), now],
  );
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
  'is_recurring',
  'billing_interval_days',
  'next_cycle_total',
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
  await db.query(
    `INSERT INTO order_lines (organization_id, order_id, ${ORDER_LINE_COLUMNS.join(', ')})
     SELECT $1, $2, * FROM unnest(${ORDER_LINE_TYPES.map((type, i) => `$${i + 3}::${type}[]`).join(', ')})`,
    [organizationId, orderId, ...ORDER_LINE_COLUMNS.map(column)],
  );
}

/**
 * Sets the order's status and ends any payment lease, or with `paymentLeaseUntil` marks a payment as in flight until
 * then (the caller holds the order row, so no other payment can hold it meanwhile).
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
): Promise<void> {
  await db.query(
    `UPDATE orders SET status = $3, payment_lease_until = $8, discount_reserved = coalesce($4, discount_reserved),
            express_payment_id = CASE WHEN $5::boolean THEN $6 ELSE express_payment_id END, updated_at = $7
      WHERE organization_id = $1 AND id = $2`,
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
}

/**
 * Completes an order in one statement: records its approved payment attempt, sets it complete (ending any payment
 * lease), marks its cart ordered, counts the code use it held as used, and answers the order as completed with its lines. Writes nothing and answers null
 * when the order is complete already (another attempt completed it) or, given `leaseUntil`, no longer holds that
 * payment lease (another attempt took it over). The row lock the update takes stands for the caller's. With `answer`,
 * the same statement stores the request's answer under its Idempotency-Key, as completeIdempotencyKey does, when it
 * completes the order.
 */
export async function completeOrderWithAttempt(
  db: Queryable,
  organizationId: number,
  input: {
    orderId: number;
    attempt: PaymentAttemptValues;
    paymentMethodId?: number | null;
    /** when the order's held code use changes as it completes */
    discountReserved?: boolean | undefined;
    /** complete only while the order holds this payment lease */
    leaseUntil?: Date;
    /** the answer to store under the request's Idempotency-Key, should the order complete */
    answer?: (KeyHolder & { status: number; body: unknown }) | undefined;
  },
  now: Date,
): Promise<{ order: Omit<OrderRow, 'cart_token'>; lines: OrderLineRow[] } | null> {
  const keys = Object.keys(input.attempt) as (keyof PaymentAttemptValues)[];
  const first = 7;
  const answer = input.answer;
  const a = first + keys.length;
  const keepAnswer = answer
    ? `, answered AS (
       UPDATE idempotency_keys SET status = 'done', response_status = $${a + 4}, response_body = $${a + 5}::jsonb,
              locked_until = NULL
        WHERE organization_id = $${a} AND scope = $${a + 1} AND key_hash = $${a + 2} AND status = 'in_progress'
          AND locked_until = $${a + 3} AND EXISTS (SELECT 1 FROM completed)
     )`
    : '';
  const { rows } = await db.query<Omit<OrderRow, 'cart_token'> & { order_lines: OrderLineRow[] }>(
    `WITH completed AS (
       UPDATE orders SET status = 'complete', completed_at = $3, payment_lease_until = NULL,
              discount_reserved = coalesce($4, discount_reserved),
              payment_method_id = coalesce($5, payment_method_id), updated_at = $3
        WHERE organization_id = $1 AND id = $2 AND status <> 'complete'
          AND ($6::timestamptz IS NULL OR payment_lease_until = $6::timestamptz)
       RETURNING *
     ), attempt AS (
       INSERT INTO payment_attempts (organization_id, ${keys.join(', ')}, created_at)
       SELECT $1, ${keys.map((_, i) => `$${i + first}`).join(', ')}, $3 FROM completed
     ), ordered AS (
       UPDATE carts SET ordered_at = $3, updated_at = $3 FROM completed
        WHERE carts.organization_id = $1 AND carts.id = completed.cart_id
     ), used AS (
       UPDATE discount_codes SET held_count = held_count - 1, usage_count = usage_count + 1 FROM completed
        WHERE completed.discount_reserved AND discount_codes.organization_id = $1
          AND discount_codes.id = completed.discount_code_id
     )${keepAnswer}
     SELECT completed.*,
            coalesce((SELECT json_agg(l ORDER BY l.id) FROM order_lines l
                       WHERE l.organization_id = $1 AND l.order_id = $2), '[]'::json) AS order_lines
       FROM completed`,
    [
      organizationId,
      input.orderId,
      now,
      input.discountReserved ?? null,
      input.paymentMethodId ?? null,
      input.leaseUntil ?? null,
      ...keys.map((key) => input.attempt[key]),
      ...(answer
        ? [
            answer.organizationId,
            answer.scope,
            answer.keyHash,
            answer.lockedUntil,
            answer.status,
            JSON.stringify(answer.body),
          ]
        : []),
    ],
  );
  const row = rows[0];
  if (!row) return null;
  const { order_lines: lines, ...order } = row;
  return { order, lines };
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
