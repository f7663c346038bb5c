import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { interceptQueries } from '../helpers/intercept-queries.js';
import { card, CARDS, orderBody } from '../helpers/order-body.js';
import { shopperSession, type ShopperSession } from '../helpers/shopper.js';
import { createStore } from '../helpers/store.js';
import { createTestApp, type JsonResponse, type TestApp } from '../helpers/test-app.js';
import { createTestDatabase } from '../helpers/test-database.js';

// A code's use is held only while its order's payment runs and given back the moment it is declined; a shopper is told
// the code is used up only once completed orders have used it up. While payments in flight hold its last uses, the
// answer is 409 discount_code_held with a Retry-After, and the page's next press tries again (docs/api.md, "Orders").
// On PostgreSQL these requests really run in parallel; on PGlite they interleave between statements. The test
// gateway answers each charge after 30 ms, as a real one takes its time, so payments overlap on both.
let t: TestApp;

beforeAll(async () => {
  const database = await createTestDatabase();
  const db = interceptQueries(database.db, 'direct', async (sql, _params, run) => {
    const result = await run();
    if (/^\s*INSERT INTO test_gateway_charges/.test(sql)) await sleep(30);
    return result;
  });
  t = await createTestApp({ database: { ...database, db } });
});

afterAll(async () => {
  await t.close();
});

const CARTS = 50;
const LIMIT = 5;

describe('a code limited to 5 uses, 50 carts paying at once with it, half with a declining card', () => {
  it('completes exactly 5 orders with it, and tells no shopper it is used up while a use may still come free', async () => {
    const store = await createStore(t.app, t.db);
    const code = await store.create('/discount-codes', {
      code: 'FIVE',
      kind: 'percent',
      percent_off: 50,
      usage_limit: LIMIT,
    });
    // 50 shoppers, each on a page of its own (its own browser, its own card token) with a cart of its own.
    const carts: { token: string; good: boolean; shopper: ShopperSession }[] = [];
    for (let i = 0; i < CARTS; i++) {
      const shopper = await shopperSession(t.app, store.org.publicId);
      const token = await store.cart([{ offer_id: store.offers.beans.id }]);
      expect((await shopper.put(`carts/${token}/discount_code`, { discount_code: 'five' })).status).toBe(200);
      // The declining cards go first, so their payments hold the uses while the good ones arrive.
      carts.push({ token, good: i % 2 === 1, shopper });
    }
    const usedUpSeen: number[] = [];

    /**
     * One shopper: presses Pay, and presses again (a new attempt, a new key) while the code's last uses are held, with
     * the card token it has: nothing was charged with it.
     */
    const pay = async ({ token, good, shopper }: (typeof carts)[number]): Promise<JsonResponse> => {
      const body = orderBody(token, { payment: card(good ? CARDS.visa : CARDS.declined) });
      const deadline = Date.now() + 120_000;
      for (let attempt = 0; ; attempt++) {
        const response = await shopper.post('orders', body, { 'idempotency-key': `${token}-${attempt}` });
        if (response.status === 409 && response.body.code === 'discount_code_held') {
          expect(response.headers['retry-after']).toBe('2');
          expect(response.body.message).toMatch(/Try again in a moment/);
          if (Date.now() > deadline) throw new Error(`still held for ${token}`);
          await sleep(20);
          continue;
        }
        if (response.body.code === 'discount_code_used_up') {
          // Said only once completed orders took every use: those already counted as this answer arrives.
          const { rows } = await t.db.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM orders
              WHERE organization_id = $1 AND discount_code_id = $2 AND status = 'complete'`,
            [store.org.id, code.id],
          );
          usedUpSeen.push(rows[0]?.n ?? 0);
        }
        return response;
      }
    };
    const finals = await Promise.all(carts.map(pay));

    const good = finals.filter((_, i) => carts[i]?.good);
    const declining = finals.filter((_, i) => !carts[i]?.good);
    const completed = good.filter((response) => response.status === 200);
    expect(completed).toHaveLength(LIMIT);
    for (const response of completed) {
      expect(response.body).toMatchObject({ total_discount: 9, order: { status: 'complete' } });
    }
    for (const response of good.filter((r) => r.status !== 200)) {
      expect(response.status, JSON.stringify(response.body)).toBe(422);
      expect(response.body.code).toBe('discount_code_used_up');
    }
    for (const response of declining) {
      expect([402, 422], JSON.stringify(response.body)).toContain(response.status);
      expect(['card_declined', 'discount_code_used_up']).toContain(response.body.code);
    }
    expect(usedUpSeen.length).toBe(CARTS - LIMIT - declining.filter((r) => r.status === 402).length);
    expect(usedUpSeen.every((n) => n === LIMIT)).toBe(true);

    // Five uses taken, all by completed orders, none still held.
    const { rows } = await t.db.query<{ usage_count: number; held_count: number }>(
      'SELECT usage_count, held_count FROM discount_codes WHERE id = $1',
      [code.id],
    );
    expect(rows[0]).toEqual({ usage_count: LIMIT, held_count: 0 });
    expect((await store.api.get(`/discount-codes/${code.id}`)).body.usage_count).toBe(LIMIT);
    const { rows: orders } = await t.db.query<{ status: string; n: number }>(
      `SELECT status, count(*)::int AS n FROM orders WHERE organization_id = $1 AND discount_code_id = $2
        GROUP BY status ORDER BY status`,
      [store.org.id, code.id],
    );
    expect(orders.find((row) => row.status === 'complete')?.n).toBe(LIMIT);
  }, 180_000);
});
