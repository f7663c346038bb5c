import type { Database } from '../db/database.js';
import { expireLapsedExpressPayments } from '../repositories/express-payments-repository.js';
import { deleteExpiredIdempotencyKeys } from '../repositories/idempotency-repository.js';
import { releaseStaleDiscountReservations } from '../repositories/orders-repository.js';

const STALE_RESERVATION_MS = 60 * 60 * 1000;

export interface MaintenanceSummary {
  idempotencyKeysDeleted: number;
  discountUsesReleased: number;
  expressPaymentsExpired: number;
}

/** Housekeeping run with the rebills: old idempotency keys, code uses held by crashed payments, lapsed approvals. */
export async function runMaintenance(db: Database, now: Date): Promise<MaintenanceSummary> {
  const idempotencyKeysDeleted = await deleteExpiredIdempotencyKeys(db, now);
  const discountUsesReleased = await db.transaction((tx) =>
    releaseStaleDiscountReservations(tx, new Date(now.getTime() - STALE_RESERVATION_MS), now),
  );
  const expressPaymentsExpired = await expireLapsedExpressPayments(db, now);
  return { idempotencyKeysDeleted, discountUsesReleased, expressPaymentsExpired };
}
