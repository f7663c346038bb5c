// Charges every due subscription once and does the housekeeping, then exits. Safe to run from several machines
// at once (cron on each instance, say): runners skip each other's subscriptions.
import { systemClock } from '../src/server/platform/clock.js';
import { loadConfig } from '../src/server/platform/config.js';
import { openDatabase } from '../src/server/platform/db/open-database.js';
import { createLogger } from '../src/server/platform/logging.js';
import { createPaymentGateways } from '../src/server/platform/payments/select-gateway.js';
import { runMaintenance } from '../src/server/modules/housekeeping/maintenance.js';
import { runRebills } from '../src/server/modules/subscriptions/rebill-service.js';

const config = loadConfig();
const logger = createLogger({ level: config.logLevel });
const db = await openDatabase(config);
try {
  const gateways = createPaymentGateways(config, { db, clock: systemClock, logger });
  const rebills = await runRebills({ db, gateways, clock: systemClock, logger });
  const maintenance = await runMaintenance(db, systemClock.now(), {
    untouchedCartRetentionMs: config.untouchedCartRetentionMs,
    jobRetentionMs: config.jobRetentionMs,
    emailBodyRetentionMs: config.emailBodyRetentionMs,
  });
  console.log(
    `rebill: ${rebills.approved} charged, ${rebills.declined} declined (${rebills.pastDue} now past due), ` +
      `${rebills.errors} gateway errors; ${maintenance.idempotencyKeysDeleted} old idempotency keys removed, ` +
      `${maintenance.discountUsesReleased} held code uses released, ${maintenance.expressPaymentsExpired} approvals expired, ` +
      `${maintenance.untouchedCartsRemoved} untouched carts removed, ${maintenance.finishedJobsDeleted} finished jobs ` +
      `and ${maintenance.webhookDeliveriesDeleted} webhook deliveries deleted, ` +
      `${maintenance.emailBodiesDropped} old email bodies dropped, ` +
      `${maintenance.staffRecordsDeleted} ended dashboard sessions and old sign-in failures deleted`,
  );
} finally {
  await db.close();
}
