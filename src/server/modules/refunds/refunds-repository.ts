// Refunds of orders' payments (migration 0017): recorded pending before the processor is asked, finished after.
import type { Queryable } from '../../platform/db/database.js';

export interface RefundRow {
  id: number;
  organization_id: number;
  order_id: number;
  gateway: string;
  payment_reference: string;
  amount: number;
  currency: string;
  reason: string | null;
  status: 'pending' | 'succeeded' | 'failed';
  processor_reference: string | null;
  error: string | null;
  idempotency_key_hash: string;
  lease_until: Date | null;
  created_at: Date;
  updated_at: Date;
}

export async function findRefunds(
  db: Queryable,
  organizationId: number,
  orderId: number,
): Promise<RefundRow[]> {
  const { rows } = await db.query<RefundRow>(
    'SELECT * FROM refunds WHERE organization_id = $1 AND order_id = $2 ORDER BY id',
    [organizationId, orderId],
  );
  return rows;
}

export async function findRefund(
  db: Queryable,
  organizationId: number,
  id: number,
): Promise<RefundRow | null> {
  const { rows } = await db.query<RefundRow>('SELECT * FROM refunds WHERE organization_id = $1 AND id = $2', [
    organizationId,
    id,
  ]);
  return rows[0] ?? null;
}

/** Our refund the processor knows by this id (a webhook names it), or null for one made elsewhere. */
export async function findRefundByProcessorReference(
  db: Queryable,
  gateway: string,
  processorReference: string,
): Promise<RefundRow | null> {
  const { rows } = await db.query<RefundRow>(
    'SELECT * FROM refunds WHERE gateway = $1 AND processor_reference = $2',
    [gateway, processorReference],
  );
  return rows[0] ?? null;
}

export async function insertPendingRefund(
  db: Queryable,
  values: Pick<
    RefundRow,
    | 'organization_id'
    | 'order_id'
    | 'gateway'
    | 'payment_reference'
    | 'amount'
    | 'currency'
    | 'reason'
    | 'idempotency_key_hash'
  > & { lease_until: Date },
  now: Date,
): Promise<RefundRow> {
  const { rows } = await db.query<RefundRow>(
    `INSERT INTO refunds (organization_id, order_id, gateway, payment_reference, amount, currency, reason, status,
                          idempotency_key_hash, lease_until, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', $8, $9, $10, $10)
     RETURNING *`,
    [
      values.organization_id,
      values.order_id,
      values.gateway,
      values.payment_reference,
      values.amount,
      values.currency,
      values.reason,
      values.idempotency_key_hash,
      values.lease_until,
      now,
    ],
  );
  const row = rows[0];
  if (!row) throw new Error('refund not inserted');
  return row;
}

/** Takes over a pending refund whose lease ran out: this request asks the processor again until `leaseUntil`. */
export async function leaseRefund(
  db: Queryable,
  organizationId: number,
  id: number,
  leaseUntil: Date,
  now: Date,
): Promise<RefundRow> {
  const { rows } = await db.query<RefundRow>(
    `UPDATE refunds SET lease_until = $3, updated_at = $4
      WHERE organization_id = $1 AND id = $2 AND status = 'pending' RETURNING *`,
    [organizationId, id, leaseUntil, now],
  );
  const row = rows[0];
  if (!row) throw new Error(`refund ${id} is not pending`);
  return row;
}

/**
 * Ends a pending refund as the processor answered, if this request still holds it (its lease is the one it took);
 * null when another request took it over meanwhile. `pending` keeps it pending with its lease given up: the answer
 * was lost, and the next request asks again.
 */
export async function finishRefund(
  db: Queryable,
  held: { organizationId: number; id: number; leaseUntil: Date },
  outcome: {
    status: 'succeeded' | 'failed' | 'pending';
    processorReference: string | null;
    error: string | null;
  },
  now: Date,
): Promise<RefundRow | null> {
  const { rows } = await db.query<RefundRow>(
    `UPDATE refunds
        SET status = $4, processor_reference = COALESCE($5, processor_reference), error = $6,
            lease_until = CASE WHEN $4 = 'pending' THEN $7::timestamptz ELSE NULL END, updated_at = $7
      WHERE organization_id = $1 AND id = $2 AND status = 'pending' AND lease_until = $3
      RETURNING *`,
    [
      held.organizationId,
      held.id,
      held.leaseUntil,
      outcome.status,
      outcome.processorReference,
      outcome.error,
      now,
    ],
  );
  return rows[0] ?? null;
}

/** A refund the processor reports failed after it accepted it (Stripe's refund.updated). */
export async function markRefundFailed(
  db: Queryable,
  id: number,
  error: string,
  now: Date,
): Promise<RefundRow | null> {
  const { rows } = await db.query<RefundRow>(
    `UPDATE refunds SET status = 'failed', error = $2, lease_until = NULL, updated_at = $3
      WHERE id = $1 AND status <> 'failed' RETURNING *`,
    [id, error, now],
  );
  return rows[0] ?? null;
}
