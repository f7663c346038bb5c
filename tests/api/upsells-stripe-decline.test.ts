import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { verifyStripeReplays } from '../../src/server/platform/payments/testing/stripe-replay.js';
import { orderBody } from '../helpers/order-body.js';
import { shopperSession } from '../helpers/shopper.js';
import { createStore } from '../helpers/store.js';
import { createStripeTestApp, deliver, paymentIntent, stripeEvent } from '../helpers/stripe.js';

// A no to an upsell whose yes Stripe asked to authenticate (docs/api.md, "Upsells"): the no reads the PaymentIntent
// first. Succeeded (the shopper passed the challenge, the accept that followed was lost): the yes stands, charged
// once. Not succeeded: cancelled at Stripe, the step declined, and no later webhook completes its linked order.
// Stripe's answers are replayed (fixtures/stripe/).

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
const cancel = (answer: string) => ({ method: 'POST', path: `/v1/payment_intents/${INTENT}/cancel`, answer });

describe('a no to an upsell Stripe asked to authenticate', () => {
  it('keeps the yes the shopper authenticated (its accept lost): charged once, accepted, 409 upsell_accepted', async () => {
    const { store, shopper, orderId, path } = await acceptAsked();
    // The page ran stripe.handleNextAction and the bank said yes; its accept never arrived. The shopper says no.
    const asking = t.stripe.expect(read('upsell-retrieve-succeeded'));
    const no = await shopper.post(`${path}/decline`, { step: 1 }, { 'idempotency-key': 'no' });
    expect(no.status, JSON.stringify(no.body)).toBe(409);
    expect(no.body.code).toBe('upsell_accepted');
    expect(asking.sent).toHaveLength(1);
    const linked = await linkedOrders(orderId);
    expect(linked).toEqual([expect.objectContaining({ status: 'complete', total: 2557 })]);
    expect(await attemptsOf(linked[0]?.id)).toEqual([
      { status: 'requires_action', gateway_reference: INTENT },
      { status: 'approved', gateway_reference: INTENT },
    ]);
    const first = (await store.api.get(`/orders/${orderId}`)).body;
    expect(first.linked_orders).toEqual([{ order_id: linked[0]?.id, status: 'complete', total: 25.57 }]);
    expect(first.upsell_steps).toEqual([expect.objectContaining({ step: 1, status: 'accepted' })]);

    // Stripe's webhook for the payment, and the no again: nothing asked, nothing charged or completed again.
    const quiet = t.stripe.expect();
    const event = stripeEvent(
      'payment_intent.succeeded',
      paymentIntent(INTENT, { organizationId: store.org.id, orderId: linked[0]?.id ?? 0 }, { amount: 2557 }),
    );
    expect((await deliver(t.app, event)).body).toMatchObject({ outcome: 'already_recorded' });
    const again = await shopper.post(`${path}/decline`, { step: 1 }, { 'idempotency-key': 'no-again' });
    expect(again.body.code).toBe('upsell_accepted');
    expect(quiet.sent).toEqual([]);
    expect(await linkedOrders(orderId)).toHaveLength(1);
    expect((await shopper.get(path)).body).toMatchObject({ offer: null, linked_orders: [{ total: 25.57 }] });
  });

  it('cancels a PaymentIntent still waiting: nothing charged, declined, and a later webhook is refunded, not completed', async () => {
    const { store, shopper, orderId, path } = await acceptAsked();
    const asking = t.stripe.expect(read('upsell-retrieve-requires-action'), cancel('upsell-cancel'));
    const no = await shopper.post(`${path}/decline`, { step: 1 }, { 'idempotency-key': 'no' });
    expect(no.status, JSON.stringify(no.body)).toBe(200);
    expect(no.body.offer).toMatchObject({ step: 2, is_downsell: true });
    expect(no.body.linked_orders).toEqual([]);
    const cancelled = asking.sent[1];
    expect(cancelled?.headers['idempotency-key']).toBe(`upsell_${store.org.id}_${orderId}_step_1_cancel_1`);
    expect(Object.fromEntries(new URLSearchParams(cancelled?.body ?? ''))).toEqual({
      cancellation_reason: 'abandoned',
    });
    const linked = await linkedOrders(orderId);
    expect(linked).toEqual([expect.objectContaining({ status: 'declined' })]);
    expect(await attemptsOf(linked[0]?.id)).toEqual([
      { status: 'requires_action', gateway_reference: INTENT },
      { status: 'declined', gateway_reference: INTENT },
    ]);
    const first = (await store.api.get(`/orders/${orderId}`)).body;
    expect(first.upsell_steps[0]).toMatchObject({ step: 1, status: 'declined' });

    // Had the payment gone through after all, its webhook refunds it: a declined step's order is never completed.
    const refunding = t.stripe.expect(read('upsell-retrieve-succeeded'), {
      method: 'POST',
      path: '/v1/refunds',
      answer: 'refund-full',
    });
    const event = stripeEvent(
      'payment_intent.succeeded',
      paymentIntent(INTENT, { organizationId: store.org.id, orderId: linked[0]?.id ?? 0 }, { amount: 2557 }),
    );
    expect((await deliver(t.app, event)).body).toMatchObject({ outcome: 'refunded_upsell_declined' });
    expect(Object.fromEntries(new URLSearchParams(refunding.sent[1]?.body ?? ''))).toMatchObject({
      payment_intent: INTENT,
      amount: '2557',
    });
    expect(await linkedOrders(orderId)).toEqual([expect.objectContaining({ status: 'declined' })]);
    expect((await store.api.get(`/orders/${orderId}`)).body.upsell_steps[0]).toMatchObject({
      status: 'declined',
    });
    expect((await shopper.get(path)).body.linked_orders).toEqual([]);
  });

  it('keeps the yes when the shopper passed the challenge between the read and the cancel', async () => {
    const { shopper, orderId, path } = await acceptAsked();
    t.stripe.expect(
      read('upsell-retrieve-requires-action'),
      cancel('upsell-cancel-already-succeeded'),
      read('upsell-retrieve-succeeded'),
    );
    const no = await shopper.post(`${path}/decline`, { step: 1 }, { 'idempotency-key': 'no' });
    expect(no.status, JSON.stringify(no.body)).toBe(409);
    expect(no.body.code).toBe('upsell_accepted');
    expect(await linkedOrders(orderId)).toEqual([
      expect.objectContaining({ status: 'complete', total: 2557 }),
    ]);
  });

  it('records nothing when Stripe does not answer: the no is sent again', async () => {
    const { shopper, orderId, path } = await acceptAsked();
    t.stripe.expect({ method: 'GET', path: `/v1/payment_intents/${INTENT}`, fail: 'network' });
    const lost = await shopper.post(`${path}/decline`, { step: 1 }, { 'idempotency-key': 'no' });
    expect(lost.status).toBe(503);
    expect(await linkedOrders(orderId)).toEqual([expect.objectContaining({ status: 'awaiting_payment' })]);
    t.stripe.expect(read('upsell-retrieve-requires-action'), cancel('upsell-cancel'));
    const no = await shopper.post(`${path}/decline`, { step: 1 }, { 'idempotency-key': 'no' });
    expect(no.status, JSON.stringify(no.body)).toBe(200);
    expect(await linkedOrders(orderId)).toEqual([expect.objectContaining({ status: 'declined' })]);
  });
});
