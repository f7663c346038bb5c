import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckoutLinkSchema } from '../../src/contract/catalogue.js';
import { SubscriberSubscriptionSchema } from '../../src/contract/subscriber.js';
import { orderBody } from '../helpers/order-body.js';
import { storeWithShopper, type Store } from '../helpers/store.js';
import { createTestApp, injectJson, type TestApp } from '../helpers/test-app.js';
import type { ShopperSession } from '../helpers/shopper.js';

// Subscribe and save from a checkout link's preset to the subscriber's page (docs/api.md, "Subscribe and save";
// docs/subscriptions.md, "Self-service").

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

/** A store with tea at 19.95 that may be subscribed to every 30 days at 10 % off (17.95: the 1.995 saving → 2.00). */
async function teaStore(): Promise<{ store: Store; shopper: ShopperSession; teaId: number }> {
  const { store, shopper } = await storeWithShopper(t.app, t.db);
  const tea = await store.create('/offers', {
    offer_name: 'Tea',
    item_name: 'Green tea',
    price: 19.95,
    subscribe_and_save: { interval_days: 30, percent_off: 10 },
  });
  return { store, shopper, teaId: tea.id };
}

async function linkCount(store: Store): Promise<number> {
  const { rows } = await t.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM checkout_links WHERE organization_id = $1',
    [store.org.id],
  );
  return rows[0]?.n ?? 0;
}

