import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { CartSchema } from '../../src/contract/cart.js';
import { ABUSE_LIMITS } from '../../src/server/platform/security/abuse-limits.js';
import { runMaintenance } from '../../src/server/modules/housekeeping/maintenance.js';
import { CARDS, GIFT_RECIPIENT, card, orderBody } from '../helpers/order-body.js';
import { shopperSession, type ShopperSession } from '../helpers/shopper.js';
import { createStore, type Store } from '../helpers/store.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

// Redis-backed limits run when a Redis server is named, as PostgreSQL runs when TEST_DATABASE_URL is set.
const redisUrl = process.env.TEST_REDIS_URL ?? null;
const keyPrefix = `sc-test:${randomBytes(6).toString('hex')}:`;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const apps: TestApp[] = [];

afterAll(async () => {
  for (const each of apps) await each.close();
  if (redisUrl) {
    const redis = new Redis(redisUrl);
    const keys = await redis.keys(`${keyPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  }
});

/** The app behind a proxy that names each shopper's address in X-Forwarded-For (injected requests come from 127.0.0.1). */
async function appKeepingLimitsIn(kind: 'the database' | 'Redis'): Promise<TestApp> {
  const t = await createTestApp({
    config: {
      trustedProxies: ['127.0.0.1'],
      ...(kind === 'Redis' ? { redisUrl, redisKeyPrefix: keyPrefix } : {}),
    },
  });
  apps.push(t);
  return t;
}

async function storeWithLink(t: TestApp, options: Parameters<typeof createStore>[2] = {}) {
  const store = await createStore(t.app, t.db, options);
  const link = await store.api.post('/checkout-links', {
    public_id: `link-${store.org.id}`,
    offers: [{ offer_id: store.offers.beans.id, quantity: 2 }],
  });
  const giftLink = await store.api.post('/checkout-links', {
    public_id: `gift-${store.org.id}`,
    offers: [{ offer_id: store.offers.mug.id, is_gift: true }],
  });
  expect([link.status, giftLink.status]).toEqual([201, 201]);
  return { store, linkToken: `__c__link-${store.org.id}`, giftLinkToken: `__c__gift-${store.org.id}` };
}

async function cartCount(t: TestApp, store: Store): Promise<number> {
  const { rows } = await t.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM carts WHERE organization_id = $1',
    [store.org.id],
  );
  return rows[0]?.n ?? 0;
}

const kinds = ['the database', ...(redisUrl ? (['Redis'] as const) : [])] as const;

describe.each(kinds)('carts made from checkout links, limits kept in %s', (kind) => {
  it('makes 30 carts in 10 minutes for one address and answers the rest 429 with how long to wait', async () => {
    const t = await appKeepingLimitsIn(kind);
    const { store, linkToken } = await storeWithLink(t);
    const visitor = await shopperSession(t.app, store.org.publicId, {
      headers: { 'x-forwarded-for': '81.2.69.77' },
    });
    // The flood: 200 visits of the link at once from one address.
    const visits = await Promise.all(Array.from({ length: 200 }, () => visitor.get(`carts/${linkToken}`)));
    const made = visits.filter((visit) => visit.status === 200);
    const refused = visits.filter((visit) => visit.status === 429);
    expect(made).toHaveLength(ABUSE_LIMITS.linkCartsPerIp.limit);
    expect(refused).toHaveLength(200 - ABUSE_LIMITS.linkCartsPerIp.limit);
    expect(await cartCount(t, store)).toBe(ABUSE_LIMITS.linkCartsPerIp.limit);
    for (const visit of refused) {
      expect(visit.headers['retry-after']).toBe('600');
      expect(visit.body).toEqual({
        status: 429,
        code: 'too_many_carts',
        message:
          'This checkout link was opened too many times from your network. Please try again in 10 minutes.',
      });
    }

    // A cart already made still opens; another address still gets a cart.
    const own = CartSchema.parse(made[0]?.body).cart_token;
    expect((await visitor.get(`carts/${own}`)).status).toBe(200);
    const neighbour = await shopperSession(t.app, store.org.publicId, {
      headers: { 'x-forwarded-for': '81.2.69.78' },
    });
    expect((await neighbour.get(`carts/${linkToken}`)).status).toBe(200);

    // Once the window has passed, the address makes carts again.
    t.clock.advance(ABUSE_LIMITS.linkCartsPerIp.windowMs);
    const later = await shopperSession(t.app, store.org.publicId, {
      headers: { 'x-forwarded-for': '81.2.69.77' },
    });
    expect((await later.get(`carts/${linkToken}`)).status).toBe(200);
  });

  it('counts the addresses of one IPv6 /64 as one, however they are written', async () => {
    const t = await appKeepingLimitsIn(kind);
    const { store, linkToken } = await storeWithLink(t);
    const session = await shopperSession(t.app, store.org.publicId, {
      headers: { 'x-forwarded-for': '2a02:6b8:b010:9020::1' },
    });
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const address =
        i % 2 === 0 ? `2a02:6b8:b010:9020:${i.toString(16)}::7` : `2A02:06B8:B010:9020:0:0:${i}:7`;
      const visit = await session.get(`carts/${linkToken}`, {}, { 'x-forwarded-for': address });
      statuses.push(visit.status);
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(ABUSE_LIMITS.linkCartsPerIp.limit);
    expect(statuses.filter((status) => status === 429)).toHaveLength(40 - ABUSE_LIMITS.linkCartsPerIp.limit);
    // The next /64 is another client.
    const next = await session.get(`carts/${linkToken}`, {}, { 'x-forwarded-for': '2a02:6b8:b010:9021::1' });
    expect(next.status).toBe(200);
  });
});

describe('carts nobody touched', () => {
  /** A cart from the link, read once by the shopper's page and never changed. */
  async function linkCart(shopper: ShopperSession, linkToken: string) {
    return CartSchema.parse((await shopper.get(`carts/${linkToken}`)).body);
  }

  it('are removed after the retention period, and only they: never one with an order, customer data or a change', async () => {
    const t = await appKeepingLimitsIn('the database');
    const retention = t.config.untouchedCartRetentionMs;
    expect(retention).toBe(7 * 24 * HOUR);
    const { store, linkToken, giftLinkToken } = await storeWithLink(t, {
      editable: { value: true, override: null },
    });
    const shopper = await shopperSession(t.app, store.org.publicId);

    const untouched = await linkCart(shopper, linkToken);
    const ordered = await linkCart(shopper, linkToken);
    const declined = await shopper.post(
      'orders',
      orderBody(ordered.cart_token, { payment: card(CARDS.declined) }),
    );
    expect(declined.status).toBe(402);
    const previewed = await linkCart(shopper, linkToken);
    const preview = await shopper.get(`carts/${previewed.cart_token}/preview`, {
      ship_country: 'US',
      ship_state: 'TX',
      ship_zipcode: '73301',
      ship_city: 'Austin',
      bill_country: 'null',
      bill_state: 'null',
      bill_zipcode: 'null',
      same_address: 'true',
      shipping_profile_id: 'null',
      version: '1',
    });
    expect(preview.status).toBe(200);
    const gift = await linkCart(shopper, giftLinkToken);
    const giftLine = gift.offers.find((offer) => offer.is_gift);
    const savedGift = await shopper.patch(`order_offers/${giftLine?.id}/gift`, {
      ...GIFT_RECIPIENT,
      order_offer_id: giftLine?.id,
      cart_token: gift.cart_token,
    });
    expect(savedGift.status).toBe(200);
    const merchantCart = await store.cart([{ offer_id: store.offers.beans.id }]);

    // Six days later: two more carts are opened, and one gets a new quantity, one a code (the first is only read).
    t.clock.advance(6 * 24 * HOUR);
    const later = await shopperSession(t.app, store.org.publicId);
    const requantified = await linkCart(later, linkToken);
    const recoded = await linkCart(later, linkToken);
    const fresh = await linkCart(later, linkToken);
    expect((await later.get(`carts/${untouched.cart_token}`)).status).toBe(200);
    const changed = await later.put(`carts/${requantified.cart_token}/quantity`, {
      id: requantified.offers[0]?.id,
      quantity: 3,
    });
    expect(changed.status).toBe(200);
    expect(
      (await later.put(`carts/${recoded.cart_token}/discount_code`, { discount_code: 'WELCOME10' })).status,
    ).toBe(200);

    // Seven days less a minute after the first carts were made: nothing is removed yet.
    t.clock.advance(24 * HOUR - MINUTE);
    const early = await runMaintenance(t.db, t.clock.now(), { untouchedCartRetentionMs: retention });
    expect(early.untouchedCartsRemoved).toBe(0);

    t.clock.advance(2 * MINUTE);
    const count = await cartCount(t, store);
    const swept = await runMaintenance(t.db, t.clock.now(), { untouchedCartRetentionMs: retention });
    expect(swept.untouchedCartsRemoved).toBe(1);
    expect(await cartCount(t, store)).toBe(count - 1);

    const reader = await shopperSession(t.app, store.org.publicId);
    expect((await reader.get(`carts/${untouched.cart_token}`)).body.code).toBe('cart_not_found');
    for (const kept of [
      ordered.cart_token,
      previewed.cart_token,
      gift.cart_token,
      merchantCart,
      requantified.cart_token,
      recoded.cart_token,
      fresh.cart_token,
    ]) {
      expect((await reader.get(`carts/${kept}`)).status, kept).toBe(200);
    }

    // A week after their last change, the changed carts without customer data go too; the rest stay.
    t.clock.advance(retention);
    const later2 = await runMaintenance(t.db, t.clock.now(), { untouchedCartRetentionMs: retention });
    expect(later2.untouchedCartsRemoved).toBe(3);
    const last = await shopperSession(t.app, store.org.publicId);
    for (const gone of [requantified.cart_token, recoded.cart_token, fresh.cart_token]) {
      expect((await last.get(`carts/${gone}`)).status, gone).toBe(404);
    }
    for (const kept of [ordered.cart_token, previewed.cart_token, gift.cart_token, merchantCart]) {
      expect((await last.get(`carts/${kept}`)).status, kept).toBe(200);
    }
  });
});
