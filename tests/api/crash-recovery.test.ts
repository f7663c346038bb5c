import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
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

const MERCHANT_KEY = `sk_crash_${randomBytes(12).toString('hex')}`;
const ORDERS = 40;

let database: TestDatabase | null = null;
let server: ServerProcess | null = null;

afterAll(async () => {
  if (server) await stopServer(server, 'SIGKILL');
  await database?.drop();
});

describe('a server killed in the middle of a burst of orders', () => {
  it('loses nothing and charges nothing twice when every request is retried with its key', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'sc-crash-'));
    const env: Record<string, string> = {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      MERCHANT_API_KEY: MERCHANT_KEY,
      TOKEN_SECRET: randomBytes(32).toString('hex'),
      PAYMENT_LEASE_SECONDS: '5',
      LOG_LEVEL: 'warn',
      // This test's one address makes the cards of 40 shoppers at the test processor (30 per IP otherwise).
      TEST_PROCESSOR_TOKENS_PER_IP: String(ORDERS * 2),
    };
    if (testDatabaseKind() === 'postgres') {
      database = await createTestDatabase({ migrated: false });
      env.DATABASE_URL = database.url ?? '';
    }

    server = await startServer(env);
    const baseUrl = server.baseUrl;
    const merchant = { authorization: `Bearer ${MERCHANT_KEY}` };
    const offers = (await http(baseUrl, 'GET', '/checkout/api/merchant/offers', { headers: merchant })).body
      .data;
    const beans = offers.find((offer: { item_id: string }) => offer.item_id === 'BEANS-ETH-340');
    const carts: string[] = [];
    for (let i = 0; i < ORDERS; i++) {
      const created = await http(baseUrl, 'POST', '/checkout/api/merchant/carts', {
        headers: merchant,
        body: { offers: [{ offer_id: beans.id, quantity: 1 }] },
      });
      carts.push(created.body.cart_token);
    }
    // Each shopper's card made a token at the server's test processor before the burst; every retry of a request sends
    // the same body (the same token) with its key, as the page does.
    const processorUrl = server.processorUrl;
    const requests = await Promise.all(
      carts.map(async (token, i) => ({
        key: `crash-${i}-${token}`,
        body: await withCardTokenOver(processorUrl, orderBody(token)),
      })),
    );

    // The burst: all orders at once; the server is killed while they are in flight.
    let headers = await shopperHeaders(baseUrl);
    const sent = requests.map((request) =>
      http(baseUrl, 'POST', '/checkout/api/vrio/orders', {
        body: request.body,
        headers: { ...headers, 'idempotency-key': request.key },
      })
        .then((response) => response.status)
        .catch(() => 'dropped' as const),
    );
    // Killed at the first answer: with 40 in flight, most are still being processed (or not started).
    await Promise.race(sent);
    server.child.kill('SIGKILL');
    const first = await Promise.all(sent);
    expect(first).toContain('dropped');
    await server.exited;

    // Restart on the same database and retry every request with its own key until it has an answer.
    server = await startServer(env);
    headers = await shopperHeaders(server.baseUrl);
    const finals: number[] = [];
    for (const request of requests) {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const response = await http(server.baseUrl, 'POST', '/checkout/api/vrio/orders', {
          body: request.body,
          headers: { ...headers, 'idempotency-key': request.key },
        });
        // Held by the killed process: its leases lapse after PAYMENT_LEASE_SECONDS.
        if ((response.status === 409 && response.body.code !== 'order_complete') || response.status >= 500) {
          if (Date.now() > deadline)
            throw new Error(`no answer for ${request.key}: ${JSON.stringify(response.body)}`);
          await sleep(500);
          continue;
        }
        finals.push(response.status);
        expect(response.body.order?.status ?? response.body.code, JSON.stringify(response.body)).toMatch(
          /complete|order_complete/,
        );
        break;
      }
    }
    expect(finals).toHaveLength(ORDERS);
    await stopServer(server);
    server = null;

    const db: Database = database ? database.db : await createPgliteDatabase(path.join(dataDir, 'pglite'));
    try {
      const one = async (sql: string) => (await db.query<{ n: number }>(sql)).rows[0]?.n;
      expect(await one("SELECT count(*)::bigint AS n FROM orders WHERE status = 'complete'")).toBe(ORDERS);
      // One order per cart.
      expect(
        await one(
          'SELECT count(*)::bigint AS n FROM (SELECT cart_id FROM orders GROUP BY cart_id HAVING count(*) > 1) x',
        ),
      ).toBe(0);
      // No order without lines.
      expect(
        await one(
          'SELECT count(*)::bigint AS n FROM orders o WHERE NOT EXISTS (SELECT 1 FROM order_lines l WHERE l.order_id = o.id)',
        ),
      ).toBe(0);
      // Every charge the gateway made belongs to an order, and each order was charged once.
      const { rows: charges } = await db.query<{ idempotency_key: string; status: string }>(
        "SELECT idempotency_key, status FROM test_gateway_charges WHERE kind = 'charge'",
      );
      const orderIds = charges.map((charge) =>
        Number(/^order_\d+_(\d+)_attempt_\d+$/.exec(charge.idempotency_key)?.[1]),
      );
      expect(orderIds.every((id) => Number.isInteger(id))).toBe(true);
      const { rows: orders } = await db.query<{ id: number }>('SELECT id FROM orders');
      const known = new Set(orders.map((order) => order.id));
      expect(orderIds.filter((id) => !known.has(id))).toEqual([]);
      expect(new Set(orderIds).size).toBe(orderIds.length);
      expect(charges.filter((charge) => charge.status === 'approved')).toHaveLength(ORDERS);
      expect(await one("SELECT count(*)::bigint AS n FROM payment_attempts WHERE status = 'approved'")).toBe(
        ORDERS,
      );
    } finally {
      if (!database) await db.close();
    }
  }, 180_000);
});
