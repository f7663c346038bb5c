// The processor events handled so far, the refunds and disputes recorded against orders, and the lookups webhooks need.
import type { Queryable } from '../../platform/db/database.js';

export async function isEventProcessed(db: Queryable, gateway: string, eventId: string): Promise<boolean> {
  const { rows } = await db.query<{ found: number }>(
    'SELECT 1 AS found FROM processor_events WHERE gateway = $1 AND event_id = $2',
    [gateway, eventId],
  );
  return rows.length > 0;
}

export async function markEventProcessed(
  db: Queryable,
  event: { gateway: string; id: string; type: string; organizationId: number | null },
  now: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO processor_events (organization_id, gateway, event_id, type, processed_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (gateway, event_id) DO NOTHING`,
    [event.organizationId, event.gateway, event.id, event.type, now],
  );
}

export interface PaymentEventValues {
  organization_id: number;
  order_id: number;
  gateway: string;
  reference: string;
  source_id: string;
  kind: 'refund' | 'dispute';
  amount: number;
  currency: string;
  status: string;
  reason: string | null;
}

export interface PaymentEventRow extends PaymentEventValues {
  id: number;
  created_at: Date;
}

/** Records a refund or dispute once per source (event or refund id); a second delivery writes nothing. */
export async function insertPaymentEvent(
  db: Queryable,
  values: PaymentEventValues,
  now: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO payment_events (organization_id, order_id, gateway, reference, source_id, kind, amount, currency,
                                 status, reason, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     ON CONFLICT (gateway, source_id) DO NOTHING`,
    [
      values.organization_id,
      values.order_id,
      values.gateway,
      values.reference,
      values.source_id,
      values.kind,
      values.amount,
      values.currency,
      values.status,
      values.reason,
      now,
    ],
  );
}

export async function findPaymentEvents(
  db: Queryable,
  organizationId: number,
  orderId: number,
): Promise<PaymentEventRow[]> {
  const { rows } = await db.query<PaymentEventRow>(
    'SELECT * FROM payment_events WHERE organization_id = $1 AND order_id = $2 ORDER BY id',
    [organizationId, orderId],
  );
  return rows;
}

/**
 * What the processor reported as refunded of a payment in all (its refund events carry the running total, which
 * counts the refunds made through our API too); 0 when it reported none. docs/api.md, "Refunds".
 */
export async function findReportedRefundTotal(
  db: Queryable,
  organizationId: number,
  orderId: number,
  reference: string,
): Promise<number> {
  const { rows } = await db.query<{ total: number }>(
    `SELECT COALESCE(max(amount), 0) AS total FROM payment_events
      WHERE organization_id = $1 AND order_id = $2 AND reference = $3 AND kind = 'refund'
        AND status IN ('refunded', 'partially_refunded')`,
    [organizationId, orderId, reference],
  );
  return Number(rows[0]?.total ?? 0);
}

/** The order a processor's payment reference was recorded against by one of its attempts. */
export async function findOrderByPaymentReference(
  db: Queryable,
  gateway: string,
  reference: string,
): Promise<{ organization_id: number; order_id: number } | null> {
  const { rows } = await db.query<{ organization_id: number; order_id: number }>(
    `SELECT organization_id, order_id FROM payment_attempts
      WHERE gateway = $1 AND gateway_reference = $2 ORDER BY id LIMIT 1`,
    [gateway, reference],
  );
  return rows[0] ?? null;
}

export async function orderExists(db: Queryable, organizationId: number, orderId: number): Promise<boolean> {
  const { rows } = await db.query<{ found: number }>(
    'SELECT 1 AS found FROM orders WHERE organization_id = $1 AND id = $2',
    [organizationId, orderId],
  );
  return rows.length > 0;
}

/** The gift the order's cart claims, which completing the order marks claimed. */
export async function findCartGiftClaim(
  db: Queryable,
  organizationId: number,
  cartId: number,
): Promise<number | null> {
  const { rows } = await db.query<{ gift_claim_id: number | null }>(
    'SELECT gift_claim_id FROM carts WHERE organization_id = $1 AND id = $2',
    [organizationId, cartId],
  );
  return rows[0]?.gift_claim_id ?? null;
}

/** Whether the order is the linked order of a one-click offer the shopper said no to (docs/api.md, "Upsells"). */
export async function isDeclinedUpsellOrder(
  db: Queryable,
  organizationId: number,
  orderId: number,
): Promise<boolean> {
  const { rows } = await db.query<{ found: number }>(
    `SELECT 1 AS found FROM order_upsell_steps
      WHERE organization_id = $1 AND linked_order_id = $2 AND status = 'declined'`,
    [organizationId, orderId],
  );
  return rows.length > 0;
}
