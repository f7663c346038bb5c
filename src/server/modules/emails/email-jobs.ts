import type { Config } from '../../platform/config.js';
import type { JobHandler } from '../../platform/jobs/job-queue.js';
import { createMailer, keptEmailsDir, type Mailer } from './mailer.js';
import { orderReceiptHandler } from './order-receipt-job.js';
import { ORDER_RECEIPT_JOB } from './receipt-enqueue.js';
import { GIFT_CLAIMED_JOB, GIFT_NOTICE_JOB } from './gift-enqueue.js';
import { giftClaimedHandler, giftNoticeHandler, refundConfirmationHandler } from './notice-jobs.js';
import { REFUND_CONFIRMATION_JOB } from './refund-enqueue.js';
import type { SubscriberLinks } from '../subscriber/subscriber-link.js';
import { subscriptionEmailHandlers } from './subscription-email-jobs.js';
import { abandonedCheckoutHandler } from './abandoned-checkout-job.js';
import { ABANDONED_CHECKOUT_JOB } from './abandoned-checkout-enqueue.js';
import { STAFF_INVITE_JOB } from '../staff/staff-service.js';
import { staffInviteHandler } from './staff-invite-job.js';

/**
 * The mailer the configuration asks for and the email jobs' handlers, for a job worker (server.ts, the CLI).
 * `subscriberLinks` makes the self-service links the subscription emails carry.
 */
export function createEmailJobs(
  config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir' | 'publicUrl'>,
  subscriberLinks: SubscriberLinks,
): {
  mailer: Mailer;
  handlers: Record<string, JobHandler>;
} {
  const mailer = createMailer({ smtpUrl: config.smtpUrl, keepDir: keptEmailsDir(config.dataDir) });
  const options = { mailFrom: config.mailFrom, publicUrl: config.publicUrl, subscriberLinks };
  return {
    mailer,
    handlers: {
      [ORDER_RECEIPT_JOB]: orderReceiptHandler(mailer, options),
      [GIFT_NOTICE_JOB]: giftNoticeHandler(mailer, options),
      [GIFT_CLAIMED_JOB]: giftClaimedHandler(mailer, options),
      [REFUND_CONFIRMATION_JOB]: refundConfirmationHandler(mailer, options),
      ...subscriptionEmailHandlers(mailer, options),
      [ABANDONED_CHECKOUT_JOB]: abandonedCheckoutHandler(mailer, options),
      [STAFF_INVITE_JOB]: staffInviteHandler(mailer, options),
    },
  };
}

/** The start-up line saying where emails go (docs/emails.md). */
export function emailDeliveryLine(mailer: Mailer, smtpUrl: string | null): string {
  if (smtpUrl !== null) return `Emails: sent through ${new URL(smtpUrl).host} (SMTP_URL)`;
  return `Emails: kept in ${mailer.keptIn ?? 'the database only'} (no SMTP_URL)`;
}
