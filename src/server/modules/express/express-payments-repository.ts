import type { ExpressPayer } from '../../platform/payments/gateway.js';
import type { Queryable } from '../../platform/db/database.js';

export interface ExpressPaymentRow {
  id: number;
  organization_id: number;
  public_id: string;
  cart_id: number;
  order_id: number | null;
  provider: string;
  status: 'created' | 'approved' | 'cancelled' | 'used' | 'expired';
  amount: number;
  currency: string;
  payer: ExpressPayer | null;
  provider_reference: string | null;
  is_test: boolean;
  expires_at: Date;
  approved_at: Date | null;
  used_at: Date | null;
  created_at: Date;
  /** joined */
  cart_token: string;
  /** joined: the language the cart's checkout page speaks, once it has said it (docs/languages.md) */
  cart_language: string | null;
}

const SELECT = `SELECT e.*, c.token AS cart_token, c.language AS cart_language FROM express_payments e
  JOIN carts c ON c.organization_id = e.organization_id AND c.id = e.cart_id`;

export async function insertExpressPayment(
  db: Queryable,
  organizationId: number,
  values: {
    publicId: string;
    cartId: number;
    orderId: number;
    provider: string;
    amount: number;
    currency: string;
    isTest: boolean;
    expiresAt: Date;
  },
  now: Date,
): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO express_payments (organization_id, public_id, cart_id, order_id, provider, status, amount, currency, is_test,
                                   expires_at, created_at)
     VALUES ($1, $2, $3, $4, $5, 'created', $6, $7, $8, $9, $10) RETURNING id`,
    [
      organizationId,
      values.publicId,
      values.cartId,
      values.orderId,
      values.provider,
      values.amount,
      values.currency,
      values.isTest,
      values.expiresAt,
      now,
    ],
  );
  return (rows[0] as { id: number }).id;
}

export async function setExpressProviderReference(
  db: Queryable,
  organizationId: number,
  id: number,
  reference: string,
) {
  await db.query(
    'UPDATE express_payments SET provider_reference = $3 WHERE organization_id = $1 AND id = $2',
    [organizationId, id, reference],
  );
}

export async function findExpressPaymentByPublicId(
  db: Queryable,
  publicId: string,
): Promise<ExpressPaymentRow | null> {
  const { rows } = await db.query<ExpressPaymentRow>(`${SELECT} WHERE e.public_id = $1`, [publicId]);
  return rows[0] ?? null;
}

export async function findExpressPayment(
  db: Queryable,
  organizationId: number,
  publicId: string,
): Promise<ExpressPaymentRow | null> {
  const { rows } = await db.query<ExpressPaymentRow>(
    `${SELECT} WHERE e.organization_id = $1 AND e.public_id = $2`,
    [organizationId, publicId],
  );
  return rows[0] ?? null;
}

/** Moves a created payment to approved (with the payer) or cancelled; false when it was not waiting any more. */
export async function decideExpressPayment(
  db: Queryable,
  id: number,
  decision: { status: 'approved'; payer: ExpressPayer } | { status: 'cancelled' },
  now: Date,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE express_payments SET status = $2, payer = $3::jsonb, approved_at = CASE WHEN $2 = 'approved' THEN $4 END
      WHERE id = $1 AND status = 'created' AND expires_at > $4`,
    [id, decision.status, decision.status === 'approved' ? JSON.stringify(decision.payer) : null, now],
  );
  return rowCount > 0;
}

export async function markExpressPaymentUsed(
  db: Queryable,
  organizationId: number,
  id: number,
  now: Date,
): Promise<void> {
  await db.query(
    `UPDATE express_payments SET status = 'used', used_at = $3 WHERE organization_id = $1 AND id = $2`,
    [organizationId, id, now],
  );
}

export async function expireExpressPayment(db: Queryable, organizationId: number, id: number): Promise<void> {
  await db.query(
    `UPDATE express_payments SET status = 'expired' WHERE organization_id = $1 AND id = $2 AND status IN ('created', 'approved')`,
    [organizationId, id],
  );
}

export async function expireLapsedExpressPayments(db: Queryable, now: Date): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE express_payments SET status = 'expired' WHERE status IN ('created', 'approved') AND expires_at <= $1`,
    [now],
  );
  return rowCount;
}
