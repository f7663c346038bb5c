import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobHandlers } from '../../src/server/job-handlers.js';
import { createJobWorker } from '../../src/server/platform/jobs/job-worker.js';
import { createLogger } from '../../src/server/platform/logging.js';
import type { Config } from '../../src/server/platform/config.js';
import type { Database } from '../../src/server/platform/db/database.js';
import type { PaymentGateway } from '../../src/server/platform/payments/gateway.js';
import {
  createPaymentGateways,
  type PaymentGateways,
} from '../../src/server/platform/payments/select-gateway.js';
import {
  AUTHENTICATING_TOKEN_PREFIX,
  DECLINING_TOKEN_PREFIX,
  INSUFFICIENT_TOKEN_PREFIX,
} from '../../src/server/platform/payments/test-gateway.js';
import { orderBody } from '../helpers/order-body.js';
import { shopperSession, type ShopperSession } from '../helpers/shopper.js';
import { createStore, type Store } from '../helpers/store.js';
import { createTestApp, subscriberLinksOf, type TestApp } from '../helpers/test-app.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';

// One-click upsells after the purchase (docs/api.md, "Upsells"): charged once to the order's card, whatever repeats.

let t: TestApp;
/** When set, the next card charge reaches the processor and its answer is then lost (a crash before the record). */
let loseNextAnswer = false;

function losingAnswers(db: Database, config: Config): PaymentGateways {
  const real = createPaymentGateways(config, { db, clock: { now: () => t.clock.now() } as TestApp['clock'] });
  const card: PaymentGateway = {
    ...real.card,
    name: real.card.name,
    charge: async (request) => {
      const result = await real.card.charge(request);
      if (loseNextAnswer) {
        loseNextAnswer = false;
        throw new Error('socket hang up');
      }
      return result;
    },
  };
  return { card, express: real.express === real.card ? card : real.express };
}

beforeAll(async () => {
  t = await createTestApp({
    gateways: losingAnswers,
    config: { webhooks: { requireHttps: false, allowPrivateUrls: true } },
  });
});

afterAll(async () => {
  await t.close();
});

interface Funnel {
  store: Store;
  shopper: ShopperSession;
  cartToken: string;
  orderId: number;
  upsell: { id: number };
  downsell: { id: number };
  path: string;
}

/** A store whose link sells beans, then offers a grinder (downsell: a scale), and an order placed through it. */
async function orderThroughLink(
  options: { before?: (store: Store) => Promise<void>; upsell?: (store: Store) => { id: number } } = {},
): Promise<Funnel> {
  const store = await createStore(t.app, t.db);
  await options.before?.(store);
  const upsell = await store.create('/offers', {
    offer_name: 'Grinder',
    offer_title: 'Burr grinder, 40 settings',
    item_name: 'Burr grinder',
    item_image: 'https://cdn.example.com/grinder.png',
    price: 40,
  });
  const downsell = await store.create('/offers', {
    offer_name: 'Scale',
    item_name: 'Coffee scale',
    price: 12.5,
    is_taxable: false,
    requires_shipping: false,
  });
  const link = await store.create('/checkout-links', {
    offers: [{ offer_id: store.offers.beans.id }],
    upsells: [{ offer_id: (options.upsell?.(store) ?? upsell).id, downsell_offer_id: downsell.id }],
  });
  expect(link.upsells).toHaveLength(1);
  const shopper = await shopperSession(t.app, store.org.publicId);
  const opened = await shopper.get(`carts/${link.cart_token}`);
  const cartToken = opened.body.cart_token as string;
  await shopper.get(`carts/${cartToken}/preview`, { ship_country: 'US', ship_state: 'TX' });
  const placed = await shopper.post('orders', orderBody(cartToken), { 'idempotency-key': `o-${cartToken}` });
  expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  expect(placed.body.order.has_upsells).toBe(true);
  const orderId = placed.body.order.order_id as number;
  return {
    store,
    shopper,
    cartToken,
    orderId,
    upsell,
    downsell,
    path: `carts/${cartToken}/orders/${orderId}/upsell`,
  };
}

async function chargesOf(orderId: number) {
  const { rows } = await t.db.query<{ idempotency_key: string; status: string; amount: number }>(
    `SELECT idempotency_key, status, amount::int AS amount FROM test_gateway_charges
      WHERE kind = 'charge' AND idempotency_key LIKE $1 ORDER BY idempotency_key`,
    [`upsell\\_%\\_${orderId}\\_step\\_%`],
  );
  return rows;
}

