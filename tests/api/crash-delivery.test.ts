// A server killed while emails and webhooks wait in its job queue (docs/architecture.md, "Jobs"): restarted on the
// same database, it delivers each email and each webhook event exactly once. Runs on PostgreSQL with
// TEST_DATABASE_URL, on the embedded database (a DATA_DIR shared across the restarts) otherwise.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { EmailListSchema } from '../../src/contract/email.js';
import { CreatedWebhookEndpointSchema, WebhookDeliveryListSchema } from '../../src/contract/webhooks.js';
import { orderBody } from '../helpers/order-body.js';
import {
  http,
  shopperHeaders,
  startServer,
  stopServer,
  withCardTokenOver,
  type ServerProcess,
} from '../helpers/server-process.js';
import { startSmtpInbox, type SmtpInbox } from '../helpers/smtp-inbox.js';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '../helpers/test-database.js';
import { startWebhookReceiver, verifiedWebhook, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const MERCHANT_KEY = `sk_crashmail_${randomBytes(12).toString('hex')}`;
const ORDERS = 3;
const merchant = { authorization: `Bearer ${MERCHANT_KEY}` };

let database: TestDatabase | null = null;
let server: ServerProcess | null = null;
let inbox: SmtpInbox | null = null;
let receiver: WebhookReceiver | null = null;

afterAll(async () => {
  if (server) await stopServer(server, 'SIGKILL');
  await Promise.all([database?.drop(), inbox?.close(), receiver?.close()]);
});

/** Asks `read` every 200 ms until `done` holds of its answer; fails with the last answer after `ms`. */
async function until<T>(
  what: string,
  ms: number,
  read: () => Promise<T>,
  done: (value: T) => boolean,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`${what} did not happen in ${ms} ms: ${JSON.stringify(value)}`);
    await sleep(200);
  }
}

async function killed(running: ServerProcess): Promise<void> {
  running.child.kill('SIGKILL');
  expect((await running.exited).signal).toBe('SIGKILL');
}

