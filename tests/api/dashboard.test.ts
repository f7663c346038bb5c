import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DashboardSummarySchema } from '../../src/contract/dashboard.js';
import { CARDS, card, orderBody } from '../helpers/order-body.js';
import { shopperSession } from '../helpers/shopper.js';
import { storeWithShopper } from '../helpers/store.js';
import { createTestApp, merchantClient, type TestApp } from '../helpers/test-app.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

let keyCounter = 0;
const key = () => `dashboard-${process.pid}-${++keyCounter}`;

describe('the home figures', () => {
  it("count today's and this month's orders and sales, test orders apart, carts and subscriptions", async () => {
    t.clock.set(new Date('2026-11-20T10:00:00Z'));
    const { store } = await storeWithShopper(t.app, t.db);
    const api = merchantClient(t.app, store.org.apiKey);
    const summary = async () => DashboardSummarySchema.parse((await api.get('/summary')).body);
    expect(await summary()).toMatchObject({
      currency: 'USD',
      today: { orders: 0, sales: 0, test_orders: 0 },
      month: { orders: 0, sales: 0, test_orders: 0 },
      carts_opened: 0,
      subscriptions: { active: 0, past_due: 0 },
    });

    const buy = async (offers: { offer_id: number; quantity?: number }[], testMode = false) => {
      // A fresh session each time: the clock moves by days between orders.
      const buyer = await shopperSession(t.app, store.org.publicId, { testMode });
      const token = await store.cart(offers);
      const placed = await buyer.post(
        'orders',
        orderBody(token, { payment: card(CARDS.visa), subscription_terms_accepted: true }),
        { 'idempotency-key': key() },
      );
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      return (await api.get(`/orders/${placed.body.order.order_id}`)).body as { total: number };
    };
    const early = await buy([{ offer_id: store.offers.beans.id, quantity: 2 }]);
    t.clock.set(new Date('2026-11-26T09:00:00Z'));
    const today = await buy([{ offer_id: store.offers.club.id }]);
    await buy([{ offer_id: store.offers.mug.id }], true);
    await store.cart([{ offer_id: store.offers.mug.id }]);

    const figures = await summary();
    expect(figures.today).toEqual({ orders: 1, sales: today.total, test_orders: 1 });
    expect(figures.month.orders).toBe(2);
    expect(figures.month.sales).toBeCloseTo(early.total + today.total, 2);
    expect(figures.month.test_orders).toBe(1);
    // Four carts this month (one left unordered); the test cart is a test shopper's, not counted as a store's cart.
    expect(figures.carts_opened).toBeGreaterThanOrEqual(3);
    expect(figures.subscriptions).toEqual({ active: 1, past_due: 0 });

    // The next month starts from nothing.
    t.clock.set(new Date('2026-12-01T00:00:01Z'));
    expect((await summary()).month).toEqual({ orders: 0, sales: 0, test_orders: 0 });
  });

  it('are one store’s only', async () => {
    const { store } = await storeWithShopper(t.app, t.db);
    const figures = DashboardSummarySchema.parse(
      (await merchantClient(t.app, store.org.apiKey).get('/summary')).body,
    );
    expect(figures.month.orders).toBe(0);
  });
});

describe('the dashboard page', () => {
  it('is served at /admin and each of its screens, with the page policy and no caching', async () => {
    for (const url of ['/admin', '/admin/link', '/admin/sign-in']) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/text\/html/);
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.headers['content-security-policy']).toMatch(/script-src 'self'/);
    }
  });
});
