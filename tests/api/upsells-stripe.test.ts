import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { verifyStripeReplays } from '../../src/server/platform/payments/testing/stripe-replay.js';
import { shopperSession } from '../helpers/shopper.js';
import { createStore } from '../helpers/store.js';
import { createStripeTestApp, deliver, paymentIntent, stripeEvent } from '../helpers/stripe.js';
import {
  linkedOrdersOf,
  placeStripeOrder,
  readOfUpsellIntent,
  STRIPE_UPSELL_INTENT as INTENT,
  STRIPE_VISA_PM as VISA_PM,
  stripeOrderWithUpsell,
  stripeYesAskedToAuthenticate,
} from '../helpers/upsell-store.js';

// One-click upsells through Stripe (docs/api.md, "Upsells"): the order keeps its card off-session
// (setup_future_usage) and the accept charges it off-session on its Customer, once, with the step's key. Stripe's
// answers are replayed (fixtures/stripe/).

let t: Awaited<ReturnType<typeof createStripeTestApp>>;

beforeAll(async () => {
  t = await createStripeTestApp();
});

afterAll(async () => {
  await t.close();
});

afterEach(verifyStripeReplays);

const CUSTOMER = 'cus_RhZk5n0pQ2xYvB';

describe('upsells through Stripe', () => {
  it('keeps the card off-session with the order and charges it off-session for the accepted offer', async () => {
    const store = await createStore(t.app, t.db);
    const upsell = await store.create('/offers', { offer_name: 'Guide', item_name: 'Brew guide', price: 9 });
    const link = await store.create('/checkout-links', {
      offers: [{ offer_id: store.offers.beans.id }],
      upsells: [{ offer_id: upsell.id }],
    });
    const shopper = await shopperSession(t.app, store.org.publicId);
    const cartToken = (await shopper.get(`carts/${link.cart_token}`)).body.cart_token as string;
    await shopper.get(`carts/${cartToken}/preview`, { ship_country: 'US', ship_state: 'TX' });

    const { order, orderId, ordering } = await placeStripeOrder(t, shopper, cartToken);
    expect(order.has_upsells).toBe(true);
    const kept = Object.fromEntries(new URLSearchParams(ordering.sent[2]?.body ?? ''));
    expect(kept).toMatchObject({ customer: CUSTOMER, setup_future_usage: 'off_session' });

    const path = `carts/${cartToken}/orders/${orderId}/upsell`;
    const shown = await shopper.get(path);
    const amount = shown.body.offer.amount as number;
    const charging = t.stripe.expect({
      method: 'POST',
      path: '/v1/payment_intents',
      answer: 'rebill-succeeded',
    });
    const accepted = await shopper.post(`${path}/accept`, { step: 1 }, { 'idempotency-key': 'yes' });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.linked_orders).toEqual([expect.objectContaining({ total: amount })]);
    const charge = charging.sent[0];
    expect(charge?.headers['idempotency-key']).toBe(`upsell_${store.org.id}_${orderId}_step_1_attempt_1`);
    expect(Object.fromEntries(new URLSearchParams(charge?.body ?? ''))).toMatchObject({
      amount: String(Math.round(amount * 100)),
      payment_method: VISA_PM,
      customer: CUSTOMER,
      off_session: 'true',
      confirm: 'true',
    });

    // The same accept again asks Stripe nothing.
    const repeated = t.stripe.expect();
    expect((await shopper.post(`${path}/accept`, { step: 1 }, { 'idempotency-key': 'again' })).status).toBe(
      200,
    );
    expect(repeated.sent).toEqual([]);
  });
});

