import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmailListSchema, EmailSchema } from '../../src/contract/email.js';
import { createEmailJobs } from '../../src/server/modules/emails/email-jobs.js';
import { ORDER_RECEIPT_JOB, receiptKey } from '../../src/server/modules/emails/receipt-enqueue.js';
import { enqueueJob } from '../../src/server/platform/jobs/job-queue.js';
import { createJobWorker } from '../../src/server/platform/jobs/job-worker.js';
import { claimDueJobs, findJobByKey } from '../../src/server/platform/jobs/jobs-repository.js';
import { createLogger } from '../../src/server/platform/logging.js';
import { CARDS, card, LONDON_BILLING, orderBody } from '../helpers/order-body.js';
import {
  http,
  shopperHeaders,
  startServer,
  stopServer,
  withCardTokenOver,
  type ServerProcess,
} from '../helpers/server-process.js';
import { startSmtpInbox, type SmtpInbox } from '../helpers/smtp-inbox.js';
import { storeWithShopper } from '../helpers/store.js';
import { createTestApp, merchantClient, subscriberLinksOf, type TestApp } from '../helpers/test-app.js';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '../helpers/test-database.js';

const logger = createLogger({ level: 'silent' });
let inbox: SmtpInbox;
/** the app sending through the test's SMTP server */
let smtp: TestApp;
/** the app with no SMTP settings: emails are kept */
let kept: TestApp;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  [smtp, kept] = await Promise.all([
    createTestApp({ config: { smtpUrl: inbox.url, mailFrom: 'orders@shop.example' } }),
    createTestApp(),
  ]);
});

let server: ServerProcess | null = null;
let serverDatabase: TestDatabase | null = null;

afterAll(async () => {
  if (server) await stopServer(server);
  await Promise.all([smtp?.close(), kept?.close(), inbox?.close(), serverDatabase?.drop()]);
});

let keyCounter = 0;
const key = () => `emails-${process.pid}-${++keyCounter}`;

function workerFor(t: TestApp) {
  const { mailer, handlers } = createEmailJobs(t.config, subscriberLinksOf(t));
  return { mailer, handlers, worker: createJobWorker(t.db, handlers, { clock: t.clock, logger }) };
}

/** A store named `name` and a card order in it by the Austin shopper, billed in London. */
async function cardOrder(t: TestApp, name: string) {
  const { store, shopper } = await storeWithShopper(t.app, t.db);
  const api = merchantClient(t.app, store.org.apiKey);
  expect((await api.patch('/organization', { name })).status).toBe(200);
  const token = await store.cart([
    { offer_id: store.offers.beans.id, quantity: 2 },
    { offer_id: store.offers.mug.id },
  ]);
  const placed = await shopper.post(
    'orders',
    orderBody(token, { payment: card(CARDS.visa), ...LONDON_BILLING }),
    {
      'idempotency-key': key(),
    },
  );
  expect(placed.status).toBe(200);
  const orderId = placed.body.order.order_id as number;
  const order = (await api.get(`/orders/${orderId}`)).body;
  return { api, orderId, order, organizationId: store.org.id };
}

