import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CreatedWebhookEndpointSchema, WebhookDeliveryListSchema } from '../../src/contract/webhooks.js';
import { createJobHandlers } from '../../src/server/job-handlers.js';
import { createJobWorker } from '../../src/server/platform/jobs/job-worker.js';
import { createLogger } from '../../src/server/platform/logging.js';
import { createPaymentGateways } from '../../src/server/platform/payments/select-gateway.js';
import { DECLINING_TOKEN_PREFIX } from '../../src/server/platform/payments/test-gateway.js';
import { RETRY_SCHEDULE_DAYS, runRebills } from '../../src/server/modules/subscriptions/rebill-service.js';
import { WEBHOOK_RETRY_DELAYS_SECONDS } from '../../src/server/modules/webhooks/webhook-rules.js';
import { CARDS, card, orderBody } from '../helpers/order-body.js';
import { storeWithShopper } from '../helpers/store.js';
import { createTestApp, merchantClient, subscriberLinksOf, type TestApp } from '../helpers/test-app.js';

const logger = createLogger({ level: 'silent' });

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A real HTTP receiver on a free port: keeps what it receives, answers `answer` (200 unless told otherwise). */
async function startReceiver() {
  const receiver = { received: [] as Received[], answer: 200, url: '', server: null as Server | null };
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      receiver.received.push({ headers: request.headers, body });
      response.writeHead(receiver.answer, { 'content-type': 'text/plain' });
      response.end(receiver.answer === 200 ? 'thanks' : 'down for maintenance');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.server = server;
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}

let t: TestApp;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  receiver = await startReceiver();
  t = await createTestApp({ config: { webhooks: { requireHttps: false, allowPrivateUrls: true } } });
});

afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => receiver?.server?.close(resolve));
});

let keyCounter = 0;
const key = () => `webhooks-${process.pid}-${++keyCounter}`;

function workerFor(app: TestApp) {
  const { handlers } = createJobHandlers(app.config, subscriberLinksOf(app));
  return createJobWorker(app.db, handlers, { clock: app.clock, logger });
}

async function storeWithEndpoint(events: string[] = ['order.completed', 'subscription.created']) {
  const { store, shopper } = await storeWithShopper(t.app, t.db);
  const api = merchantClient(t.app, store.org.apiKey);
  const created = await api.post('/webhook-endpoints', { url: receiver.url, events });
  expect(created.status).toBe(201);
  const endpoint = CreatedWebhookEndpointSchema.parse(created.body);
  return { store, shopper, api, endpoint };
}

async function placeOrder(
  store: Awaited<ReturnType<typeof storeWithEndpoint>>['store'],
  shopper: Awaited<ReturnType<typeof storeWithEndpoint>>['shopper'],
  offers = [{ offer_id: store.offers.beans.id, quantity: 2 }],
  payment = card(CARDS.visa),
) {
  const token = await store.cart(offers);
  return shopper.post('orders', orderBody(token, { payment, subscription_terms_accepted: true }), {
    'idempotency-key': key(),
  });
}

/** What the receiver got for this endpoint's secret: each message verified with the standardwebhooks package. */
function verified(secret: string, since: number) {
  // The signature's timestamp is the app's clock (a test clock): the verifier compares it with its own.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(t.clock.now());
  try {
    return receivedSince(secret, since);
  } finally {
    vi.useRealTimers();
  }
}

function receivedSince(secret: string, since: number) {
  return receiver.received.slice(since).map((message) => {
    const payload = new Webhook(secret).verify(message.body, {
      'webhook-id': String(message.headers['webhook-id']),
      'webhook-timestamp': String(message.headers['webhook-timestamp']),
      'webhook-signature': String(message.headers['webhook-signature']),
    }) as { type: string; timestamp: string; data: Record<string, unknown> };
    return { id: String(message.headers['webhook-id']), payload };
  });
}

