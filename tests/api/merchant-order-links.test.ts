import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderDetailSchema, OrderListSchema } from '../../src/contract/merchant.js';
import { orderBody } from '../helpers/order-body.js';
import { shopperSession } from '../helpers/shopper.js';
import { createStore } from '../helpers/store.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

// The merchant's order list names an upsell's parent order (docs/api.md, "Upsells"), as the order's own answer does,
// so the dashboard's list can mark linked orders without reading each one.

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

describe('the order list and an accepted upsell', () => {
  it('gives each summary its parent_order_id: the first order for the linked one, null for others', async () => {
    const store = await createStore(t.app, t.db);
    const grinder = await store.create('/offers', {
      offer_name: 'Grinder',
      item_name: 'Burr grinder',
      price: 40,
    });
    const link = await store.create('/checkout-links', {
      offers: [{ offer_id: store.offers.beans.id }],
      upsells: [{ offer_id: grinder.id, downsell_offer_id: null }],
    });
    const shopper = await shopperSession(t.app, store.org.publicId);
    const opened = await shopper.get(`carts/${link.cart_token}`);
    const cartToken = opened.body.cart_token as string;
    await shopper.get(`carts/${cartToken}/preview`, { ship_country: 'US', ship_state: 'TX' });
    const placed = await shopper.post('orders', orderBody(cartToken), {
      'idempotency-key': `o-${cartToken}`,
    });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const orderId = placed.body.order.order_id as number;
    const path = `carts/${cartToken}/orders/${orderId}/upsell`;
    expect((await shopper.get(path)).status).toBe(200);
    const accepted = await shopper.post(`${path}/accept`, { step: 1 }, { 'idempotency-key': 'accept-1' });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const linkedId = accepted.body.linked_orders[0].order_id as number;

    const list = OrderListSchema.parse((await store.api.get('/orders')).body);
    expect(list.data.map((order) => [order.order_id, order.kind, order.parent_order_id])).toEqual([
      [linkedId, 'order', orderId],
      [orderId, 'order', null],
    ]);
    // The list's filters still find both.
    const complete = OrderListSchema.parse((await store.api.get('/orders?status=complete')).body);
    expect(complete.data.map((order) => order.parent_order_id)).toEqual([orderId, null]);
    const detail = OrderDetailSchema.parse((await store.api.get(`/orders/${linkedId}`)).body);
    expect(detail.parent_order_id).toBe(orderId);
  });
});
