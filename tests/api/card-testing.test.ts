import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayCharges } from '../helpers/gateway-charges.js';
import { CARDS, card, orderBody } from '../helpers/order-body.js';
import { shopperSession, type ShopperSession } from '../helpers/shopper.js';
import { createStore, type Store } from '../helpers/store.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;

// The server sits behind a proxy that names the shopper's address in X-Forwarded-For; injected requests come from
// 127.0.0.1, which plays the proxy.
beforeAll(async () => {
  t = await createTestApp({ config: { trustedProxies: ['127.0.0.1'] } });
});

afterAll(async () => {
  await t.close();
});

async function visitor(store: Store, ip: string): Promise<ShopperSession> {
  return shopperSession(t.app, store.org.publicId, { headers: { 'x-forwarded-for': ip } });
}

/** POST orders as the visitor at `ip`, through the proxy. */
async function order(shopper: ShopperSession, token: string, cardNumber: string) {
  return shopper.post('orders', orderBody(token, { payment: card(cardNumber) }));
}

describe('card testing from one address', () => {
  it('refuses the 21st declined attempt within an hour across carts, before the gateway is called', async () => {
    const store = await createStore(t.app, t.db);
    const shopper = await visitor(store, '81.2.69.50');
    for (let attempt = 1; attempt <= 20; attempt++) {
      const token = await store.cart([{ offer_id: store.offers.beans.id }]);
      expect((await order(shopper, token, CARDS.declined)).status, `attempt ${attempt}`).toBe(402);
      t.clock.advance(60_000);
    }
    expect(await gatewayCharges(t.db, store.org.id)).toBe(20);

    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const refused = await order(shopper, token, CARDS.visa);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe(String(40 * 60));
    expect(refused.body).toEqual({
      status: 429,
      code: 'too_many_failed_payments',
      message:
        'Too many payment attempts were declined. For your security, payment is paused; please try again in 40 minutes.',
    });
    expect(await gatewayCharges(t.db, store.org.id)).toBe(20);

    // A shopper at another address pays as usual.
    const neighbour = await visitor(store, '81.2.69.51');
    expect((await order(neighbour, token, CARDS.visa)).status).toBe(200);

    t.clock.advance(40 * 60_000);
    const again = await visitor(store, '81.2.69.50');
    const next = await store.cart([{ offer_id: store.offers.beans.id }]);
    expect((await order(again, next, CARDS.visa)).status).toBe(200);
  });

  it('never lets parallel attempts from one address reach the gateway more than 20 times', async () => {
    const store = await createStore(t.app, t.db);
    const shopper = await visitor(store, '81.2.69.60');
    const tokens = await Promise.all(
      Array.from({ length: 30 }, () => store.cart([{ offer_id: store.offers.beans.id }])),
    );
    const responses = await Promise.all(tokens.map((token) => order(shopper, token, CARDS.declined)));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 402)).toHaveLength(20);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
    expect(await gatewayCharges(t.db, store.org.id)).toBe(20);
  });

  it('counts the addresses of one IPv6 /64 as one address: 40 of them get 20 declines, then 429', async () => {
    const store = await createStore(t.app, t.db);
    // The test processor lets one browser make 30 card tokens in 10 minutes (its own limit, not the one tested here):
    // the script opens the page afresh for its second 20 attempts, from the same /64.
    const pages = [
      await visitor(store, '2a02:6b8:b010:9020::1'),
      await visitor(store, '2a02:6b8:b010:9020::2'),
    ];
    const statuses: number[] = [];
    for (let i = 1; i <= 40; i++) {
      const shopper = pages[i <= 20 ? 0 : 1]!;
      const token = await store.cart([{ offer_id: store.offers.beans.id }]);
      // One host's /64, each attempt from another of its addresses.
      const address = `2a02:6b8:b010:9020:${i.toString(16)}:${(i * 7).toString(16)}:0:1`;
      const response = await shopper.post('orders', orderBody(token, { payment: card(CARDS.declined) }), {
        'x-forwarded-for': address,
      });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 20)).toEqual(Array<number>(20).fill(402));
    expect(statuses.slice(20)).toEqual(Array<number>(20).fill(429));
    expect(await gatewayCharges(t.db, store.org.id)).toBe(20);

    // Another /64 is another client.
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const neighbour = await visitor(store, '2a02:6b8:b010:9021::1');
    const elsewhere = await neighbour.post('orders', orderBody(token, { payment: card(CARDS.visa) }));
    expect(elsewhere.status).toBe(200);
  });
});