describe('the order receipt through SMTP', () => {
  it('sends exactly one receipt per card order, branded with the store and without the card number', async () => {
    const { worker, mailer } = workerFor(smtp);
    try {
      const before = inbox.messages.length;
      const { orderId, order, organizationId } = await cardOrder(smtp, 'Ada & Co <Coffee>');
      expect(await worker.drain()).toBe(1);
      expect(inbox.messages.length).toBe(before + 1);
      const mail = inbox.messages.at(-1)!;
      const raw = inbox.raw.at(-1)!;

      expect(mail.subject).toBe(`Your Ada & Co <Coffee> order #${orderId}`);
      expect(mail.from?.value).toEqual([{ name: 'Ada & Co <Coffee>', address: 'orders@shop.example' }]);
      expect(mail.to).toMatchObject({ value: [{ address: 'ada@example.com' }] });
      expect(mail.messageId).toMatch(/^<email-\d+@shop\.example>$/);
      const total = `$${(order.total as number).toFixed(2)}`;
      for (const body of [mail.text!, mail.html as string]) {
        expect(body).toContain(`#${orderId}`);
        expect(body).toContain('$36.00');
        expect(body).toContain('$14.00');
        expect(body).toContain(total);
        expect(body).toContain('ending in 1111');
        expect(body).toContain('1 Congress Ave');
        expect(body).toContain('10 Downing St');
      }
      expect(mail.text).toContain('2 x Coffee beans: $36.00');
      // The store's name is escaped in the HTML, never markup.
      expect(mail.html).toContain('<h1 style="font-size:20px">Ada &amp; Co &lt;Coffee&gt;</h1>');
      expect(mail.html).not.toContain('<Coffee>');
      for (const text of [raw, mail.text!, mail.html as string]) {
        expect(text).not.toContain(CARDS.visa);
        expect(text).not.toMatch(/4111[\s-]?1111[\s-]?1111/);
      }

      // A second completion of the same order (a retry) enqueues nothing new, and nothing is sent twice.
      await enqueueJob(
        smtp.db,
        {
          kind: ORDER_RECEIPT_JOB,
          key: receiptKey(orderId),
          payload: { order_id: orderId },
          organizationId,
        },
        smtp.clock.now(),
      );
      expect(await worker.drain()).toBe(0);
      expect(inbox.messages.length).toBe(before + 1);
    } finally {
      mailer.close();
    }
  });

  it('gives the items used online with their link, as the offer says, and only those', async () => {
    const { worker, mailer } = workerFor(smtp);
    try {
      const { store, shopper } = await storeWithShopper(smtp.app, smtp.db);
      const api = merchantClient(smtp.app, store.org.apiKey);
      expect((await api.patch('/organization', { name: 'Guides & Co' })).status).toBe(200);
      const access = {
        url: 'https://learn.example/brewing?ref=a&b=1',
        instructions: 'Sign in with <this> email.',
      };
      const patched = await api.patch(`/offers/${store.offers.guide.id}`, { digital_access: access });
      expect(patched.body.digital_access).toEqual(access);
      const refused = await api.patch(`/offers/${store.offers.guide.id}`, {
        digital_access: { url: 'ftp://x' },
      });
      expect(refused.status).toBe(422);
      const token = await store.cart([
        { offer_id: store.offers.guide.id },
        { offer_id: store.offers.mug.id },
      ]);
      const placed = await shopper.post('orders', orderBody(token, { payment: card(CARDS.visa) }), {
        'idempotency-key': key(),
      });
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      const before = inbox.messages.length;
      await worker.drain();
      const mail = inbox.messages.slice(before).find((m) => m.from?.value[0]?.name === 'Guides & Co');
      expect(mail?.text).toContain(
        'Your items online:\nBrewing guide (PDF): Sign in with <this> email. https://learn.example/brewing?ref=a&b=1',
      );
      expect(mail?.html).toContain('<a href="https://learn.example/brewing?ref=a&amp;b=1">');
      expect(mail?.html).toContain('Sign in with &lt;this&gt; email.');
      const online = (mail?.text ?? '').split('Your items online:\n')[1]?.split('\n\n')[0];
      expect(online?.split('\n')).toHaveLength(1);
    } finally {
      mailer.close();
    }
  });

  it('retries a refused send with back-off, records why, and sends it once accepted', async () => {
    const { worker, mailer } = workerFor(smtp);
    try {
      const before = inbox.messages.length;
      inbox.refuse = 'Mailbox unavailable, try later';
      const { api, orderId } = await cardOrder(smtp, 'Refused Store');
      expect(await worker.drain()).toBe(1);
      const failed = EmailListSchema.parse((await api.get(`/emails?order_id=${orderId}`)).body);
      expect(failed.data).toHaveLength(1);
      // Its job will try again: retrying, with why, how many attempts so far and when the next comes.
      expect(failed.data[0]).toMatchObject({
        status: 'retrying',
        sent_at: null,
        order_id: orderId,
        attempts: 1,
        next_attempt_at: new Date(smtp.clock.now().getTime() + 30_000).toISOString(),
      });
      expect(failed.data[0]!.error).toContain('Mailbox unavailable, try later');
      expect(inbox.messages.length).toBe(before);

      inbox.refuse = null;
      expect(await worker.drain()).toBe(0);
      smtp.clock.advance(30_000);
      expect(await worker.drain()).toBe(1);
      const sent = EmailSchema.parse((await api.get(`/emails/${failed.data[0]!.id}`)).body);
      expect(sent).toMatchObject({
        status: 'sent',
        error: null,
        to: 'ada@example.com',
        attempts: 2,
        next_attempt_at: null,
      });
      expect(inbox.messages.length).toBe(before + 1);
      expect(inbox.messages.at(-1)!.subject).toBe(`Your Refused Store order #${orderId}`);

      smtp.clock.advance(3_600_000);
      expect(await worker.drain()).toBe(0);
      expect(inbox.messages.length).toBe(before + 1);
    } finally {
      mailer.close();
    }
  });

  it('says failed, with the reason, only once its job gave up', async () => {
    const { worker, mailer } = workerFor(smtp);
    try {
      const before = inbox.messages.length;
      inbox.refuse = 'No such mailbox here';
      const { api, orderId } = await cardOrder(smtp, 'Given Up Store');
      // Six attempts: the first and one after each of the five waits (30 s, 2, 8, 32 min, about 2 h).
      for (let attempt = 1; attempt <= 6; attempt++) {
        expect(await worker.drain()).toBe(1);
        const [email] = EmailListSchema.parse((await api.get(`/emails?order_id=${orderId}`)).body).data;
        expect(email).toMatchObject({ status: attempt < 6 ? 'retrying' : 'failed', attempts: attempt });
        expect(email!.error).toContain('No such mailbox here');
        expect(email!.next_attempt_at === null).toBe(attempt === 6);
        smtp.clock.advance(3 * 3_600_000);
      }
      inbox.refuse = null;
      expect(await worker.drain()).toBe(0);
      expect(inbox.messages.length).toBe(before);
    } finally {
      inbox.refuse = null;
      mailer.close();
    }
  });

  it('does not send again when its worker died after sending, before the job was done', async () => {
    const { worker, mailer, handlers } = workerFor(smtp);
    try {
      const before = inbox.messages.length;
      const { orderId } = await cardOrder(smtp, 'Crash Store');
      // A worker claims the receipt, sends it, and dies before recording the job as done.
      const claimed = await claimDueJobs(
        smtp.db,
        10,
        new Date(smtp.clock.now().getTime() + 300_000),
        smtp.clock.now(),
      );
      expect(claimed.map((job) => job.payload)).toEqual([{ order_id: orderId }]);
      const job = claimed[0]!;
      await handlers[ORDER_RECEIPT_JOB]!(
        { id: job.id, kind: job.kind, payload: job.payload, organizationId: job.organization_id, attempt: 1 },
        { db: smtp.db, now: smtp.clock.now() },
      );
      expect(inbox.messages.length).toBe(before + 1);

      smtp.clock.advance(300_000);
      expect(await worker.drain()).toBe(1);
      expect(await findJobByKey(smtp.db, receiptKey(orderId))).toMatchObject({ status: 'done', attempts: 2 });
      expect(inbox.messages.length).toBe(before + 1);
    } finally {
      mailer.close();
    }
  });
});

