// The housekeeping of what the job queue leaves behind (docs/operations.md, "Housekeeping"): finished jobs, webhook
// deliveries that are over and old emails' bodies go after their retention; nothing still in flight does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmailListSchema, EmailSchema } from '../../src/contract/email.js';
import { createJobHandlers } from '../../src/server/job-handlers.js';
import { runMaintenance } from '../../src/server/modules/housekeeping/maintenance.js';
import { enqueueJob } from '../../src/server/platform/jobs/job-queue.js';
import { createJobWorker } from '../../src/server/platform/jobs/job-worker.js';
import { findJobByKey } from '../../src/server/platform/jobs/jobs-repository.js';
import { createLogger } from '../../src/server/platform/logging.js';
import { CARDS, card, orderBody } from '../helpers/order-body.js';
import { startSmtpInbox, type SmtpInbox } from '../helpers/smtp-inbox.js';
import { shopperSession } from '../helpers/shopper.js';
import { storeWithShopper } from '../helpers/store.js';
import { createTestApp, merchantClient, subscriberLinksOf, type TestApp } from '../helpers/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const DAY = 24 * 3_600_000;
const MINUTE = 60_000;
const retention = {
  untouchedCartRetentionMs: 7 * DAY,
  jobRetentionMs: 30 * DAY,
  emailBodyRetentionMs: 20 * DAY,
};

let t: TestApp;
let inbox: SmtpInbox;
let receiver: WebhookReceiver;

beforeAll(async () => {
  [inbox, receiver] = await Promise.all([startSmtpInbox(), startWebhookReceiver()]);
  t = await createTestApp({
    config: { smtpUrl: inbox.url, webhooks: { requireHttps: false, allowPrivateUrls: true } },
  });
});

afterAll(async () => {
  await t?.close();
  await Promise.all([inbox?.close(), receiver?.close()]);
});

async function count(sql: string, params: unknown[] = []): Promise<number> {
  return Number((await t.db.query<{ n: number }>(sql, params)).rows[0]?.n);
}

describe('the housekeeping of jobs, webhook deliveries and emails', () => {
  it('deletes what ended after its retention, keeps what may still run, and keeps each email’s record', async () => {
    const { handlers, emailJobs } = createJobHandlers(t.config, subscriberLinksOf(t));
    const worker = createJobWorker(t.db, handlers, {
      clock: t.clock,
      logger: createLogger({ level: 'silent' }),
    });
    try {
      const { store } = await storeWithShopper(t.app, t.db);
      const api = merchantClient(t.app, store.org.apiKey);
      const endpoint = await api.post('/webhook-endpoints', {
        url: receiver.url,
        events: ['order.completed'],
      });
      expect(endpoint.status).toBe(201);
      const order = async (key: string) => {
        const token = await store.cart([{ offer_id: store.offers.beans.id }]);
        const shopper = await shopperSession(t.app, store.org.publicId);
        const placed = await shopper.post('orders', orderBody(token, { payment: card(CARDS.visa) }), {
          'idempotency-key': `${key}-${process.pid}`,
        });
        expect(placed.status).toBe(200);
        return placed.body.order.order_id as number;
      };

      // Day 0: an order whose receipt and webhook go out at once; a job given up; a job due in two months.
      const oldOrder = await order('old');
      await enqueueJob(
        t.db,
        { kind: 'no.such.kind', key: 'given-up', payload: {}, organizationId: null, retryDelaysSeconds: [] },
        t.clock.now(),
      );
      await enqueueJob(
        t.db,
        {
          kind: 'later.kind',
          key: 'due-later',
          payload: {},
          organizationId: null,
          runAt: new Date(t.clock.now().getTime() + 60 * DAY),
        },
        t.clock.now(),
      );
      await worker.drain();
      expect(await findJobByKey(t.db, 'given-up')).toMatchObject({ status: 'failed' });
      const [oldEmail] = EmailListSchema.parse((await api.get(`/emails?order_id=${oldOrder}`)).body).data;
      expect(oldEmail).toMatchObject({ status: 'sent' });
      expect(await count("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'succeeded'")).toBe(1);

      // Day 29: an order whose webhook receiver is down: its delivery stays pending, its job queued for a retry.
      t.clock.advance(29 * DAY);
      receiver.answer = 503;
      const newOrder = await order('new');
      await worker.drain();
      expect(await count("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending'")).toBe(1);
      const jobsBefore = await count('SELECT count(*) AS n FROM jobs');

      // A minute short of 30 days after the first ones ended, no job or delivery goes; the first email's body does
      // (its retention is 20 days here), the newer one's stays.
      t.clock.advance(DAY - MINUTE);
      const early = await runMaintenance(t.db, t.clock.now(), retention);
      expect(early).toMatchObject({
        finishedJobsDeleted: 0,
        webhookDeliveriesDeleted: 0,
        emailBodiesDropped: 1,
      });
      expect(await count('SELECT count(*) AS n FROM jobs')).toBe(jobsBefore);

      t.clock.advance(2 * MINUTE);
      const swept = await runMaintenance(t.db, t.clock.now(), retention);
      // The first order's receipt, order event and webhook delivery jobs, and the job given up.
      expect(swept).toMatchObject({
        finishedJobsDeleted: 4,
        webhookDeliveriesDeleted: 1,
        emailBodiesDropped: 0,
      });
      expect(await findJobByKey(t.db, 'given-up')).toBeNull();
      expect(await findJobByKey(t.db, 'due-later')).toMatchObject({ status: 'queued' });
      // Still in flight: the newer order's delivery, its attempt and its job are kept.
      expect(await count("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending'")).toBe(1);
      expect(await count('SELECT count(*) AS n FROM webhook_deliveries')).toBe(1);
      expect(await count('SELECT count(*) AS n FROM webhook_attempts')).toBe(1);
      expect(await count("SELECT count(*) AS n FROM jobs WHERE status = 'queued'")).toBe(2);

      // The old email keeps its record, without its bodies; the newer one keeps everything.
      const old = EmailSchema.parse((await api.get(`/emails/${oldEmail!.id}`)).body);
      expect(old).toMatchObject({
        status: 'sent',
        kind: 'order_receipt',
        to: 'ada@example.com',
        subject: oldEmail!.subject,
        html: null,
        text: null,
        attempts: null,
      });
      const [newEmail] = EmailListSchema.parse((await api.get(`/emails?order_id=${newOrder}`)).body).data;
      const kept = EmailSchema.parse((await api.get(`/emails/${newEmail!.id}`)).body);
      expect(kept.html).toContain(`#${newOrder}`);
      expect(kept.text).toContain(`#${newOrder}`);

      // Run again: nothing more to do.
      expect(await runMaintenance(t.db, t.clock.now(), retention)).toMatchObject({
        finishedJobsDeleted: 0,
        webhookDeliveriesDeleted: 0,
        emailBodiesDropped: 0,
      });
    } finally {
      receiver.answer = 200;
      emailJobs.mailer.close();
    }
  });
});