describe('an upsell the bank wants authenticated, through Stripe', () => {
  it('confirms on-session, lets the page authenticate, then completes the linked order once for the exact amount', async () => {
    const { store, shopper, orderId, path } = await stripeOrderWithUpsell(t, 19);
    const shown = await shopper.get(path);
    expect(shown.body.offer.amount, 'the recorded PaymentIntent is for $25.57').toBe(25.57);

    const charging = t.stripe.expect(
      { method: 'POST', path: '/v1/payment_intents', answer: 'upsell-authentication-required' },
      {
        method: 'POST',
        path: `/v1/payment_intents/${INTENT}/confirm`,
        answer: 'upsell-confirm-requires-action',
      },
    );
    const accepted = await shopper.post(`${path}/accept`, { step: 1 }, { 'idempotency-key': 'yes' });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.action).toEqual({
      type: 'authenticate',
      reference: INTENT,
      payment_action: { type: 'stripe', client_secret: `${INTENT}_secret_Fq3cTz9v1mWb7Hn2` },
    });
    expect(accepted.body.offer).toMatchObject({ step: 1, is_downsell: false });
    expect(accepted.body.linked_orders).toEqual([]);
    const key = `upsell_${store.org.id}_${orderId}_step_1_attempt_1`;
    expect(charging.sent.map((sent) => sent.headers['idempotency-key'])).toEqual([key, `${key}_on_session`]);
    expect(Object.fromEntries(new URLSearchParams(charging.sent[0]?.body ?? ''))).toMatchObject({
      amount: '2557',
      off_session: 'true',
      confirm: 'true',
      customer: CUSTOMER,
    });
    // On-session this time: the same PaymentIntent, the stored card, for Stripe.js to finish on the page.
    expect(Object.fromEntries(new URLSearchParams(charging.sent[1]?.body ?? ''))).toEqual({
      payment_method: VISA_PM,
      use_stripe_sdk: 'true',
    });
    expect(await linkedOrdersOf(t, orderId)).toEqual([
      expect.objectContaining({ status: 'awaiting_payment' }),
    ]);

    // The same accept again (a double click, a lost answer) answers the same and asks Stripe nothing.
    const repeat = t.stripe.expect();
    const again = await shopper.post(`${path}/accept`, { step: 1 }, { 'idempotency-key': 'yes' });
    expect(again.body).toEqual(accepted.body);
    expect(repeat.sent).toEqual([]);

    // The page ran stripe.handleNextAction; the accept with the PaymentIntent is checked with Stripe.
    const reading = t.stripe.expect(readOfUpsellIntent('upsell-retrieve-succeeded'));
    const done = await shopper.post(
      `${path}/accept`,
      { step: 1, authenticated_payment: INTENT },
      { 'idempotency-key': 'authenticated' },
    );
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(reading.sent).toHaveLength(1);
    expect(done.body.action).toBeUndefined();
    expect(done.body.offer).toBeNull();
    expect(done.body.linked_orders).toEqual([expect.objectContaining({ total: 25.57 })]);
    const linked = await linkedOrdersOf(t, orderId);
    expect(linked).toEqual([expect.objectContaining({ status: 'complete', total: 2557 })]);
    const { rows: attempts } = await t.db.query<{
      status: string;
      amount: number;
      gateway_reference: string;
    }>('SELECT status, amount, gateway_reference FROM payment_attempts WHERE order_id = $1 ORDER BY id', [
      linked[0]?.id,
    ]);
    expect(attempts).toEqual([
      { status: 'requires_action', amount: 2557, gateway_reference: INTENT },
      { status: 'approved', amount: 2557, gateway_reference: INTENT },
    ]);

    // Once accepted, any accept again (either key, or a new one) charges nothing more.
    const after = t.stripe.expect();
    for (const [body, key] of [
      [{ step: 1, authenticated_payment: INTENT }, 'authenticated'],
      [{ step: 1 }, 'new'],
    ] as const) {
      const repeated = await shopper.post(`${path}/accept`, body, { 'idempotency-key': key });
      expect(repeated.status).toBe(200);
      expect(repeated.body.linked_orders).toEqual([expect.objectContaining({ total: 25.57 })]);
    }
    expect(after.sent).toEqual([]);
    expect(await linkedOrdersOf(t, orderId)).toHaveLength(1);
  });

  it("accepts once when Stripe's webhook completed the authenticated payment before the page said so", async () => {
    const funnel = await stripeOrderWithUpsell(t, 19);
    const { store, shopper, orderId, path } = funnel;
    await stripeYesAskedToAuthenticate(t, funnel);
    const [waiting] = await linkedOrdersOf(t, orderId);
    t.stripe.expect(readOfUpsellIntent('upsell-retrieve-succeeded'));
    const event = stripeEvent(
      'payment_intent.succeeded',
      paymentIntent(INTENT, { organizationId: store.org.id, orderId: waiting?.id ?? 0 }, { amount: 2557 }),
    );
    expect((await deliver(t.app, event)).body).toMatchObject({ outcome: 'completed' });

    const asked = t.stripe.expect();
    const done = await shopper.post(
      `${path}/accept`,
      { step: 1, authenticated_payment: INTENT },
      { 'idempotency-key': 'authenticated' },
    );
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.offer).toBeNull();
    expect(done.body.linked_orders).toEqual([expect.objectContaining({ total: 25.57 })]);
    expect(asked.sent).toEqual([]);
    expect(await linkedOrdersOf(t, orderId)).toEqual([
      expect.objectContaining({ status: 'complete', total: 2557 }),
    ]);
  });

  it('keeps the step open after a failed authentication: nothing charged, and the shopper may say no', async () => {
    const funnel = await stripeOrderWithUpsell(t, 19);
    const { shopper, orderId, path } = funnel;
    await stripeYesAskedToAuthenticate(t, funnel);

    t.stripe.expect(readOfUpsellIntent('upsell-retrieve-authentication-failed'));
    const failed = await shopper.post(
      `${path}/accept`,
      { step: 1, authenticated_payment: INTENT },
      { 'idempotency-key': 'authenticated' },
    );
    expect(failed.status).toBe(402);
    expect(failed.body.code).toBe('authentication_failed');
    expect(await linkedOrdersOf(t, orderId)).toEqual([expect.objectContaining({ status: 'declined' })]);
    expect((await shopper.get(path)).body.offer).toMatchObject({ step: 1, is_downsell: false });

    // No: the downsell follows, and nothing was charged for the upsell.
    t.stripe.expect();
    const declined = await shopper.post(`${path}/decline`, { step: 1 }, { 'idempotency-key': 'no' });
    expect(declined.status, JSON.stringify(declined.body)).toBe(200);
    expect(declined.body.offer).toMatchObject({ step: 2, is_downsell: true });
    expect(declined.body.linked_orders).toEqual([]);
  });

  it('does not complete the linked order with a payment Stripe says is for another amount', async () => {
    const funnel = await stripeOrderWithUpsell(t, 18);
    const { shopper, orderId, path } = funnel;
    await stripeYesAskedToAuthenticate(t, funnel);
    t.stripe.expect(readOfUpsellIntent('upsell-retrieve-succeeded'));
    const mismatched = await shopper.post(
      `${path}/accept`,
      { step: 1, authenticated_payment: INTENT },
      { 'idempotency-key': 'authenticated' },
    );
    expect(mismatched.status).toBe(409);
    expect(mismatched.body.code).toBe('payment_mismatch');
    expect(await linkedOrdersOf(t, orderId)).toEqual([
      expect.objectContaining({ status: 'awaiting_payment' }),
    ]);
    expect((await shopper.get(path)).body.linked_orders).toEqual([]);
  });
});
