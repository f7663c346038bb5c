import type { Queryable } from '../db/database.js';

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

export interface PaymentAttemptRow {
  id: number;
  method: 'card' | 'paypal' | 'none';
  gateway: string;
  status: 'approved' | 'declined' | 'error';
  amount: number;
  decline_code: string | null;
  message: string | null;
  card_brand: string | null;
  card_last4: string | null;
  card_exp_month: number | null;
  card_exp_year: number | null;
  gateway_reference: string | null;
  is_test: boolean;
  created_at: Date;
}

export interface GiftRow {
  cart_offer_id: number;
  gift_name: string;
  gift_email: string;
  gift_date: string | null;
  gift_message: string;
  gift_phone: string;
  order_offer_notes: string;
  claim_code: string | null;
  claimed_at: Date | null;
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

export async function findPaymentAttempts(
  db: Queryable,
  organizationId: number,
  orderId: number,
): Promise<PaymentAttemptRow[]> {
  const { rows } = await db.query<PaymentAttemptRow>(
    'SELECT * FROM payment_attempts WHERE organization_id = $1 AND order_id = $2 ORDER BY id',
    [organizationId, orderId],
  );
  return rows;
}

/** Gift details of the order's lines (recipient, message, claim code). */
export async function findOrderGifts(
  db: Queryable,
  organizationId: number,
  orderId: number,
): Promise<GiftRow[]> {
  const { rows } = await db.query<GiftRow>(
    `SELECT g.cart_offer_id, g.gift_name, g.gift_email, to_char(g.gift_date, 'YYYY-MM-DD') AS gift_date, g.gift_message,
            g.gift_phone, g.order_offer_notes, g.claim_code, g.claimed_at
       FROM gift_details g
       JOIN order_lines l ON l.organization_id = g.organization_id AND l.cart_offer_id = g.cart_offer_id
      WHERE l.organization_id = $1 AND l.order_id = $2 AND l.is_gift
      ORDER BY g.cart_offer_id`,
    [organizationId, orderId],
  );
  return rows;
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

/** The order of a cart (one per cart), or null before the first order attempt. */
export async function findOrderByCart(
  db: Queryable,
  organizationId: number,
  cartId: number,
): Promise<OrderRow | null> {
  const { rows } = await db.query<OrderRow>(
    `${SELECT_ORDER} WHERE o.organization_id = $1 AND o.cart_id = $2`,
    [organizationId, cartId],
  );
  return rows[0] ?? null;
}
