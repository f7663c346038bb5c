import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayCharges } from '../helpers/gateway-charges.js';
import { orderBody } from '../helpers/order-body.js';
import { shopperSession, type ShopperSession } from '../helpers/shopper.js';
import { storeWithShopper } from '../helpers/store.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

// On PostgreSQL these requests really run in parallel (a pool of 20 connections); on PGlite they interleave
// between queries of one connection. The guarantees must hold either way.
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

const setup = () => storeWithShopper(t.app, t.db);

async function count(sql: string, params: unknown[]): Promise<number> {
  const { rows } = await t.db.query<{ n: number }>(sql, params);
  return rows[0]?.n ?? 0;
}

const orders = (organizationId: number) =>
  count('SELECT count(*)::bigint AS n FROM orders WHERE organization_id = $1', [organizationId]);

describe('concurrent submissions', () => {
  it('50 submissions with the same Idempotency-Key make one order and one charge', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const headers = { 'idempotency-key': `same-${token}` };
    // One shopper's page sending its one request 50 times (double clicks, retries): one body, one card token, one key.
    const body = orderBody(token);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => shopper.post('orders', body, headers)),
    );
    for (const response of responses) {
      expect([200, 409], JSON.stringify(response.body)).toContain(response.status);
      if (response.status === 409) expect(response.body.code).toBe('request_in_progress');
    }
    expect(responses.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(1);
    // A retry of any of them now answers the first result.
    const retried = await shopper.post('orders', body, headers);
    expect(retried.status).toBe(200);
    expect(retried.body.order.status).toBe('complete');
    for (const response of responses.filter((r) => r.status === 200))
      expect(response.body).toEqual(retried.body);
    expect(await orders(store.org.id)).toBe(1);
    expect(await gatewayCharges(t.db, store.org.id)).toBe(1);
  });

  it('50 submissions with different keys for one cart make one order and one charge', async () => {
    const { store } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    // 50 pages open on one cart (tabs, devices), each paying with a card of its own: 50 tokens, 50 keys.
    const pages = await Promise.all(
      Array.from({ length: 50 }, () => shopperSession(t.app, store.org.publicId)),
    );
    const responses = await Promise.all(
      pages.map((page, i) =>
        page.post('orders', orderBody(token), { 'idempotency-key': `different-${token}-${i}` }),
      ),
    );
    const ok = responses.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    for (const response of responses.filter((r) => r.status !== 200)) {
      expect(response.status).toBe(409);
      expect(['payment_in_progress', 'order_complete']).toContain(response.body.code);
    }
    expect(await orders(store.org.id)).toBe(1);
    expect(await gatewayCharges(t.db, store.org.id)).toBe(1);
  });
});

describe('discount usage limits under concurrency', () => {
  it('50 carts redeeming the last 5 uses at once: exactly 5 get the discount', async () => {
    const { store } = await setup();
    const code = await store.create('/discount-codes', {
      code: 'RUSH',
      kind: 'percent',
      percent_off: 50,
      usage_limit: 8,
    });
    await t.db.query('UPDATE discount_codes SET usage_count = 3 WHERE id = $1', [code.id]);
    // 50 shoppers, each on a page of its own with a cart of its own.
    const carts: { token: string; shopper: ShopperSession }[] = [];
    for (let i = 0; i < 50; i++) {
      const shopper = await shopperSession(t.app, store.org.publicId);
      const token = await store.cart([{ offer_id: store.offers.beans.id }]);
      expect((await shopper.put(`carts/${token}/discount_code`, { discount_code: 'rush' })).status).toBe(200);
      carts.push({ token, shopper });
    }
    // While the payments in flight hold the last uses, a shopper is asked to try again (409 discount_code_held), and
    // presses Pay again: a new attempt with a new key, with the card token it has (nothing was charged with it).
    const pay = async ({ token, shopper }: { token: string; shopper: ShopperSession }) => {
      const body = orderBody(token);
      for (let attempt = 0; ; attempt++) {
        const response = await shopper.post('orders', body, {
          'idempotency-key': `rush-${token}-${attempt}`,
        });
        if (response.status !== 409 || response.body.code !== 'discount_code_held' || attempt > 500)
          return response;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const responses = await Promise.all(carts.map(pay));
    const completed = responses.filter((r) => r.status === 200);
    expect(completed).toHaveLength(5);
    for (const response of completed)
      expect(response.body).toMatchObject({ total_discount: 9, order: { status: 'complete' } });
    for (const response of responses.filter((r) => r.status !== 200)) {
      expect(response.status).toBe(422);
      expect(response.body.code).toBe('discount_code_used_up');
    }
    expect((await store.api.get(`/discount-codes/${code.id}`)).body.usage_count).toBe(8);
    expect(await gatewayCharges(t.db, store.org.id)).toBe(5);
    expect(
      await count(
        "SELECT count(*)::bigint AS n FROM orders WHERE organization_id = $1 AND status = 'complete'",
        [store.org.id],
      ),
    ).toBe(5);
  });
});