describe('webhook endpoints', () => {
  it('answers a new endpoint with its whsec_ secret once; later reads show only its prefix', async () => {
    const { api, endpoint } = await storeWithEndpoint();
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(endpoint.events).toEqual(['order.completed', 'subscription.created']);
    const read = await api.get(`/webhook-endpoints/${endpoint.id}`);
    expect(read.status).toBe(200);
    expect(read.body.secret).toBeUndefined();
    expect(read.body.secret_prefix).toBe(endpoint.secret.slice(0, 10));
    const list = await api.get('/webhook-endpoints');
    expect(list.body.data.map((row: { id: number }) => row.id)).toEqual([endpoint.id]);
  });

  it('refuses an unknown event, and a URL on this machine or a private network unless the operator allows it', async () => {
    const strict = await createTestApp({
      database: t.database,
      config: { webhooks: { requireHttps: true, allowPrivateUrls: false } },
    });
    try {
      const { store } = await storeWithShopper(strict.app, strict.db);
      const api = merchantClient(strict.app, store.org.apiKey);
      const local = await api.post('/webhook-endpoints', { url: receiver.url, events: ['order.completed'] });
      expect(local.status).toBe(422);
      expect(local.body.fields.url).toMatch(/https/);
      const privateUrl = await api.post('/webhook-endpoints', {
        url: 'https://10.0.0.5/hooks',
        events: ['order.completed'],
      });
      expect(privateUrl.status).toBe(422);
      expect(privateUrl.body.fields.url).toMatch(/public address/);
      const unknown = await api.post('/webhook-endpoints', {
        url: 'https://hooks.example.com/x',
        events: ['order.shipped'],
      });
      expect(unknown.status).toBe(422);
      expect(JSON.stringify(unknown.body)).toMatch(/order\.completed/);
      const fine = await api.post('/webhook-endpoints', {
        url: 'https://hooks.example.com/x',
        events: ['order.completed'],
      });
      expect(fine.status).toBe(201);
    } finally {
      await strict.app.close();
    }
  });
});

