import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  gatewayCharges,
  testAppWithWorkDuringCharges,
  type withWorkDuringCharges,
} from '../helpers/gateway-charges.js';
import { CARDS, card, orderBody } from '../helpers/order-body.js';
import { storeWithShopper } from '../helpers/store.js';
import type { TestApp } from '../helpers/test-app.js';

// An attempt whose lease ran out is still being paid when another attempt completes the order. Its outcome is
// recorded, and nothing completes a second time: no second completion time, no second subscription.
let t: TestApp;
let charges: ReturnType<typeof withWorkDuringCharges>;

beforeAll(async () => {
  ({ t, charges } = await testAppWithWorkDuringCharges());
});

afterAll(async () => {
  await t.close();
});

/** Another attempt completes the cart's order while the gateway answers this one. */
function completedMeanwhile(token: string): void {
  charges.meanwhile(async (db) => {
    await db.query(
      `UPDATE orders o SET status = 'complete', completed_at = '2020-01-01T00:00:00Z', payment_lease_until = NULL
         FROM carts c WHERE c.id = o.cart_id AND c.token = $1`,
      [token],
    );
  });
}

async function orderOf(token: string) {
  const { rows } = await t.db.query<{ id: number; completed_at: Date; subscriptions: number }>(
    `SELECT o.id, o.completed_at,
            (SELECT count(*)::bigint FROM subscriptions s WHERE s.order_id = o.id) AS subscriptions
       FROM orders o JOIN carts c ON c.id = o.cart_id WHERE c.token = $1`,
    [token],
  );
  return rows[0]!;
}

describe('an order another attempt completed while this one was being paid', () => {
  it.each([
    ['a plain order (one statement when it still holds its lease)', 'beans', {}],
    [
      'an order starting a subscription (completed in a transaction)',
      'club',
      { subscription_terms_accepted: true },
    ],
  ] as const)('%s: records the approved payment and completes nothing twice', async (_, offer, extra) => {
    const { store, shopper } = await storeWithShopper(t.app, t.db);
    const token = await store.cart([{ offer_id: store.offers[offer].id }]);
    completedMeanwhile(token);
    const placed = await shopper.post('orders', orderBody(token, extra));
    expect(charges.pending()).toBe(false);
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    expect(placed.body.order.status).toBe('complete');
    // The answer is the order as the database holds it.
    expect(JSON.stringify(placed.body)).toBe(JSON.stringify((await shopper.get(`carts/${token}`)).body));

    const order = await orderOf(token);
    expect(order.completed_at.toISOString()).toBe('2020-01-01T00:00:00.000Z');
    expect(order.subscriptions).toBe(0);
    const detail = (await store.api.get(`/orders/${order.id}`)).body;
    // The charge this attempt made shows, for the merchant to refund.
    expect(detail.payment_attempts).toEqual([expect.objectContaining({ status: 'approved' })]);
    expect(await gatewayCharges(t.db, store.org.id)).toBe(1);
  });

  it('answers a decline 409 order_complete and leaves the order complete', async () => {
    const { store, shopper } = await storeWithShopper(t.app, t.db);
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    completedMeanwhile(token);
    const placed = await shopper.post('orders', orderBody(token, { payment: card(CARDS.declined) }));
    expect(charges.pending()).toBe(false);
    expect(placed.status, JSON.stringify(placed.body)).toBe(409);
    expect(placed.body.code).toBe('order_complete');

    const order = await orderOf(token);
    const detail = (await store.api.get(`/orders/${order.id}`)).body;
    expect(detail.status).toBe('complete');
    expect(detail.payment_attempts).toEqual([expect.objectContaining({ status: 'declined' })]);
  });
});
