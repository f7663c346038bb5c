// Every kind of job and its handler (docs/architecture.md, "Jobs"): one registry for the server's worker and
// `npm run worker`, so a job is carried out the same wherever it is picked up.
import type { Config } from './platform/config.js';
import type { JobHandler } from './platform/jobs/job-queue.js';
import { createEmailJobs } from './modules/emails/email-jobs.js';
import { DELIVER_WEBHOOK_JOB } from './modules/webhooks/webhook-events.js';
import { createWebhookDeliveryHandler } from './modules/webhooks/webhook-delivery.js';
import { ORDER_EVENT_JOB } from './modules/webhooks/order-event-enqueue.js';
import { orderEventHandler } from './modules/webhooks/order-event-job.js';
import type { SubscriberLinks } from './modules/subscriber/subscriber-link.js';

export function createJobHandlers(
  config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir' | 'publicUrl' | 'webhooks'>,
  subscriberLinks: SubscriberLinks,
): {
  handlers: Record<string, JobHandler>;
  emailJobs: ReturnType<typeof createEmailJobs>;
} {
  const emailJobs = createEmailJobs(config, subscriberLinks);
  return {
    handlers: {
      ...emailJobs.handlers,
      [DELIVER_WEBHOOK_JOB]: createWebhookDeliveryHandler({ allowPrivate: config.webhooks.allowPrivateUrls }),
      [ORDER_EVENT_JOB]: orderEventHandler,
    },
    emailJobs,
  };
}
