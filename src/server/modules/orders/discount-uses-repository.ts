// The uses of a discount code held by payments in flight, and given back (docs/api.md, "Discount code uses").
import type { Queryable } from '../../platform/db/database.js';

/**
 * Holds one use of a code for a payment in flight (discount_codes.held_count, migration 0009). When the limit is
 * reached, answers the uses completed orders have taken, to tell a code used up from one whose last uses are held.
 * The row lock makes racing holds queue.
 */
export async function reserveDiscountUse(
  db: Queryable,
  organizationId: number,
  discountCodeId: number,
): Promise<{ held: true } | { held: false; usageCount: number; usageLimit: number | null }> {
  const { rowCount } = await db.query(
    `UPDATE discount_codes SET held_count = held_count + 1
      WHERE organization_id = $1 AND id = $2 AND (usage_limit IS NULL OR usage_count + held_count < usage_limit)`,
    [organizationId, discountCodeId],
  );
  if (rowCount > 0) return { held: true };
  // A statement of its own, so that it reads what was committed since the update's snapshot was taken.
  const { rows } = await db.query<{ usage_count: number; usage_limit: number | null }>(
    'SELECT usage_count, usage_limit FROM discount_codes WHERE organization_id = $1 AND id = $2',
    [organizationId, discountCodeId],
  );
  const row = rows[0];
  if (!row) throw new Error(`discount code ${discountCodeId} vanished`);
  return { held: false, usageCount: row.usage_count, usageLimit: row.usage_limit };
}

/** Gives back a use held for a payment that was declined or never made. */
export async function releaseDiscountUse(
  db: Queryable,
  organizationId: number,
  discountCodeId: number,
): Promise<void> {
  await db.query(
    'UPDATE discount_codes SET held_count = held_count - 1 WHERE organization_id = $1 AND id = $2 AND held_count > 0',
    [organizationId, discountCodeId],
  );
}

/**
 * Gives back the code uses held by orders whose payment never finished (the process died between holding the use
 * and recording the payment): no lease, not complete, untouched for `staleBefore`.
 */
export async function releaseStaleDiscountReservations(
  db: Queryable,
  staleBefore: Date,
  now: Date,
): Promise<number> {
  const { rows } = await db.query<{ organization_id: number; discount_code_id: number }>(
    `WITH stale AS (
       SELECT id FROM orders
        WHERE discount_reserved AND status <> 'complete' AND discount_code_id IS NOT NULL AND updated_at < $1
          AND (payment_lease_until IS NULL OR payment_lease_until < $2)
        FOR UPDATE SKIP LOCKED
     )
     UPDATE orders o SET discount_reserved = false, updated_at = $2 FROM stale WHERE o.id = stale.id
     RETURNING o.organization_id, o.discount_code_id`,
    [staleBefore, now],
  );
  for (const row of rows) await releaseDiscountUse(db, row.organization_id, row.discount_code_id);
  return rows.length;
}

export async function clearDiscountReservation(
  db: Queryable,
  organizationId: number,
  orderId: number,
): Promise<void> {
  await db.query('UPDATE orders SET discount_reserved = false WHERE organization_id = $1 AND id = $2', [
    organizationId,
    orderId,
  ]);
}
