import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { verifyStripeReplays } from '../../src/server/platform/payments/testing/stripe-replay.js';
import { orderBody } from '../helpers/order-body.js';
import { shopperSession } from '../helpers/shopper.js';
import { createStore } from '../helpers/store.js';
import { createStripeTestApp } from '../helpers/stripe.js';

// A yes sent again without `authenticated_payment` while Stripe waits for the shopper to authenticate the first
// (docs/api.md, "Upsells"): the page reloaded and lost the challenge. The accept reads the PaymentIntent first:
// succeeded, charged once; still waiting, the same PaymentIntent's challenge; failed, a new attempt. Stripe's answers
// are replayed (fixtures/stripe/).

let t: Awaited<ReturnType<typeof createStripeTestApp>>;

beforeAll(async () => {
  t = await createStripeTestApp();
});

afterAll(async () => {
  await t.close();
});

afterEach(verifyStripeReplays);

const VISA_PM = 'pm_1QvRtJ2eZvKYlo2Cw8aVisa';
// The recorded PaymentIntent of an upsell the bank wants authenticated (fixtures/stripe/upsell-*.json): $25.57, the
// total of a $19 offer shipped to Texas.
const INTENT = 'pi_3QvS7h2eZvKYlo2C0AuthRq';

/** A completed Stripe order whose link offers a $19 upsell with a downsell, and its accept that Stripe asks to authenticate. */
async function acceptAsked() {
  const store = await createStore(t.app, t.db);
  const upsell = await store.create('/offers', {
    offer_name: 'Grinder',
    item_name: 'Burr grinder',
    price: 19,
  });
  const downsell = await store.create('/offers', { offer_name: 'Scoop', item_name: 'Scoop', price: 3 });
  const link = await store.create('/checkout-links', {
    offers: [{ offer_id: store.offers.beans.id }],
    upsells: [{ offer_id: upsell.id, downsell_offer_id: downsell.id }],
  });
  const shopper = await shopperSession(t.app, store.org.publicId);
  const cartToken = (await shopper.get(`carts/${link.cart_token}`)).body.cart_token as string;
  await shopper.get(`carts/${cartToken}/preview`, { ship_country: 'US', ship_state: 'TX' });
  t.stripe.expect(
    { method: 'GET', path: `/v1/payment_methods/${VISA_PM}`, answer: 'payment-method-visa' },
    { method: 'POST', path: '/v1/customers', answer: 'customer-created' },
    { method: 'POST', path: '/v1/payment_intents', answer: 'charge-succeeded-stored' },
  );
  const placed = await shopper.post(
    'orders',
    orderBody(cartToken, { payment: { method: 'card', card_token: VISA_PM } }),
  );
  expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  const orderId = placed.body.order.order_id as number;
  const path = `carts/${cartToken}/orders/${orderId}/upsell`;
  await shopper.get(path);
  t.stripe.expect(
    { method: 'POST', path: '/v1/payment_intents', answer: 'upsell-authentication-required' },
    {
      method: 'POST',
      path: `/v1/payment_intents/${INTENT}/confirm`,
      answer: 'upsell-confirm-requires-action',
    },
  );
  const asked = await shopper.post(`${path}/accept`, { step: 1 }, { 'idempotency-key': 'yes' });
  expect(asked.body.action?.reference, JSON.stringify(asked.body)).toBe(INTENT);
  return { store, shopper, orderId, path };
}

async function linkedOrders(orderId: number) {
  const { rows } = await t.db.query<{ id: number; status: string; total: number }>(
    'SELECT id, status, total FROM orders WHERE parent_order_id = $1 ORDER BY id',
    [orderId],
  );
  return rows;
}

async function attemptsOf(orderId: number | undefined) {
  const { rows } = await t.db.query<{ status: string; gateway_reference: string }>(
    'SELECT status, gateway_reference FROM payment_attempts WHERE order_id = $1 ORDER BY id',
    [orderId],
  );
  return rows;
}

const read = (answer: string) => ({ method: 'GET', path: `/v1/payment_intents/${INTENT}`, answer });