describe('the order receipt with no SMTP settings', () => {
  it('keeps the email as a file and shows it through the merchant API', async () => {
    const { worker, mailer } = workerFor(kept);
    expect(mailer.delivery).toBe('kept');
    const { api, orderId } = await cardOrder(kept, 'Kept Store');
    expect(await worker.drain()).toBe(1);

    const list = EmailListSchema.parse((await api.get(`/emails?order_id=${orderId}`)).body);
    expect(list).toMatchObject({
      has_more: false,
      data: [{ kind: 'order_receipt', status: 'kept', to: 'ada@example.com' }],
    });
    const summary = list.data[0]!;
    expect(summary).toMatchObject({
      from: 'no-reply@localhost',
      subject: `Your Kept Store order #${orderId}`,
    });
    expect(summary.sent_at).toBe(kept.clock.now().toISOString());

    const email = EmailSchema.parse((await api.get(`/emails/${summary.id}`)).body);
    expect(email.html).toContain(`#${orderId}`);
    expect(email.text).toContain(`Thank you for your order #${orderId}.`);
    expect(email.text).toContain('Paid with');

    const file = path.join(kept.config.dataDir, 'emails', `email-${summary.id}.eml`);
    expect(existsSync(file)).toBe(true);
    const eml = readFileSync(file, 'utf8');
    expect(eml).toContain('From: Kept Store <no-reply@localhost>');
    expect(eml).not.toContain(CARDS.visa);
  });

  it('pages the list, keeps other orders out, and answers 404 for an email of another organization', async () => {
    const { worker } = workerFor(kept);
    const first = await cardOrder(kept, 'Paged Store');
    await worker.drain();
    const second = await storeWithShopper(kept.app, kept.db);
    const secondApi = merchantClient(kept.app, second.store.org.apiKey);

    const mine = EmailListSchema.parse((await first.api.get('/emails?limit=1')).body);
    expect(mine.data).toHaveLength(1);
    expect(mine.data[0]!.order_id).toBe(first.orderId);
    expect(
      EmailListSchema.parse((await first.api.get(`/emails?order_id=${first.orderId + 1000}`)).body).data,
    ).toEqual([]);
    expect((await secondApi.get('/emails')).body).toEqual({ data: [], has_more: false });
    expect((await secondApi.get(`/emails/${mine.data[0]!.id}`)).status).toBe(404);
    expect((await first.api.get('/emails?order_id=abc')).status).toBe(422);
  });
});

