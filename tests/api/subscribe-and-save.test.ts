import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPaymentGateways,
  type PaymentGateways,
} from '../../src/server/platform/payments/select-gateway.js';
import { runRebills } from '../../src/server/modules/subscriptions/rebill-service.js';
import { createJobHandlers } from '../../src/server/job-handlers.js';
import { createJobWorker } from '../../src/server/platform/jobs/job-worker.js';
import { createLogger } from '../../src/server/platform/logging.js';
import { CARDS, GIFT_RECIPIENT, LONDON_BILLING, card, orderBody } from '../helpers/order-body.js';
import { storeWithShopper, type Store } from '../helpers/store.js';
import { createTestApp, subscriberLinksOf, type TestApp } from '../helpers/test-app.js';
import { shopperSession, type ShopperSession } from '../helpers/shopper.js';

// Subscribe and save (docs/subscriptions.md): a one-off line the shopper subscribes to is priced, ordered, kept and
// rebilled exactly as a recurring line, at the offer's price less its percent.

let t: TestApp;
let gateways: PaymentGateways;

beforeAll(async () => {
  // Webhook deliveries are recorded for a local address that refuses them: their payloads are what is checked.
  t = await createTestApp({ config: { webhooks: { requireHttps: false, allowPrivateUrls: true } } });
  gateways = createPaymentGateways(t.config, { db: t.db, clock: t.clock });
});

afterAll(async () => {
  await t.close();
});

interface Line {
  id: number;
  order_offer_price: number;
  subtotal_offer: number;
  discount: number;
  tax: number;
  total: number;
  is_recurring: boolean;
  billing_interval_days: number | null;
  next_price: number | null;
  next_cycle_total: number | null;
  subscribe_and_save: unknown;
  subscribed: boolean;
}

/** A store with tea at 19.95 that may be subscribed to every 30 days at 10 % off (17.95: the 1.995 saving → 2.00). */
async function teaStore(): Promise<{ store: Store; shopper: ShopperSession; teaId: number }> {
  const { store, shopper } = await storeWithShopper(t.app, t.db);
  const tea = await store.create('/offers', {
    offer_name: 'Tea',
    item_name: 'Green tea',
    price: 19.95,
    is_giftable: true,
    subscribe_and_save: { interval_days: 30, percent_off: 10 },
  });
  return { store, shopper, teaId: tea.id };
}

const lineOf = (cart: { offers: Line[] }, offerIdOrLine: number) =>
  cart.offers.find((offer) => offer.id === offerIdOrLine) as Line;

