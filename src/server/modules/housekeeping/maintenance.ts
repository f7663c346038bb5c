import type { Database } from '../../platform/db/database.js';
import { expireLapsedExpressPayments } from '../express/express-payments-repository.js';
import { deleteUntouchedLinkCarts } from '../carts/carts-repository.js';
import { deleteExpiredIdempotencyKeys } from '../orders/idempotency-repository.js';
import { releaseStaleDiscountReservations } from '../orders/discount-uses-repository.js';

const STALE_RESERVATION_MS = 60 * 60 * 1000;

export interface MaintenanceSummary {
  idempotencyKeysDeleted: number;
  discountUsesReleased: number;
  expressPaymentsExpired: number;
  untouchedCartsRemoved: number;
}

export interface MaintenanceOptions {
  /** Carts made from checkout links that nobody touched for this long are removed (UNTOUCHED_CART_RETENTION_HOURS). */
  untouchedCartRetentionMs: number;
}

/**
 * Housekeeping, run by every server on its own timer and by `npm run rebill`: old idempotency keys, code uses held by crashed payments, lapsed approvals, and
 * the carts checkout links made that nobody used (each visit of a link makes one; docs/security.md, "Abuse limits").
 */
export async function runMaintenance(
  db: Database,
  now: Date,
  options: MaintenanceOptions,
): Promise<MaintenanceSummary> {
  const idempotencyKeysDeleted = await deleteExpiredIdempotencyKeys(db, now);
  const discountUsesReleased = await db.transaction((tx) =>
    releaseStaleDiscountReservations(tx, new Date(now.getTime() - STALE_RESERVATION_MS), now),
  );
  const expressPaymentsExpired = await expireLapsedExpressPayments(db, now);
  const untouchedCartsRemoved = await db.transaction((tx) =>
    deleteUntouchedLinkCarts(tx, new Date(now.getTime() - options.untouchedCartRetentionMs)),
  );
  return { idempotencyKeysDeleted, discountUsesReleased, expressPaymentsExpired, untouchedCartsRemoved };
}
