// The upcoming-charge reminder's scan (docs/emails.md, "Subscription emails"): run beside every job worker, it
// enqueues a reminder for each charge date that came within its organization's window. The key is the charge date,
// so a skip, a resume or a moved date needs no hook of its own: the next scan finds the date as it is then.
import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import { repeatEvery, type RepeatingTask } from '../../platform/maintenance/repeat-every.js';
import { parseOrganizationSettings } from '../../../contract/organization.js';
import { subscriptionEmailJob, subscriptionEmailKeyPrefix } from './subscription-email-enqueue.js';
import {
  enqueueDueChargeReminders,
  findOrganizationsWithActiveSubscriptions,
} from './subscription-emails-repository.js';

/** How often the scan runs: a reminder goes out at most this long after its day and hour came. */
export const CHARGE_REMINDER_SCAN_SECONDS = 15 * 60;

/** Enqueues the reminders now due, each once per charge date; answers how many it enqueued. */
export async function scheduleChargeReminders(db: Database, now: Date): Promise<number> {
  const organizations = await findOrganizationsWithActiveSubscriptions(db);
  const reminding = organizations.flatMap((organization) => {
    const days = parseOrganizationSettings(organization.settings).subscriptionEmails.reminder_days_before;
    return days === null ? [] : [{ id: organization.id, days }];
  });
  return enqueueDueChargeReminders(db, {
    kind: subscriptionEmailJob('charge_reminder'),
    keyPrefix: subscriptionEmailKeyPrefix('charge_reminder'),
    organizations: reminding,
    now,
  });
}

/** The scan on a timer, beside a job worker (server.ts, `npm run worker`); its first run a minute after start. */
export function startChargeReminderScan(
  db: Database,
  clock: Clock,
  logger: Pick<Logger, 'error' | 'info'>,
): RepeatingTask {
  return repeatEvery(
    CHARGE_REMINDER_SCAN_SECONDS,
    'charge reminder scan',
    logger,
    async () => {
      const enqueued = await scheduleChargeReminders(db, clock.now());
      if (enqueued > 0) logger.info({ enqueued }, 'charge reminders enqueued');
    },
    { firstAfterSeconds: 60 },
  );
}