describe('deliveries', () => {
  it('sends order.completed and subscription.created signed as Standard Webhooks says, once', async () => {
    const { store, shopper, api, endpoint } = await storeWithEndpoint();
    const since = receiver.received.length;
    const placed = await placeOrder(store, shopper, [
      { offer_id: store.offers.beans.id, quantity: 2 },
      { offer_id: store.offers.club.id, quantity: 1 },
    ]);
    expect(placed.status).toBe(200);
    const orderId = placed.body.order.order_id as number;
    const worker = workerFor(t);
    await worker.drain();
    await worker.drain();

    const messages = verified(endpoint.secret, since);
    expect(messages.map((message) => message.payload.type).sort()).toEqual([
      'order.completed',
      'subscription.created',
    ]);
    const completed = messages.find((message) => message.payload.type === 'order.completed')!;
    const order = (await api.get(`/orders/${orderId}`)).body;
    expect(completed.payload.data).toMatchObject({
      order_id: orderId,
      status: 'complete',
      total: order.total,
    });
    expect(completed.id).toMatch(/^msg_/);
    // Another secret does not verify: the signature is the endpoint's.
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(24, 1).toString('base64')}`).verify(receiver.received[since]!.body, {
        'webhook-id': String(receiver.received[since]!.headers['webhook-id']),
        'webhook-timestamp': String(receiver.received[since]!.headers['webhook-timestamp']),
        'webhook-signature': String(receiver.received[since]!.headers['webhook-signature']),
      }),
    ).toThrow();

    const deliveries = WebhookDeliveryListSchema.parse(
      (await api.get(`/webhook-endpoints/${endpoint.id}/deliveries`)).body,
    );
    expect(deliveries.data).toHaveLength(2);
    for (const delivery of deliveries.data) {
      expect(delivery.status).toBe('succeeded');
      expect(delivery.attempts).toMatchObject([{ status_code: 200, response: 'thanks' }]);
    }
    // Nothing is left to send: a second drain sends nothing.
    await worker.drain();
    expect(receiver.received.length).toBe(since + 2);
  });

  it('sends nothing for a declined order, nor to an endpoint that did not ask for the event or is disabled', async () => {
    const { store, shopper, api, endpoint } = await storeWithEndpoint(['subscription.cancelled']);
    const other = await api.post('/webhook-endpoints', { url: receiver.url, events: ['order.completed'] });
    expect((await api.patch(`/webhook-endpoints/${other.body.id}`, { active: false })).status).toBe(200);
    const since = receiver.received.length;
    const declined = await placeOrder(store, shopper, undefined, card(CARDS.declined));
    expect(declined.status).toBe(402);
    expect((await placeOrder(store, shopper)).status).toBe(200);
    await workerFor(t).drain();
    expect(receiver.received.length).toBe(since);
    expect((await api.get(`/webhook-endpoints/${endpoint.id}/deliveries`)).body.data).toEqual([]);
  });

  it('retries a failing receiver with back-off under the same webhook-id, and a resend sends it again', async () => {
    const { store, shopper, api, endpoint } = await storeWithEndpoint(['order.completed']);
    const since = receiver.received.length;
    const worker = workerFor(t);
    receiver.answer = 503;
    try {
      expect((await placeOrder(store, shopper)).status).toBe(200);
      await worker.drain();
      let [delivery] = (await api.get(`/webhook-endpoints/${endpoint.id}/deliveries`)).body.data;
      expect(delivery).toMatchObject({ status: 'pending', attempts: [{ status_code: 503 }] });
      expect(new Date(delivery.next_attempt_at).getTime() - t.clock.now().getTime()).toBe(5000);
      // Not due yet: nothing is sent.
      await worker.drain();
      expect(receiver.received.length).toBe(since + 1);

      receiver.answer = 200;
      t.clock.advance(5000);
      await worker.drain();
      [delivery] = (await api.get(`/webhook-endpoints/${endpoint.id}/deliveries`)).body.data;
      expect(delivery.status).toBe('succeeded');
      expect(delivery.attempts.map((attempt: { status_code: number }) => attempt.status_code)).toEqual([
        503, 200,
      ]);
      const ids = receiver.received.slice(since).map((message) => message.headers['webhook-id']);
      expect(new Set(ids).size).toBe(1);

      const resent = await api.post(`/webhook-endpoints/${endpoint.id}/deliveries/${delivery.id}/resend`, {});
      expect(resent.status).toBe(202);
      await worker.drain();
      expect(receiver.received.length).toBe(since + 3);
      expect(receiver.received.at(-1)!.headers['webhook-id']).toBe(ids[0]);
      expect(verified(endpoint.secret, since)).toHaveLength(3);
    } finally {
      receiver.answer = 200;
    }
  });

  it('gives up after about three and a half days of failures and says so', async () => {
    const { store, shopper, api, endpoint } = await storeWithEndpoint(['order.completed']);
    const worker = workerFor(t);
    receiver.answer = 500;
    try {
      expect((await placeOrder(store, shopper)).status).toBe(200);
      await worker.drain();
      for (const delay of WEBHOOK_RETRY_DELAYS_SECONDS) {
        t.clock.advance(delay * 1000);
        await worker.drain();
      }
      const [delivery] = (await api.get(`/webhook-endpoints/${endpoint.id}/deliveries`)).body.data;
      expect(delivery.status).toBe('failed');
      expect(delivery.attempts).toHaveLength(WEBHOOK_RETRY_DELAYS_SECONDS.length + 1);
      expect(delivery.next_attempt_at).toBeNull();
    } finally {
      receiver.answer = 200;
    }
  });

  it('does not send to a name that resolves to this machine when the operator did not allow it', async () => {
    // The endpoint was accepted when private URLs were allowed; the name is looked up again for each connection.
    const named = receiver.url.replace('127.0.0.1', 'localhost');
    const { store, shopper } = await storeWithShopper(t.app, t.db);
    const api = merchantClient(t.app, store.org.apiKey);
    const endpoint = (await api.post('/webhook-endpoints', { url: named, events: ['order.completed'] })).body;
    const since = receiver.received.length;
    const strictConfig = { ...t.config, webhooks: { ...t.config.webhooks, allowPrivateUrls: false } };
    const strict = createJobWorker(t.db, createJobHandlers(strictConfig, subscriberLinksOf(t)).handlers, {
      clock: t.clock,
      logger,
    });
    expect((await placeOrder(store, shopper)).status).toBe(200);
    await strict.drain();
    const [delivery] = (await api.get(`/webhook-endpoints/${endpoint.id}/deliveries`)).body.data;
    expect(delivery).toMatchObject({ status: 'pending', attempts: [{ status_code: null }] });
    expect(delivery.attempts[0].response).toMatch(
      /resolves to a private address \((127\.0\.0\.1|::1)\): not sent/,
    );
    expect(receiver.received.length).toBe(since);
    // Its retries would reach the receiver through the other tests' permissive workers.
    expect((await api.patch(`/webhook-endpoints/${endpoint.id}`, { active: false })).status).toBe(200);
  });

  it('is sent once when several workers drain at the same time', async () => {
    const { store, shopper, endpoint } = await storeWithEndpoint(['order.completed']);
    const since = receiver.received.length;
    expect((await placeOrder(store, shopper)).status).toBe(200);
    await Promise.all([workerFor(t).drain(), workerFor(t).drain(), workerFor(t).drain()]);
    expect(verified(endpoint.secret, since)).toHaveLength(1);
  });

  it('tells of a declined payment, and of a subscription paused, resumed and cancelled by the merchant', async () => {
    const { store, shopper, api, endpoint } = await storeWithEndpoint([
      'order.payment_failed',
      'subscription.paused',
      'subscription.resumed',
      'subscription.cancelled',
    ]);
    const since = receiver.received.length;
    expect((await placeOrder(store, shopper, undefined, card(CARDS.declined))).status).toBe(402);
    // Each event a second apart: their timestamps tell their order.
    t.clock.advance(1000);
    const placed = await placeOrder(store, shopper, [{ offer_id: store.offers.club.id, quantity: 1 }]);
    const subscriptionId = (await api.get(`/orders/${placed.body.order.order_id}`)).body.subscription_ids[0];
    for (const action of ['pause', 'resume', 'cancel']) {
      expect((await api.post(`/subscriptions/${subscriptionId}/${action}`, {})).status).toBe(200);
      t.clock.advance(1000);
    }
    await workerFor(t).drain();
    // Deliveries run side by side, so they arrive in any order: the event's timestamp tells the order.
    const messages = verified(endpoint.secret, since)
      .map((message) => message.payload)
      .sort((a, b) => a.timestamp.localeCompare(b.timestamp));
    expect(messages.map((message) => message.type)).toEqual([
      'order.payment_failed',
      'subscription.paused',
      'subscription.resumed',
      'subscription.cancelled',
    ]);
    const failed = messages[0]?.data as { order_id: number; amount: number; decline_code: string };
    expect(failed.decline_code).toBe('card_declined');
    expect(failed.amount).toBe((await api.get(`/orders/${failed.order_id}`)).body.total);
    expect(messages[3]?.data).toMatchObject({ id: subscriptionId, status: 'cancelled' });
  });

  it('tells of a renewal, a failed renewal and a subscription past due', async () => {
    const gateways = createPaymentGateways(t.config, { db: t.db, clock: t.clock });
    const { store, shopper, api, endpoint } = await storeWithEndpoint([
      'subscription.renewed',
      'subscription.payment_failed',
      'subscription.past_due',
    ]);
    const placed = await placeOrder(store, shopper, [{ offer_id: store.offers.club.id, quantity: 1 }]);
    const id = (await api.get(`/orders/${placed.body.order.order_id}`)).body.subscription_ids[0];
    const since = receiver.received.length;
    const rebillWhenDue = async () => {
      const due = new Date((await api.get(`/subscriptions/${id}`)).body.next_charge_at).getTime();
      if (due > t.clock.now().getTime()) t.clock.set(new Date(due));
      await runRebills({ db: t.db, gateways, clock: t.clock });
    };
    await rebillWhenDue();
    await t.db.query(
      `UPDATE payment_methods SET gateway_token = $2
        WHERE id = (SELECT payment_method_id FROM subscriptions WHERE id = $1)`,
      [id, `${DECLINING_TOKEN_PREFIX}${id}`],
    );
    for (let attempt = 0; attempt <= RETRY_SCHEDULE_DAYS.length; attempt++) await rebillWhenDue();
    await workerFor(t).drain();
    // In any order (deliveries run side by side); the last failure and past_due share their timestamp.
    const types = verified(endpoint.secret, since).map((message) => message.payload.type);
    expect(types.sort()).toEqual(
      [
        'subscription.renewed',
        ...RETRY_SCHEDULE_DAYS.map(() => 'subscription.payment_failed'),
        'subscription.payment_failed',
        'subscription.past_due',
      ].sort(),
    );
  });

  it('tells of a refund once it succeeded', async () => {
    const { store, shopper, api, endpoint } = await storeWithEndpoint(['order.refunded']);
    const placed = await placeOrder(store, shopper);
    const orderId = placed.body.order.order_id as number;
    const since = receiver.received.length;
    const refund = await t.app.inject({
      method: 'POST',
      url: `/checkout/api/merchant/orders/${orderId}/refunds`,
      headers: { authorization: `Bearer ${store.org.apiKey}`, 'idempotency-key': key() },
      payload: { amount: 10, reason: 'Damaged in transit' },
    });
    expect(refund.statusCode).toBe(201);
    await workerFor(t).drain();
    const [message] = verified(endpoint.secret, since);
    expect(message?.payload).toMatchObject({
      type: 'order.refunded',
      data: { order_id: orderId, refund: { amount: 10, reason: 'Damaged in transit' } },
    });
    expect((await api.get(`/orders/${orderId}`)).body.amount_refunded).toBe(10);
  });
});
