// An order's payment attempts and the payment methods stored for later charges.
import type { Queryable } from '../../platform/db/database.js';
import { SqlParams } from '../../platform/db/sql-params.js';

export interface PaymentAttemptRow {
  id: number;
  method: 'card' | 'paypal' | 'none';
  gateway: string;
  status: 'approved' | 'declined' | 'error' | 'requires_action';
  amount: number;
  decline_code: string | null;
  message: string | null;
  card_brand: string | null;
  card_type_id: number | null;
  card_last4: string | null;
  card_exp_month: number | null;
  card_exp_year: number | null;
  gateway_reference: string | null;
  is_test: boolean;
  created_at: Date;
}

/**
 * The order's payment the bank asked the shopper to authenticate, by the processor's reference: what an order sent
 * again with that authenticated payment completes with (docs/payments.md). Null when this order has no such attempt.
 */
export async function findAwaitingAuthentication(
  db: Queryable,
  organizationId: number,
  orderId: number,
  reference: string,
): Promise<PaymentAttemptRow | null> {
  const { rows } = await db.query<PaymentAttemptRow>(
    `SELECT * FROM payment_attempts
      WHERE organization_id = $1 AND order_id = $2 AND gateway_reference = $3 AND status = 'requires_action'
      ORDER BY id DESC LIMIT 1`,
    [organizationId, orderId, reference],
  );
  return rows[0] ?? null;
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

export interface PaymentAttemptValues {
  order_id: number;
  cart_id: number;
  method: 'card' | 'paypal' | 'none';
  gateway: string;
  status: 'approved' | 'declined' | 'error' | 'requires_action';
  amount: number;
  currency: string;
  decline_code: string | null;
  message: string | null;
  card_brand: string | null;
  card_type_id: number | null;
  card_last4: string | null;
  card_exp_month: number | null;
  card_exp_year: number | null;
  gateway_reference: string | null;
  payment_method_id: number | null;
  is_test: boolean;
  ip_address: string | null;
}

export async function insertPaymentAttempt(
  db: Queryable,
  organizationId: number,
  values: PaymentAttemptValues,
  now: Date,
): Promise<void> {
  const keys = Object.keys(values) as (keyof PaymentAttemptValues)[];
  const p = new SqlParams([organizationId]);
  await db.query(
    `INSERT INTO payment_attempts (organization_id, ${keys.join(', ')}, created_at)
     VALUES ($1, ${p.list(keys.map((key) => values[key]))}, ${p.add(now)})`,
    p.values,
  );
}

/** Attempts recorded so far: the next attempt's number, from which its gateway idempotency key is derived. */
export async function countPaymentAttempts(
  db: Queryable,
  organizationId: number,
  orderId: number,
): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::bigint AS n FROM payment_attempts WHERE organization_id = $1 AND order_id = $2',
    [organizationId, orderId],
  );
  return rows[0]?.n ?? 0;
}

export async function insertPaymentMethod(
  db: Queryable,
  organizationId: number,
  values: {
    customer_id: number;
    method: 'card' | 'paypal';
    gateway: string;
    gateway_token: string;
    card_brand: string | null;
    card_type_id: number | null;
    card_last4: string | null;
    card_exp_month: number | null;
    card_exp_year: number | null;
    is_test: boolean;
    /** the processor's customer the method belongs to (Stripe cus_…), when it has one */
    gateway_customer?: string | null;
  },
  now: Date,
): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO payment_methods (organization_id, customer_id, method, gateway, gateway_token, card_brand, card_type_id,
                                  card_last4, card_exp_month, card_exp_year, is_test, created_at, gateway_customer)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id`,
    [
      organizationId,
      values.customer_id,
      values.method,
      values.gateway,
      values.gateway_token,
      values.card_brand,
      values.card_type_id,
      values.card_last4,
      values.card_exp_month,
      values.card_exp_year,
      values.is_test,
      now,
      values.gateway_customer ?? null,
    ],
  );
  return (rows[0] as { id: number }).id;
}