describe('a server killed while emails and webhooks are queued', () => {
  it('delivers each email and each webhook event exactly once after its restart', async () => {
    [inbox, receiver] = await Promise.all([startSmtpInbox(), startWebhookReceiver()]);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'sc-crash-delivery-'));
    const env: Record<string, string> = {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      MERCHANT_API_KEY: MERCHANT_KEY,
      TOKEN_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
      SMTP_URL: inbox.url,
      MAIL_FROM: 'orders@crash.example',
      WEBHOOKS_ALLOW_PRIVATE_URLS: 'true',
      HOUSEKEEPING_INTERVAL_SECONDS: '0',
    };
    if (testDatabaseKind() === 'postgres') {
      database = await createTestDatabase({ migrated: false });
      env.DATABASE_URL = database.url ?? '';
    }

    // 1. No worker: the orders' receipts and webhook events wait in the queue when the server is killed.
    server = await startServer({ ...env, JOBS_IN_PROCESS: 'false' });
    let baseUrl = server.baseUrl;
    const created = await http(baseUrl, 'POST', '/checkout/api/merchant/webhook-endpoints', {
      headers: merchant,
      body: { url: receiver.url, events: ['order.completed'] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const endpoint = CreatedWebhookEndpointSchema.parse(created.body);
    const offers = (await http(baseUrl, 'GET', '/checkout/api/merchant/offers', { headers: merchant })).body
      .data;
    const beans = offers.find((offer: { item_id: string }) => offer.item_id === 'BEANS-ETH-340');
    const headers = await shopperHeaders(baseUrl);
    const orderIds: number[] = [];
    for (let i = 0; i < ORDERS; i++) {
      const cart = await http(baseUrl, 'POST', '/checkout/api/merchant/carts', {
        headers: merchant,
        body: { offers: [{ offer_id: beans.id, quantity: 1 }] },
      });
      const body = await withCardTokenOver(server.processorUrl, orderBody(cart.body.cart_token as string));
      const placed = await http(baseUrl, 'POST', '/checkout/api/vrio/orders', {
        body,
        headers: { ...headers, 'idempotency-key': `crash-delivery-${i}-${cart.body.cart_token}` },
      });
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      orderIds.push(placed.body.order.order_id as number);
    }
    await killed(server);

    // 2. A worker, but the SMTP server refuses and the receiver is down: each is tried once and fails, and the
    // server is killed again while they wait for their retries.
    inbox.refuse = 'Mailbox busy, try again later';
    receiver.answer = 503;
    server = await startServer(env);
    baseUrl = server.baseUrl;
    const emails = () =>
      http(baseUrl, 'GET', '/checkout/api/merchant/emails', { headers: merchant }).then(
        (response) => EmailListSchema.parse(response.body).data,
      );
    const deliveries = () =>
      http(baseUrl, 'GET', `/checkout/api/merchant/webhook-endpoints/${endpoint.id}/deliveries`, {
        headers: merchant,
      }).then((response) => WebhookDeliveryListSchema.parse(response.body).data);
    const waiting = await until(
      'a failed first attempt of every email and webhook',
      60_000,
      async () => ({ emails: await emails(), deliveries: await deliveries() }),
      (now) =>
        now.emails.length === ORDERS &&
        now.emails.every((email) => email.status === 'retrying') &&
        now.deliveries.length === ORDERS &&
        now.deliveries.every((delivery) => delivery.attempts.length >= 1),
    );
    await killed(server);
    expect(inbox.messages).toHaveLength(0);
    expect(receiver.received).toHaveLength(0);
    expect(receiver.requests).toBeGreaterThanOrEqual(ORDERS);
    for (const email of waiting.emails) expect(email.error).toContain('Mailbox busy, try again later');

    // 3. Restarted with the SMTP server and the receiver up: everything arrives, once.
    inbox.refuse = null;
    receiver.answer = 200;
    server = await startServer(env);
    baseUrl = server.baseUrl;
    const delivered = await until(
      'every email sent and every webhook delivered',
      // The emails' retry comes 30 s after their failed attempt, the webhooks' 5 s after (5 minutes after a second).
      6 * 60_000,
      async () => ({ emails: await emails(), deliveries: await deliveries() }),
      (now) =>
        now.emails.length === ORDERS &&
        now.emails.every((email) => email.status === 'sent') &&
        now.deliveries.length === ORDERS &&
        now.deliveries.every((delivery) => delivery.status === 'succeeded'),
    );
    // A moment more: nothing else comes.
    await sleep(2000);
    await stopServer(server);
    server = null;

    // Each order's receipt once, each with its own Message-ID.
    const messageIds = inbox.messages.map((mail) => mail.messageId);
    expect(messageIds).toHaveLength(ORDERS);
    expect(new Set(messageIds).size).toBe(ORDERS);
    expect(
      inbox.messages
        .map((mail) => Number(/order #(\d+)$/.exec(mail.subject ?? '')?.[1]))
        .sort((a, b) => a - b),
    ).toEqual([...orderIds].sort((a, b) => a - b));
    // The Message-IDs the server recorded as sent are the ones the SMTP server got.
    expect(new Set(delivered.emails.map((email) => email.message_id))).toEqual(new Set(messageIds));

    // Each order's order.completed once, each with its own webhook-id, signed with the endpoint's secret.
    const events = receiver.received.map((message) => verifiedWebhook(endpoint.secret, message));
    expect(events).toHaveLength(ORDERS);
    expect(new Set(events.map((event) => event.id)).size).toBe(ORDERS);
    expect(new Set(events.map((event) => event.id))).toEqual(
      new Set(delivered.deliveries.map((delivery) => delivery.message_id)),
    );
    expect(events.every((event) => event.payload.type === 'order.completed')).toBe(true);
    expect(events.map((event) => Number(event.payload.data.order_id)).sort((a, b) => a - b)).toEqual(
      [...orderIds].sort((a, b) => a - b),
    );
  }, 600_000);
});
