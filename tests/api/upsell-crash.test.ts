// A server killed while one-click upsells are being charged (docs/api.md, "Upsells"): restarted on the same database,
// each accept retried with its Idempotency-Key (and sent again at once under other keys, as a second tab does) is
// charged once by the processor, makes one linked order, and that order's order.completed webhook goes out once. Runs
// on PostgreSQL with TEST_DATABASE_URL, on the embedded database (a DATA_DIR shared across the restart) otherwise.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { CreatedWebhookEndpointSchema } from '../../src/contract/webhooks.js';
import type { Database } from '../../src/server/platform/db/database.js';
import { createPgliteDatabase } from '../../src/server/platform/db/pglite.js';
import { orderBody } from '../helpers/order-body.js';
import {
  http,
  shopperHeaders,
  startServer,
  stopServer,
  withCardTokenOver,
  type ServerProcess,
} from '../helpers/server-process.js';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '../helpers/test-database.js';
import { startWebhookReceiver, verifiedWebhook, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const MERCHANT_KEY = `sk_crashupsell_${randomBytes(12).toString('hex')}`;
const ORDERS = 8;
const merchant = { authorization: `Bearer ${MERCHANT_KEY}` };
const SHOPPER = '/checkout/api/vrio';
/** tsx compiles the server at each start: on a busy machine that takes longer than startServer's default. */
const STARTUP_MS = 180_000;

let database: TestDatabase | null = null;
let server: ServerProcess | null = null;
let receiver: WebhookReceiver | null = null;

afterAll(async () => {
  if (server) await stopServer(server, 'SIGKILL');
  await Promise.all([database?.drop(), receiver?.close()]);
});

/** Sends `send` until it has an answer that is not "try again" (a lease of the killed process, a 5xx). */
async function untilAnswered(what: string, send: () => Promise<{ status: number; body: any }>) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const response = await send();
    const again =
      response.status >= 500 ||
      (response.status === 409 &&
        (response.body.code === 'payment_in_progress' || response.body.code === 'request_in_progress'));
    if (!again) return response;
    if (Date.now() > deadline) throw new Error(`no answer for ${what}: ${JSON.stringify(response.body)}`);
    await sleep(300);
  }
}

