import type { Database } from '../../platform/db/database.js';
import { expireLapsedExpressPayments } from '../express/express-payments-repository.js';
import { deleteUntouchedLinkCarts } from '../carts/carts-repository.js';
import { deleteExpiredIdempotencyKeys } from '../orders/idempotency-repository.js';
import { releaseStaleDiscountReservations } from '../orders/discount-uses-repository.js';
import { deleteFinishedJobs } from '../../platform/jobs/jobs-repository.js';
import { dropOldEmailBodies } from '../emails/emails-repository.js';
import { deleteOldWebhookDeliveries } from '../webhooks/webhooks-repository.js';
import { deleteEndedStaffRecords } from '../staff/staff-repository.js';
import { SIGN_IN_LIMITS } from '../staff/staff-rules.js';

const STALE_RESERVATION_MS = 60 * 60 * 1000;
/** JOB_RETENTION_DAYS and EMAIL_BODY_RETENTION_DAYS when unset (docs/operations.md, "Housekeeping"). */
export const DEFAULT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export interface MaintenanceSummary {
  idempotencyKeysDeleted: number;
  discountUsesReleased: number;
  expressPaymentsExpired: number;
  untouchedCartsRemoved: number;
  finishedJobsDeleted: number;
  webhookDeliveriesDeleted: number;
  emailBodiesDropped: number;
  staffRecordsDeleted: number;
}

export interface MaintenanceOptions {
  /** Carts made from checkout links that nobody touched for this long are removed (UNTOUCHED_CART_RETENTION_HOURS). */
  untouchedCartRetentionMs: number;
  /** Jobs that ended, and webhook deliveries that are over, are deleted this long after (JOB_RETENTION_DAYS). */
  jobRetentionMs?: number;
  /** Emails keep their bodies this long, then only their record (EMAIL_BODY_RETENTION_DAYS). */
  emailBodyRetentionMs?: number;
}

/**
 * Housekeeping, run by every server on its own timer and by `npm run rebill`: old idempotency keys, code uses held by crashed payments, lapsed approvals, and
 * the carts checkout links made that nobody used (each visit of a link makes one; docs/security.md, "Abuse limits"),
 * what the job queue leaves behind (finished jobs, webhook deliveries that are over, old emails' bodies), and the
 * dashboard's ended sessions and sign-in failures that no longer count.
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
  const before = (retentionMs: number | undefined) =>
    new Date(now.getTime() - (retentionMs ?? DEFAULT_RETENTION_MS));
  // Jobs first: a delivery is kept while a job may still send it.
  const finishedJobsDeleted = await deleteFinishedJobs(db, before(options.jobRetentionMs));
  const webhookDeliveriesDeleted = await db.transaction((tx) =>
    deleteOldWebhookDeliveries(tx, before(options.jobRetentionMs)),
  );
  const emailBodiesDropped = await dropOldEmailBodies(db, before(options.emailBodyRetentionMs));
  const staffRecordsDeleted = await deleteEndedStaffRecords(db, {
    now,
    failuresBefore: new Date(now.getTime() - SIGN_IN_LIMITS.windowMs),
  });
  return {
    idempotencyKeysDeleted,
    discountUsesReleased,
    expressPaymentsExpired,
    untouchedCartsRemoved,
    finishedJobsDeleted,
    webhookDeliveriesDeleted,
    emailBodiesDropped,
    staffRecordsDeleted,
  };
}
