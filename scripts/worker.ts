// The job worker on its own (docs/operations.md, "Jobs"): runs the queue's jobs until SIGTERM or SIGINT, or with
// --drain runs the jobs due now and exits. Any number of workers (and servers) may share one PostgreSQL.
import { systemClock } from '../src/server/platform/clock.js';
import { loadConfig } from '../src/server/platform/config.js';
import { openDatabase } from '../src/server/platform/db/open-database.js';
import { migrate } from '../src/server/platform/db/migrate.js';
import { createJobWorker } from '../src/server/platform/jobs/job-worker.js';
import { createLogger } from '../src/server/platform/logging.js';
import { emailDeliveryLine } from '../src/server/modules/emails/email-jobs.js';
import {
  scheduleChargeReminders,
  startChargeReminderScan,
} from '../src/server/modules/emails/charge-reminders.js';
import { createJobHandlers } from '../src/server/job-handlers.js';
import { createSubscriberLinks } from '../src/server/modules/subscriber/subscriber-link.js';
import { resolveSecret } from '../src/server/platform/security/persisted-secrets.js';
import { createTokenService } from '../src/server/platform/security/tokens.js';

const config = loadConfig();
const logger = createLogger({ level: config.logLevel });
const db = await openDatabase(config, { warn: (message) => logger.warn(message) });
await migrate(db);
// The same secret as the server's, so the links in the emails it sends open the server's self-service page.
const tokenSecret = await resolveSecret(config.tokenSecret, config.dataDir, 'token-secret');
const subscriberLinks = createSubscriberLinks(
  createTokenService({ current: tokenSecret.value, previous: config.tokenSecretPrevious }, systemClock),
  config.publicUrl,
  () => systemClock.now(),
);
const { handlers, emailJobs } = createJobHandlers(config, subscriberLinks);
const worker = createJobWorker(db, handlers, { clock: systemClock, logger });
console.log(emailDeliveryLine(emailJobs.mailer, config.smtpUrl));

if (process.argv.includes('--drain')) {
  try {
    // The reminders due now first, so a drain run from cron sends them too (docs/emails.md, "Subscription emails").
    const reminders = await scheduleChargeReminders(db, systemClock.now());
    console.log(`worker: ${reminders} charge reminders enqueued, ${await worker.drain()} job attempts run`);
  } finally {
    emailJobs.mailer.close();
    await db.close();
  }
} else {
  // The upcoming-charge reminders are scanned for beside each job worker (docs/emails.md, "Subscription emails").
  const reminders = startChargeReminderScan(db, systemClock, logger);
  const stop = async (signal: string) => {
    logger.info({ signal }, 'worker stopping: finishing the jobs in progress');
    await Promise.all([reminders.stop(), worker.stop()]);
    emailJobs.mailer.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  worker.start();
  console.log('worker: running jobs (Ctrl-C stops)');
}