describe('subscribe and save on offers', () => {
  it('is kept on a one-off offer and shown in its answers', async () => {
    const { store, teaId } = await teaStore();
    const read = await store.api.get(`/offers/${teaId}`);
    expect(read.body.subscribe_and_save).toEqual({ interval_days: 30, percent_off: 10 });
    expect((await store.api.get(`/offers/${store.offers.beans.id}`)).body.subscribe_and_save).toBeNull();
    const changed = await store.api.patch(`/offers/${teaId}`, {
      subscribe_and_save: { interval_days: 45, percent_off: 15 },
    });
    expect(changed.body.subscribe_and_save).toEqual({ interval_days: 45, percent_off: 15 });
    const cleared = await store.api.patch(`/offers/${teaId}`, { subscribe_and_save: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.subscribe_and_save).toBeNull();
  });

  it('is refused on a recurring offer and outside its ranges, with each field named', async () => {
    const { store, teaId } = await teaStore();
    const recurring = await store.api.post('/offers', {
      offer_name: 'Club+',
      item_name: 'Club',
      price: 29,
      is_recurring: true,
      billing_interval_days: 30,
      subscribe_and_save: { interval_days: 30, percent_off: 10 },
    });
    expect(recurring.status).toBe(422);
    expect(recurring.body.fields.subscribe_and_save).toMatch(/Only one-off offers/);
    const turnedRecurring = await store.api.patch(`/offers/${teaId}`, {
      is_recurring: true,
      billing_interval_days: 30,
    });
    expect(turnedRecurring.status).toBe(422);
    expect(turnedRecurring.body.fields.subscribe_and_save).toMatch(/Only one-off offers/);
    const outOfRange = await store.api.patch(`/offers/${teaId}`, {
      subscribe_and_save: { interval_days: 0, percent_off: 95 },
    });
    expect(outOfRange.status).toBe(422);
    expect(outOfRange.body.fields).toMatchObject({
      'subscribe_and_save.interval_days': 'interval_days must be from 1 to 730.',
      'subscribe_and_save.percent_off': 'percent_off must be from 1 to 90.',
    });
  });
});

describe('choosing to subscribe on the checkout', () => {
  it('prices the line as recurring at the discounted price, with a code and tax, and back again', async () => {
    const { store, shopper, teaId } = await teaStore();
    const token = await store.cart([{ offer_id: teaId, quantity: 2 }, { offer_id: store.offers.beans.id }]);
    const start = (await shopper.get(`carts/${token}`)).body;
    const teaLine = start.offers[0] as Line;
    expect(teaLine).toMatchObject({
      order_offer_price: 19.95,
      is_recurring: false,
      subscribed: false,
      subscribe_and_save: { interval_days: 30, percent_off: 10, once_price: 19.95, subscribe_price: 17.95 },
    });
    expect(start.offers[1].subscribe_and_save).toBeNull();
    expect(start.order.is_recurring).toBe(false);

    await shopper.put(`carts/${token}/discount_code`, { discount_code: 'WELCOME10' });
    await shopper.get(`carts/${token}/preview`, { ship_country: 'US', ship_state: 'TX' });
    const chosen = await shopper.put(`carts/${token}/subscribe`, { id: teaLine.id, subscribe: true });
    expect(chosen.status, JSON.stringify(chosen.body)).toBe(200);
    // 2 × 17.95 + 18 = 53.90; 10 % code −5.39 → 48.51 (under 50: Standard shipping 5.00); tax 8.25 % of 48.51 = 4.00.
    expect(chosen.body).toMatchObject({
      subtotal: 53.9,
      total_discount: 5.39,
      subtotal_items: 48.51,
      total_campaign_shipping: 5,
      total_tax: 4,
      total: 57.51,
    });
    expect(chosen.body.order.is_recurring).toBe(true);
    // Later cycles: 35.90 without the code, and 2.96 tax.
    expect(lineOf(chosen.body, teaLine.id)).toMatchObject({
      order_offer_price: 17.95,
      subtotal_offer: 35.9,
      discount: 3.59,
      is_recurring: true,
      billing_interval_days: 30,
      next_price: 17.95,
      next_cycle_total: 38.86,
      subscribed: true,
    });

    // The same choice again changes nothing.
    const again = await shopper.put(`carts/${token}/subscribe`, { id: teaLine.id, subscribe: true });
    expect(again.status).toBe(200);
    expect(again.body.total).toBe(57.51);
    expect(again.body.offers).toEqual(chosen.body.offers);

    // Bought once: 39.90 + 18 = 57.90; −5.79 → 52.11 (free shipping over 50); tax 4.30.
    const once = await shopper.put(`carts/${token}/subscribe`, { id: teaLine.id, subscribe: false });
    expect(once.status).toBe(200);
    expect(once.body).toMatchObject({
      subtotal: 57.9,
      total_discount: 5.79,
      total_campaign_shipping: 0,
      total_tax: 4.3,
      total: 56.41,
    });
    expect(once.body.order.is_recurring).toBe(false);
    expect(lineOf(once.body, teaLine.id)).toMatchObject({
      order_offer_price: 19.95,
      is_recurring: false,
      next_cycle_total: null,
      subscribed: false,
    });
  });

  it('refuses lines whose offer does not offer it, gift lines and unknown lines', async () => {
    const { store, shopper, teaId } = await teaStore();
    const token = await store.cart([
      { offer_id: store.offers.beans.id },
      { offer_id: store.offers.club.id },
      { offer_id: teaId, is_gift: true },
    ]);
    const [beans, club, gift] = (await shopper.get(`carts/${token}`)).body.offers as Line[];
    for (const line of [beans, club]) {
      const refused = await shopper.put(`carts/${token}/subscribe`, { id: line?.id, subscribe: true });
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({
        code: 'subscribe_not_offered',
        message: 'This item is not offered as a subscription: it can only be bought once.',
      });
    }
    expect(gift?.subscribe_and_save).toBeNull();
    const giftRefused = await shopper.put(`carts/${token}/subscribe`, { id: gift?.id, subscribe: true });
    expect(giftRefused.status).toBe(422);
    expect(giftRefused.body.message).toMatch(/A gift is bought once/);
    const unknown = await shopper.put(`carts/${token}/subscribe`, { id: 999_999_999, subscribe: true });
    expect(unknown.status).toBe(404);
    const badBody = await shopper.put(`carts/${token}/subscribe`, { id: beans?.id, subscribe: 'yes' });
    expect(badBody.status).toBe(422);
  });

  it('may start subscribed from the merchant API, only where the offer allows it', async () => {
    const { store, shopper, teaId } = await teaStore();
    const token = (await store.create('/carts', { offers: [{ offer_id: teaId, subscribe: true }] }))
      .cart_token;
    const cart = (await shopper.get(`carts/${token}`)).body;
    expect(cart.offers[0]).toMatchObject({ subscribed: true, is_recurring: true, order_offer_price: 17.95 });
    expect(cart.order.is_recurring).toBe(true);
    const refused = await store.api.post('/carts', {
      offers: [
        { offer_id: teaId, is_gift: true, subscribe: true },
        { offer_id: store.offers.beans.id, subscribe: true },
      ],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.fields).toEqual({
      'offers.0.subscribe': 'A gift is bought once: it cannot start subscribed.',
      'offers.1.subscribe': `Offer ${store.offers.beans.id} has no subscribe_and_save: it can only be bought once.`,
    });
  });

  it("is not offered on a gift recipient's claim cart", async () => {
    const { store, shopper, teaId } = await teaStore();
    const token = await store.cart([{ offer_id: teaId, is_gift: true }]);
    const [gift] = (await shopper.get(`carts/${token}`)).body.offers as Line[];
    await shopper.patch(`order_offers/${gift?.id}/gift`, {
      ...GIFT_RECIPIENT,
      order_offer_id: gift?.id,
      cart_token: token,
    });
    const placed = await shopper.post('orders', orderBody(token, LONDON_BILLING));
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const order = (await store.api.get(`/orders/${placed.body.order.order_id}`)).body;
    const claimToken = new URL(order.gifts[0].claim_url).pathname.replace('/checkout/', '');
    const recipient = await shopperSession(t.app, store.org.publicId);
    const claim = (await recipient.get(`carts/${claimToken}`)).body;
    expect(claim.order.is_gift_claim).toBe(true);
    expect(claim.offers[0].subscribe_and_save).toBeNull();
    const refused = await recipient.put(`carts/${claim.cart_token}/subscribe`, {
      id: claim.offers[0].id,
      subscribe: true,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('gift_claim_fixed');
  });

  it('refuses while a payment holds the order, and accepts after a decline', async () => {
    const { store, shopper, teaId } = await teaStore();
    const token = await store.cart([{ offer_id: teaId }]);
    const [tea] = (await shopper.get(`carts/${token}`)).body.offers as Line[];
    const declined = await shopper.post('orders', orderBody(token, { payment: card(CARDS.declined) }));
    expect(declined.status).toBe(402);
    // As a card payment in flight holds it (docs/api.md, Orders).
    const holdOrder = (until: Date | null) =>
      t.db.query(
        'UPDATE orders SET payment_lease_until = $2 WHERE cart_id = (SELECT id FROM carts WHERE token = $1)',
        [token, until],
      );
    await holdOrder(new Date(t.clock.now().getTime() + 60_000));
    const busy = await shopper.put(`carts/${token}/subscribe`, { id: tea?.id, subscribe: true });
    expect(busy.status).toBe(409);
    expect(busy.body.code).toBe('payment_in_progress');
    await holdOrder(null);
    const after = await shopper.put(`carts/${token}/subscribe`, { id: tea?.id, subscribe: true });
    expect(after.status).toBe(200);
    expect(after.body.order.is_recurring).toBe(true);
  });

  it('refuses once an express payment was started for the order, the amount it approves fixed', async () => {
    const { store, shopper, teaId } = await teaStore();
    const token = await store.cart([{ offer_id: teaId }]);
    const [tea] = (await shopper.get(`carts/${token}`)).body.offers as Line[];
    const started = await shopper.post(
      'orders',
      { cart_token: token, payment: { method: 'paypal' } },
      { 'idempotency-key': `save-express-${token}` },
    );
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.order.status).toBe('awaiting_payment');
    const refused = await shopper.put(`carts/${token}/subscribe`, { id: tea?.id, subscribe: true });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'cart_ordered',
      message: 'A PayPal payment was started for this order: its items cannot change now.',
    });
  });
});

describe('ordering a subscribed line', () => {
  it('asks for no terms when the store does not show the box, and still starts the subscription', async () => {
    const { store, shopper, teaId } = await teaStore();
    await store.api.patch('/organization', {
      client_options: { subscriptionTermsCheckbox: { display: false, autoChecked: false } },
    });
    const token = await store.cart([{ offer_id: teaId }]);
    const [tea] = (await shopper.get(`carts/${token}`)).body.offers as Line[];
    await shopper.put(`carts/${token}/subscribe`, { id: tea?.id, subscribe: true });
    const placed = await shopper.post('orders', orderBody(token));
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    expect(placed.body.order.is_recurring).toBe(true);
    expect(placed.body.order.subscriptions).toHaveLength(1);
  });

  it('needs the terms box, starts a subscription at the discounted price and rebills it', async () => {
    const { store, shopper, teaId } = await teaStore();
    const hook = await store.api.post('/webhook-endpoints', {
      url: 'http://127.0.0.1:9/hooks',
      events: ['order.completed', 'subscription.created'],
    });
    expect(hook.status).toBe(201);
    const token = await store.cart([{ offer_id: teaId, quantity: 2 }]);
    const [tea] = (await shopper.get(`carts/${token}`)).body.offers as Line[];
    await shopper.put(`carts/${token}/subscribe`, { id: tea?.id, subscribe: true });
    await shopper.get(`carts/${token}/preview`, { ship_country: 'US', ship_state: 'TX' });

    const withoutTerms = await shopper.post('orders', orderBody(token));
    expect(withoutTerms.status).toBe(422);
    expect(withoutTerms.body.fields.subscription_terms_accepted).toBe(
      'Agree to the subscription terms to start your subscription.',
    );

    const placed = await shopper.post('orders', orderBody(token, { subscription_terms_accepted: true }));
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    // Today 35.90 + 5.00 Standard shipping + 2.96 tax = 43.86; each later cycle 35.90 + 2.96 = 38.86.
    expect(placed.body.total).toBe(43.86);
    expect(placed.body.order.subscriptions).toEqual([
      expect.objectContaining({ order_offer_id: tea?.id, amount: 38.86, interval_days: 30 }),
    ]);

    const orderId = placed.body.order.order_id;
    const order = (await store.api.get(`/orders/${orderId}`)).body;
    expect(order.lines[0]).toMatchObject({
      unit_price: 17.95,
      is_recurring: true,
      billing_interval_days: 30,
      next_cycle_total: 38.86,
      subscribe_and_save: true,
      subscribe_and_save_percent_off: 10,
    });
    expect(order.consent.subscription_terms_accepted).toBe(true);
    const subscriptionId = order.subscription_ids[0];
    const subscription = (await store.api.get(`/subscriptions/${subscriptionId}`)).body;
    expect(subscription).toMatchObject({
      cycle_amount: 38.86,
      interval_days: 30,
      subscribe_and_save: true,
      subscribe_and_save_percent_off: 10,
      payment_method: expect.objectContaining({ method: 'card' }),
    });

    const { handlers } = createJobHandlers(t.config, subscriberLinksOf(t));
    await createJobWorker(t.db, handlers, {
      clock: t.clock,
      logger: createLogger({ level: 'silent' }),
    }).drain();
    const deliveries = (await store.api.get(`/webhook-deliveries?order_id=${orderId}`)).body.data;
    const completed = deliveries.find((d: { event_type: string }) => d.event_type === 'order.completed');
    expect(completed.payload.data.lines[0]).toMatchObject({
      subscribe_and_save: true,
      subscribe_and_save_percent_off: 10,
    });
    const created = (await store.api.get(`/webhook-endpoints/${hook.body.id}/deliveries`)).body.data.find(
      (d: { event_type: string }) => d.event_type === 'subscription.created',
    );
    expect(created.payload.data).toMatchObject({
      cycle_amount: 38.86,
      subscribe_and_save: true,
      subscribe_and_save_percent_off: 10,
    });

    // Nothing changes once the order is placed.
    const late = await shopper.put(`carts/${token}/subscribe`, { id: tea?.id, subscribe: false });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('cart_ordered');

    // The renewal charges the discounted later cycle.
    const due = new Date(subscription.next_charge_at).getTime();
    if (due > t.clock.now().getTime()) t.clock.set(new Date(due));
    await runRebills({ db: t.db, gateways, clock: t.clock });
    const renewed = (await store.api.get(`/subscriptions/${subscriptionId}`)).body;
    expect(renewed.cycle).toBe(2);
    expect(renewed.charges).toEqual([
      expect.objectContaining({ cycle: 2, amount: 38.86, status: 'approved' }),
    ]);
  });
});