describe('checkout links with upsells', () => {
  it('refuses unknown, inactive or too many steps with words per field', async () => {
    const store = await createStore(t.app, t.db);
    const off = await store.create('/offers', {
      offer_name: 'Old',
      item_name: 'Old',
      price: 1,
      active: false,
    });
    const refused = await store.api.post('/checkout-links', {
      offers: [{ offer_id: store.offers.beans.id }],
      upsells: [{ offer_id: 999999 }, { offer_id: off.id, downsell_offer_id: off.id }],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.fields).toMatchObject({
      'upsells.0.offer_id': 'No offer with id 999999 exists.',
      'upsells.1.offer_id': `Offer ${off.id} is not active: activate it or choose another.`,
    });
    const many = await store.api.post('/checkout-links', {
      offers: [{ offer_id: store.offers.beans.id }],
      upsells: Array.from({ length: 4 }, () => ({ offer_id: store.offers.mug.id })),
    });
    expect(many.status).toBe(422);
    expect(JSON.stringify(many.body)).toContain('at most 3 upsell steps');

    const link = await store.create('/checkout-links', { offers: [{ offer_id: store.offers.beans.id }] });
    expect(link.upsells).toEqual([]);
    const changed = await store.api.patch(`/checkout-links/${link.id}`, {
      upsells: [{ offer_id: store.offers.mug.id, downsell_offer_id: null }],
    });
    expect(changed.status).toBe(200);
    expect((await store.api.get(`/checkout-links/${link.id}`)).body.upsells).toEqual([
      { offer_id: store.offers.mug.id, downsell_offer_id: null },
    ]);
  });
});

describe('one-click upsells', () => {
  it('charges the kept card once for the offer and makes a linked order with the exact amounts', async () => {
    const f = await orderThroughLink();
    const shown = await f.shopper.get(f.path);
    expect(shown.status, JSON.stringify(shown.body)).toBe(200);
    // 40.00 + 5.00 standard shipping, 8.25% Texas tax on the grinder: 3.30.
    expect(shown.body.offer).toMatchObject({
      step: 1,
      is_downsell: false,
      offer_id: f.upsell.id,
      name: 'Burr grinder',
      text: 'Burr grinder, 40 settings',
      image: 'https://cdn.example.com/grinder.png',
      subtotal: 40,
      shipping: 5,
      tax: 3.3,
      amount: 48.3,
      recurring: null,
      seconds_left: 600,
    });
    const amount = shown.body.offer.amount as number;

    const accepted = await f.shopper.post(`${f.path}/accept`, { step: 1 }, { 'idempotency-key': 'accept-1' });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.offer).toBeNull();
    expect(accepted.body.linked_orders).toHaveLength(1);
    const linked = accepted.body.linked_orders[0];
    expect(linked).toMatchObject({ total: amount, lines: [{ item_name: 'Burr grinder', quantity: 1 }] });

    // The same request again, and another key: answered, never charged again.
    const again = await f.shopper.post(`${f.path}/accept`, { step: 1 }, { 'idempotency-key': 'accept-1' });
    expect(again.body).toEqual(accepted.body);
    const other = await f.shopper.post(`${f.path}/accept`, { step: 1 }, { 'idempotency-key': 'accept-2' });
    expect(other.status).toBe(200);
    const charges = await chargesOf(f.orderId);
    expect(charges).toEqual([
      expect.objectContaining({ status: 'approved', amount: Math.round(amount * 100) }),
    ]);

    const first = (await f.store.api.get(`/orders/${f.orderId}`)).body;
    expect(first.linked_orders).toEqual([{ order_id: linked.order_id, status: 'complete', total: amount }]);
    expect(first.upsell_steps).toEqual([
      expect.objectContaining({ step: 1, status: 'accepted', linked_order_id: linked.order_id }),
    ]);
    const detail = (await f.store.api.get(`/orders/${linked.order_id}`)).body;
    expect(detail).toMatchObject({ parent_order_id: f.orderId, status: 'complete', total: amount });
    expect(detail.payment_attempts).toEqual([
      expect.objectContaining({ status: 'approved', amount, card_last4: '1111' }),
    ]);
  });

  it('charges once when two accepts arrive at once', async () => {
    const f = await orderThroughLink();
    await f.shopper.get(f.path);
    const both = await Promise.all([
      f.shopper.post(`${f.path}/accept`, { step: 1 }, { 'idempotency-key': 'a' }),
      f.shopper.post(`${f.path}/accept`, { step: 1 }, { 'idempotency-key': 'b' }),
    ]);
    const statuses = both.map((answer) => answer.status).sort();
    expect(statuses[0]).toBe(200);
    expect([200, 409]).toContain(statuses[1]);
    expect(await chargesOf(f.orderId)).toHaveLength(1);
    const orders = await t.db.query('SELECT id FROM orders WHERE parent_order_id = $1', [f.orderId]);
    expect(orders.rows).toHaveLength(1);
  });

  it('charges once when the answer of the charge was lost and the accept is sent again', async () => {
    const f = await orderThroughLink();
    await f.shopper.get(f.path);
    loseNextAnswer = true;
    const lost = await f.shopper.post(`${f.path}/accept`, { step: 1 }, { 'idempotency-key': 'lost' });
    expect(lost.status).toBe(503);
    expect(await chargesOf(f.orderId)).toHaveLength(1);
    const retried = await f.shopper.post(`${f.path}/accept`, { step: 1 }, { 'idempotency-key': 'lost' });
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body.linked_orders).toHaveLength(1);
    expect(await chargesOf(f.orderId)).toEqual([expect.objectContaining({ status: 'approved' })]);
  });

  it('moves to the downsell on decline, then to the end', async () => {
    const f = await orderThroughLink();
    await f.shopper.get(f.path);
    const declined = await f.shopper.post(`${f.path}/decline`, { step: 1 });
    expect(declined.status).toBe(200);
    // The scale: 12.50, no shipping, no tax.
    expect(declined.body.offer).toMatchObject({
      step: 2,
      is_downsell: true,
      offer_id: f.downsell.id,
      amount: 12.5,
    });
    // A repeat of the decline answers the same place.
    expect((await f.shopper.post(`${f.path}/decline`, { step: 1 })).body.offer.step).toBe(2);
    const accepted = await f.shopper.post(`${f.path}/accept`, { step: 2 }, { 'idempotency-key': 'down' });
    expect(accepted.body).toMatchObject({ offer: null, linked_orders: [{ total: 12.5 }] });
    const first = (await f.store.api.get(`/orders/${f.orderId}`)).body;
    expect(first.upsell_steps.map((step: { status: string }) => step.status)).toEqual([
      'declined',
      'accepted',
    ]);
  });

  it('answers 410 once an offer ran out, and charges nothing', async () => {
    const f = await orderThroughLink();
    const shown = await f.shopper.get(f.path);
    expect(shown.body.offer.step).toBe(1);
    t.clock.advance(10 * 60 * 1000);
    const late = await f.shopper.post(`${f.path}/accept`, { step: 1 }, { 'idempotency-key': 'late' });
    expect(late.status).toBe(410);
    expect(late.body.message).toBe(
      'This offer has ended, so nothing was charged for it. Your order is complete as placed.',
    );
    expect((await f.shopper.get(f.path)).body.offer).toBeNull();
    expect(await chargesOf(f.orderId)).toEqual([]);
  });

  it('answers a declined card 402, and the offer can still be declined', async () => {
    const f = await orderThroughLink();
    await t.db.query(
      `UPDATE payment_methods SET gateway_token = $2
        WHERE id = (SELECT payment_method_id FROM orders WHERE id = $1)`,
      [f.orderId, `${DECLINING_TOKEN_PREFIX}${f.orderId}`],
    );
    await f.shopper.get(f.path);
    const refused = await f.shopper.post(`${f.path}/accept`, { step: 1 }, { 'idempotency-key': 'no' });
    expect(refused.status).toBe(402);
    expect(refused.body.code).toBe('card_declined');
    const declined = await f.shopper.post(`${f.path}/decline`, { step: 1 });
    expect(declined.status).toBe(200);
    expect(declined.body.offer).toMatchObject({ is_downsell: true });
    expect(declined.body.linked_orders).toEqual([]);
  });

  it('says a declined one-click charge in the page’s language, its replay too', async () => {
    const f = await orderThroughLink();
    await t.db.query(
      `UPDATE payment_methods SET gateway_token = $2
        WHERE id = (SELECT payment_method_id FROM orders WHERE id = $1)`,
      [f.orderId, `${INSUFFICIENT_TOKEN_PREFIX}${f.orderId}`],
    );
    await f.shopper.get(f.path);
    const headers = { 'idempotency-key': 'no-es', 'accept-language': 'es' };
    const refused = await f.shopper.post(`${f.path}/accept`, { step: 1 }, headers);
    const spanish = {
      status: 402,
      code: 'insufficient_funds',
      message:
        'Tu tarjeta no tiene fondos suficientes. No se ha cobrado nada por esta oferta; puedes rechazarla y ' +
        'mantener tu pedido tal como lo hiciste.',
    };
    expect(refused.body).toEqual(spanish);
    expect((await f.shopper.post(`${f.path}/accept`, { step: 1 }, headers)).body).toEqual(spanish);
  });

  it('asks the shopper to authenticate when the bank wants it, then charges once', async () => {
    const f = await orderThroughLink();
    await t.db.query(
      `UPDATE payment_methods SET gateway_token = $2
        WHERE id = (SELECT payment_method_id FROM orders WHERE id = $1)`,
      [f.orderId, `${AUTHENTICATING_TOKEN_PREFIX}${f.orderId}`],
    );
    await f.shopper.get(f.path);
    const asked = await f.shopper.post(`${f.path}/accept`, { step: 1 }, { 'idempotency-key': '3ds' });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    expect(asked.body.action).toMatchObject({ type: 'authenticate', payment_action: { type: 'challenge' } });
    // The shopper completes the test processor's challenge.
    const challengeId = decodeURIComponent(asked.body.action.payment_action.url.split('/').pop());
    await t.db.query("UPDATE test_processor_challenges SET status = 'succeeded' WHERE id = $1", [
      challengeId,
    ]);
    const done = await f.shopper.post(
      `${f.path}/accept`,
      { step: 1, authenticated_payment: asked.body.action.reference },
      { 'idempotency-key': '3ds-done' },
    );
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.linked_orders).toHaveLength(1);
    expect(await chargesOf(f.orderId)).toEqual([expect.objectContaining({ status: 'approved' })]);
  });

  it('passes over an offer deactivated since the link was made, to its downsell', async () => {
    const f = await orderThroughLink();
    expect((await f.store.api.patch(`/offers/${f.upsell.id}`, { active: false })).status).toBe(200);
    const shown = await f.shopper.get(f.path);
    expect(shown.body.offer).toMatchObject({ step: 1, is_downsell: true, offer_id: f.downsell.id });
  });

  it('offers nothing after an order of a link without upsells', async () => {
    const store = await createStore(t.app, t.db);
    const shopper = await shopperSession(t.app, store.org.publicId);
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const placed = await shopper.post('orders', orderBody(token));
    expect(placed.body.order.has_upsells).toBe(false);
    const none = await shopper.get(`carts/${token}/orders/${placed.body.order.order_id}/upsell`);
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ offer: null, linked_orders: [] });
    // No card is kept for an order that has no upsells and no subscription.
    const order = await t.db.query<{ payment_method_id: number | null }>(
      'SELECT payment_method_id FROM orders WHERE id = $1',
      [placed.body.order.order_id],
    );
    expect(order.rows[0]?.payment_method_id).toBeNull();
  });

  it('starts a recurring offer’s subscription on the same card, and its order.completed names the parent', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const f = await orderThroughLink({
        before: async (store) => {
          await store.create('/webhook-endpoints', { url: receiver.url, events: ['order.completed'] });
        },
        upsell: (store) => store.offers.club,
      });
      const shown = await f.shopper.get(f.path);
      // The club: 29.00 today, then 25.00 + 8.25% Texas tax every 30 days.
      expect(shown.body.offer).toMatchObject({
        name: 'Coffee club',
        recurring: { amount: 27.06, interval_days: 30 },
      });
      const accepted = await f.shopper.post(`${f.path}/accept`, { step: 1 }, { 'idempotency-key': 'club' });
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
      const linkedId = accepted.body.linked_orders[0].order_id as number;
      const linked = (await f.store.api.get(`/orders/${linkedId}`)).body;
      expect(linked.subscription_ids).toHaveLength(1);
      expect(linked.consent.subscription_terms_accepted).toBe(true);
      const methods = await t.db.query<{ subscription: number; first: number }>(
        `SELECT s.payment_method_id AS subscription, o.payment_method_id AS first
           FROM subscriptions s, orders o WHERE s.id = $1 AND o.id = $2`,
        [linked.subscription_ids[0], f.orderId],
      );
      expect(methods.rows[0]?.subscription).toBe(methods.rows[0]?.first);

      const { handlers } = createJobHandlers(t.config, subscriberLinksOf(t));
      const worker = createJobWorker(t.db, handlers, {
        clock: t.clock,
        logger: createLogger({ level: 'silent' }),
      });
      await worker.drain();
      await worker.drain();
      const events = receiver.received.map((message) => JSON.parse(message.body).data);
      expect(events.find((data) => data.order_id === linkedId)).toMatchObject({ parent_order_id: f.orderId });
      expect(events.find((data) => data.order_id === f.orderId)).toMatchObject({ parent_order_id: null });
    } finally {
      await receiver.close();
    }
  });
});