describe('a running server with no SMTP settings', () => {
  it('says where it keeps emails, and its own worker keeps the receipt of an order placed through it', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'sc-emails-'));
    const merchantKey = `sk_emails_${randomBytes(12).toString('hex')}`;
    const env: Record<string, string> = {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      MERCHANT_API_KEY: merchantKey,
      LOG_LEVEL: 'warn',
    };
    if (testDatabaseKind() === 'postgres') {
      serverDatabase = await createTestDatabase({ migrated: false });
      env.DATABASE_URL = serverDatabase.url ?? '';
    }
    server = await startServer(env);
    const emailsDir = path.join(dataDir, 'emails');
    expect(server.output()).toContain(`Emails: kept in ${emailsDir} (no SMTP_URL)`);

    const merchant = { authorization: `Bearer ${merchantKey}` };
    const offers = (await http(server.baseUrl, 'GET', '/checkout/api/merchant/offers', { headers: merchant }))
      .body;
    const beans = offers.data.find((offer: { item_id: string }) => offer.item_id === 'BEANS-ETH-340');
    const cart = await http(server.baseUrl, 'POST', '/checkout/api/merchant/carts', {
      headers: merchant,
      body: { offers: [{ offer_id: beans.id, quantity: 1 }] },
    });
    const placed = await http(server.baseUrl, 'POST', '/checkout/api/vrio/orders', {
      body: await withCardTokenOver(server.processorUrl, orderBody(cart.body.cart_token)),
      headers: { ...(await shopperHeaders(server.baseUrl)), 'idempotency-key': key() },
    });
    expect(placed.status).toBe(200);
    const orderId = placed.body.order.order_id as number;

    // The in-process worker looks every second.
    let emails: { data: { id: number; status: string; subject: string }[] } = { data: [] };
    for (let tries = 0; tries < 100 && emails.data[0]?.status !== 'kept'; tries++) {
      if (tries > 0) await sleep(100);
      emails = (
        await http(server.baseUrl, 'GET', `/checkout/api/merchant/emails?order_id=${orderId}`, {
          headers: merchant,
        })
      ).body;
    }
    expect(emails.data).toHaveLength(1);
    expect(emails.data[0]).toMatchObject({ status: 'kept', subject: expect.stringContaining(`#${orderId}`) });
    expect(existsSync(path.join(emailsDir, `email-${emails.data[0]!.id}.eml`))).toBe(true);
  }, 90_000);
});