/** What the subscriber's page reads with the link the merchant made for this subscription. */
async function subscriberView(store: Store, subscriptionId: number) {
  const link = await store.api.post(`/subscriptions/${subscriptionId}/manage-link`, {});
  expect(link.status, JSON.stringify(link.body)).toBe(200);
  const token = new URL(link.body.url).pathname.split('/').pop() as string;
  const read = await injectJson(t.app, {
    method: 'GET',
    url: '/checkout/api/subscriber/subscription',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(read.status, JSON.stringify(read.body)).toBe(200);
  return SubscriberSubscriptionSchema.parse(read.body);
}

describe('a checkout link that presets subscribe and save', () => {
  it('starts its carts subscribed; the order subscribes at the saved price and the subscriber sees the saving', async () => {
    const { store, shopper, teaId } = await teaStore();
    const made = await store.api.post('/checkout-links', {
      public_id: `tea-${store.org.id}`,
      offers: [{ offer_id: teaId, quantity: 2, subscribe: true }, { offer_id: store.offers.mug.id }],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const link = CheckoutLinkSchema.parse(made.body);
    expect(link.offers).toEqual([
      { offer_id: teaId, quantity: 2, is_gift: false, subscribe: true },
      { offer_id: store.offers.mug.id, quantity: 1, is_gift: false, subscribe: false },
    ]);
    expect((await store.api.get(`/checkout-links/${link.id}`)).body.offers[0].subscribe).toBe(true);

    // The merchant's preview prices the line as the cart will: recurring at the saved price.
    const preview = (await store.api.get(`/checkout-links/${link.id}/preview`)).body;
    expect(preview.lines[0]).toMatchObject({
      unit_price: 17.95,
      is_recurring: true,
      billing_interval_days: 30,
    });

    const opened = await shopper.get(`carts/${link.cart_token}`);
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    const token = opened.body.cart_token as string;
    const [tea, mug] = opened.body.offers;
    expect(tea).toMatchObject({
      subscribed: true,
      is_recurring: true,
      billing_interval_days: 30,
      order_offer_price: 17.95,
      subscribe_and_save: { interval_days: 30, percent_off: 10, once_price: 19.95, subscribe_price: 17.95 },
    });
    expect(mug).toMatchObject({ subscribed: false, is_recurring: false });
    expect(opened.body.order.is_recurring).toBe(true);

    // The shopper may still buy once, and come back to the subscription.
    const once = await shopper.put(`carts/${token}/subscribe`, { id: tea.id, subscribe: false });
    expect(once.status).toBe(200);
    expect(once.body.offers[0]).toMatchObject({
      subscribed: false,
      is_recurring: false,
      order_offer_price: 19.95,
    });
    const again = await shopper.put(`carts/${token}/subscribe`, { id: tea.id, subscribe: true });
    expect(again.body.offers[0]).toMatchObject({ subscribed: true, order_offer_price: 17.95 });

    await shopper.get(`carts/${token}/preview`, { ship_country: 'US', ship_state: 'TX' });
    const placed = await shopper.post('orders', orderBody(token, { subscription_terms_accepted: true }));
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const order = (await store.api.get(`/orders/${placed.body.order.order_id}`)).body;
    expect(order.lines[0]).toMatchObject({ unit_price: 17.95, subscribe_and_save: true });
    const subscriptionId = order.subscription_ids[0] as number;
    const subscription = (await store.api.get(`/subscriptions/${subscriptionId}`)).body;
    // Each later cycle: 2 × 17.95 = 35.90 + 8.25 % Texas tax 2.96 = 38.86.
    expect(subscription).toMatchObject({
      cycle_amount: 38.86,
      interval_days: 30,
      subscribe_and_save: true,
      subscribe_and_save_percent_off: 10,
    });

    const expected = {
      percent_off: 10,
      interval_days: 30,
      subscribed_amount: 35.9,
      once_amount: 39.9,
      description: 'You save 10 % on every delivery: $35.90 instead of $39.90, every 30 days.',
    };
    expect((await subscriberView(store, subscriptionId)).subscribe_and_save).toEqual(expected);
    // The one-off price is the order's: a later price change of the offer does not rewrite the saving.
    await store.api.patch(`/offers/${teaId}`, { price: 24.95 });
    expect((await subscriberView(store, subscriptionId)).subscribe_and_save).toEqual(expected);
  });

  it('refuses the preset on an offer without subscribe and save or on a gift, and writes nothing', async () => {
    const { store, teaId } = await teaStore();
    await store.api.patch(`/offers/${teaId}`, { is_giftable: true });
    const refused = await store.api.post('/checkout-links', {
      offers: [
        { offer_id: store.offers.beans.id, subscribe: true },
        { offer_id: teaId, is_gift: true, subscribe: true },
      ],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.fields).toEqual({
      'offers.0.subscribe': `Offer ${store.offers.beans.id} has no subscribe_and_save: it can only be bought once.`,
      'offers.1.subscribe': 'A gift is bought once: it cannot start subscribed.',
    });
    expect(await linkCount(store)).toBe(0);

    const link = await store.create('/checkout-links', { offers: [{ offer_id: store.offers.beans.id }] });
    const patch = await store.api.patch(`/checkout-links/${link.id}`, {
      offers: [{ offer_id: store.offers.beans.id, quantity: 3, subscribe: true }],
    });
    expect(patch.status).toBe(422);
    expect(Object.keys(patch.body.fields)).toEqual(['offers.0.subscribe']);
    expect((await store.api.get(`/checkout-links/${link.id}`)).body.offers).toEqual([
      { offer_id: store.offers.beans.id, quantity: 1, is_gift: false, subscribe: false },
    ]);
  });

  it('opens a cart bought once when the offer dropped subscribe and save after the link was made', async () => {
    const { store, shopper, teaId } = await teaStore();
    const link = await store.create('/checkout-links', { offers: [{ offer_id: teaId, subscribe: true }] });
    await store.api.patch(`/offers/${teaId}`, { subscribe_and_save: null });
    const cart = (await shopper.get(`carts/${link.cart_token}`)).body;
    expect(cart.offers[0]).toMatchObject({
      subscribed: false,
      is_recurring: false,
      order_offer_price: 19.95,
    });
    expect(cart.order.is_recurring).toBe(false);
  });

  it('is in the OpenAPI document of the link routes', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/checkout/api/docs' })).json();
    const body =
      doc.paths['/checkout/api/merchant/checkout-links'].post.requestBody.content['application/json'];
    expect(body.schema.properties.offers.items.properties.subscribe).toMatchObject({ type: 'boolean' });
  });
});

describe("the subscriber's page of another subscription", () => {
  it('has no subscribe-and-save saving', async () => {
    const { store, shopper } = await teaStore();
    const token = await store.cart([{ offer_id: store.offers.club.id }]);
    await shopper.get(`carts/${token}/preview`, { ship_country: 'US', ship_state: 'TX' });
    const placed = await shopper.post('orders', orderBody(token, { subscription_terms_accepted: true }));
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const order = (await store.api.get(`/orders/${placed.body.order.order_id}`)).body;
    expect((await subscriberView(store, order.subscription_ids[0])).subscribe_and_save).toBeNull();
  });
});