describe('a server killed while upsells are charged', () => {
  it('charges each accepted offer once and completes one linked order after its restart', async () => {
    receiver = await startWebhookReceiver();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'sc-crash-upsell-'));
    const env: Record<string, string> = {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      MERCHANT_API_KEY: MERCHANT_KEY,
      TOKEN_SECRET: randomBytes(32).toString('hex'),
      PAYMENT_LEASE_SECONDS: '5',
      // A webhook delivery the killed process had claimed runs again once its lease is out: within the wait below.
      JOB_LEASE_SECONDS: '20',
      LOG_LEVEL: 'warn',
      WEBHOOKS_ALLOW_PRIVATE_URLS: 'true',
      HOUSEKEEPING_INTERVAL_SECONDS: '0',
      TEST_PROCESSOR_TOKENS_PER_IP: String(ORDERS * 2),
    };
    if (testDatabaseKind() === 'postgres') {
      database = await createTestDatabase({ migrated: false });
      env.DATABASE_URL = database.url ?? '';
    }

    server = await startServer(env, STARTUP_MS);
    let baseUrl = server.baseUrl;
    const endpoint = CreatedWebhookEndpointSchema.parse(
      (
        await http(baseUrl, 'POST', '/checkout/api/merchant/webhook-endpoints', {
          headers: merchant,
          body: { url: receiver.url, events: ['order.completed'] },
        })
      ).body,
    );
    const offers = (await http(baseUrl, 'GET', '/checkout/api/merchant/offers', { headers: merchant })).body
      .data;
    const beans = offers.find((offer: { item_id: string }) => offer.item_id === 'BEANS-ETH-340');
    const grinder = await http(baseUrl, 'POST', '/checkout/api/merchant/offers', {
      headers: merchant,
      body: { offer_name: 'Grinder', item_name: 'Burr grinder', price: 40 },
    });
    expect(grinder.status, JSON.stringify(grinder.body)).toBe(201);
    const link = await http(baseUrl, 'POST', '/checkout/api/merchant/checkout-links', {
      headers: merchant,
      body: { offers: [{ offer_id: beans.id }], upsells: [{ offer_id: grinder.body.id }] },
    });
    expect(link.status, JSON.stringify(link.body)).toBe(201);

    // Orders through the link, each card kept for the upsell, and the offer shown after each.
    let headers = await shopperHeaders(baseUrl);
    const funnels: { orderId: number; path: string; key: string }[] = [];
    for (let i = 0; i < ORDERS; i++) {
      const opened = await http(baseUrl, 'GET', `${SHOPPER}/carts/${link.body.cart_token}`, { headers });
      const cartToken = opened.body.cart_token as string;
      const body = await withCardTokenOver(server.processorUrl, orderBody(cartToken));
      const placed = await http(baseUrl, 'POST', `${SHOPPER}/orders`, {
        body,
        headers: { ...headers, 'idempotency-key': `crash-upsell-order-${i}-${cartToken}` },
      });
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      expect(placed.body.order.has_upsells).toBe(true);
      const orderId = placed.body.order.order_id as number;
      const upsellPath = `${SHOPPER}/carts/${cartToken}/orders/${orderId}/upsell`;
      const shown = await http(baseUrl, 'GET', upsellPath, { headers });
      expect(shown.body.offer, JSON.stringify(shown.body)).toMatchObject({ step: 1 });
      funnels.push({ orderId, path: upsellPath, key: `crash-upsell-accept-${i}-${cartToken}` });
    }

    // Every offer accepted at once; the server is killed at the first answer, with the others being charged (or
    // recorded, or not started yet).
    const sent = funnels.map((funnel) =>
      http(baseUrl, 'POST', `${funnel.path}/accept`, {
        body: { step: 1 },
        headers: { ...headers, 'idempotency-key': funnel.key },
      })
        .then((response) => response.status)
        .catch(() => 'dropped' as const),
    );
    await Promise.race(sent);
    server.child.kill('SIGKILL');
    expect((await server.exited).signal).toBe('SIGKILL');
    expect(await Promise.all(sent)).toContain('dropped');

    // Restarted on the same database: each accept again with its key and, at the same moment, with two new keys.
    server = await startServer(env, STARTUP_MS);
    baseUrl = server.baseUrl;
    headers = await shopperHeaders(baseUrl);
    const linkedIds = new Map<number, number>();
    for (const funnel of funnels) {
      const accept = (key: string) => () =>
        http(baseUrl, 'POST', `${funnel.path}/accept`, {
          body: { step: 1 },
          headers: { ...headers, 'idempotency-key': key },
        });
      const answers = await Promise.all(
        [funnel.key, `${funnel.key}-tab-2`, `${funnel.key}-tab-3`].map((key) =>
          untilAnswered(key, accept(key)),
        ),
      );
      for (const answer of answers) {
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        expect(answer.body.offer).toBeNull();
        expect(answer.body.linked_orders).toHaveLength(1);
      }
      const ids = new Set(answers.map((answer) => answer.body.linked_orders[0].order_id as number));
      expect(ids.size).toBe(1);
      linkedIds.set(funnel.orderId, [...ids][0] ?? 0);
    }

    // The merchant sees one complete linked order per accepted offer, its step accepted.
    for (const funnel of funnels) {
      const first = (
        await http(baseUrl, 'GET', `/checkout/api/merchant/orders/${funnel.orderId}`, { headers: merchant })
      ).body;
      expect(first.linked_orders).toEqual([
        expect.objectContaining({ order_id: linkedIds.get(funnel.orderId), status: 'complete' }),
      ]);
      expect(first.upsell_steps).toEqual([expect.objectContaining({ step: 1, status: 'accepted' })]);
    }

    // Each linked order's order.completed once (the first orders' too), signed with the endpoint's secret.
    const expected = ORDERS * 2;
    const deadline = Date.now() + 60_000;
    while (receiver.received.length < expected && Date.now() < deadline) await sleep(200);
    await sleep(2000);
    await stopServer(server);
    server = null;
    const events = receiver.received.map((message) => verifiedWebhook(endpoint.secret, message));
    expect(events.every((event) => event.payload.type === 'order.completed')).toBe(true);
    const completed = events.map((event) => Number(event.payload.data.order_id)).sort((a, b) => a - b);
    const everyOrder = [...funnels.map((funnel) => funnel.orderId), ...linkedIds.values()];
    expect(completed).toEqual(everyOrder.sort((a, b) => a - b));

    // At the processor: one approved charge for each step, under its first attempt's key; none other.
    const db: Database = database ? database.db : await createPgliteDatabase(path.join(dataDir, 'pglite'));
    try {
      const { rows: charges } = await db.query<{ idempotency_key: string; status: string }>(
        "SELECT idempotency_key, status FROM test_gateway_charges WHERE kind = 'charge' AND idempotency_key LIKE 'upsell%'",
      );
      expect(charges.map((charge) => charge.status)).toEqual(Array(ORDERS).fill('approved'));
      const charged = charges.map((charge) =>
        Number(/^upsell_\d+_(\d+)_step_1_attempt_1$/.exec(charge.idempotency_key)?.[1]),
      );
      expect(charged.sort((a, b) => a - b)).toEqual(
        funnels.map((funnel) => funnel.orderId).sort((a, b) => a - b),
      );
      const { rows: linked } = await db.query<{ parent_order_id: number; status: string; approved: number }>(
        `SELECT o.parent_order_id, o.status,
                (SELECT count(*)::int FROM payment_attempts a WHERE a.order_id = o.id AND a.status = 'approved')
                  AS approved
           FROM orders o WHERE o.parent_order_id IS NOT NULL`,
      );
      expect(linked).toHaveLength(ORDERS);
      expect(linked.every((order) => order.status === 'complete' && order.approved === 1)).toBe(true);
    } finally {
      if (!database) await db.close();
    }
  }, 900_000);
});