describe('a yes sent again while Stripe asks to authenticate the first', () => {
  it('completes the PaymentIntent the shopper authenticated: no new charge, one linked order', async () => {
    const { store, shopper, orderId, path } = await acceptAsked();
    const asking = t.stripe.expect(read('upsell-retrieve-succeeded'));
    const again = await shopper.post(`${path}/accept`, { step: 1 }, { 'idempotency-key': 'yes-reload' });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.action).toBeUndefined();
    expect(again.body).toMatchObject({ offer: null, linked_orders: [{ total: 25.57 }] });
    // Only the read: no PaymentIntent created or confirmed.
    expect(asking.sent.map((sent) => `${sent.method} ${sent.path}`)).toEqual([
      `GET /v1/payment_intents/${INTENT}`,
    ]);
    const linked = await linkedOrders(orderId);
    expect(linked).toEqual([expect.objectContaining({ status: 'complete', total: 2557 })]);
    expect(await attemptsOf(linked[0]?.id)).toEqual([
      { status: 'requires_action', gateway_reference: INTENT },
      { status: 'approved', gateway_reference: INTENT },
    ]);
    expect((await store.api.get(`/orders/${orderId}`)).body.upsell_steps).toEqual([
      expect.objectContaining({ step: 1, status: 'accepted' }),
    ]);

    // Once more: answered where the offers are, nothing asked or charged.
    const quiet = t.stripe.expect();
    const repeat = await shopper.post(`${path}/accept`, { step: 1 }, { 'idempotency-key': 'yes-3' });
    expect(repeat.status).toBe(200);
    expect(quiet.sent).toEqual([]);
    expect(await linkedOrders(orderId)).toHaveLength(1);
  });

  it("answers the same PaymentIntent's challenge while it waits: nothing created at Stripe", async () => {
    const { shopper, orderId, path } = await acceptAsked();
    const asking = t.stripe.expect(read('upsell-retrieve-requires-action'));
    const again = await shopper.post(`${path}/accept`, { step: 1 }, { 'idempotency-key': 'yes-reload' });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.action).toMatchObject({
      type: 'authenticate',
      reference: INTENT,
      payment_action: { type: 'stripe' },
    });
    expect(again.body.offer).toMatchObject({ step: 1 });
    expect(asking.sent).toHaveLength(1);
    const linked = await linkedOrders(orderId);
    expect(linked).toEqual([expect.objectContaining({ status: 'awaiting_payment' })]);
    expect(await attemptsOf(linked[0]?.id)).toEqual([
      { status: 'requires_action', gateway_reference: INTENT },
    ]);
  });

  it('makes a new attempt when the authentication failed: one new charge', async () => {
    const { store, shopper, orderId, path } = await acceptAsked();
    const asking = t.stripe.expect(read('upsell-retrieve-authentication-failed'), {
      method: 'POST',
      path: '/v1/payment_intents',
      answer: 'rebill-succeeded',
    });
    const again = await shopper.post(`${path}/accept`, { step: 1 }, { 'idempotency-key': 'yes-reload' });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toMatchObject({ offer: null, linked_orders: [{ total: 25.57 }] });
    expect(asking.sent[1]?.headers['idempotency-key']).toBe(
      `upsell_${store.org.id}_${orderId}_step_1_attempt_3`,
    );
    const linked = await linkedOrders(orderId);
    expect(linked).toEqual([expect.objectContaining({ status: 'complete' })]);
    expect((await attemptsOf(linked[0]?.id)).map((attempt) => attempt.status)).toEqual([
      'requires_action',
      'declined',
      'approved',
    ]);
  });

  it('records nothing when Stripe does not answer: 503, and the yes sent again asks again', async () => {
    const { shopper, orderId, path } = await acceptAsked();
    t.stripe.expect({ method: 'GET', path: `/v1/payment_intents/${INTENT}`, fail: 'network' });
    const lost = await shopper.post(`${path}/accept`, { step: 1 }, { 'idempotency-key': 'yes-reload' });
    expect(lost.status).toBe(503);
    expect(lost.headers['retry-after']).toBe('2');
    const linked = await linkedOrders(orderId);
    expect(linked).toEqual([expect.objectContaining({ status: 'awaiting_payment' })]);
    expect(await attemptsOf(linked[0]?.id)).toEqual([
      { status: 'requires_action', gateway_reference: INTENT },
    ]);
    t.stripe.expect(read('upsell-retrieve-succeeded'));
    const again = await shopper.post(`${path}/accept`, { step: 1 }, { 'idempotency-key': 'yes-reload' });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(await linkedOrders(orderId)).toEqual([expect.objectContaining({ status: 'complete' })]);
  });
});
