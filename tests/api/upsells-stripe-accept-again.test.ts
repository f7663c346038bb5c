import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { verifyStripeReplays } from '../../src/server/platform/payments/testing/stripe-replay.js';
import { createStripeTestApp } from '../helpers/stripe.js';
import {
  linkedOrdersOf,
  paymentAttemptsOf,
  readOfUpsellIntent,
  STRIPE_UPSELL_INTENT as INTENT,
  stripeOrderAwaitingUpsellAuthentication,
} from '../helpers/upsell-store.js';

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

describe('a yes sent again while Stripe asks to authenticate the first', () => {
  it('completes the PaymentIntent the shopper authenticated: no new charge, one linked order', async () => {
    const { store, shopper, orderId, path } = await stripeOrderAwaitingUpsellAuthentication(t);
    const asking = t.stripe.expect(readOfUpsellIntent('upsell-retrieve-succeeded'));
    const again = await shopper.post(`${path}/accept`, { step: 1 }, { 'idempotency-key': 'yes-reload' });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.action).toBeUndefined();
    expect(again.body).toMatchObject({ offer: null, linked_orders: [{ total: 25.57 }] });
    // Only the read: no PaymentIntent created or confirmed.
    expect(asking.sent.map((sent) => `${sent.method} ${sent.path}`)).toEqual([
      `GET /v1/payment_intents/${INTENT}`,
    ]);
    const linked = await linkedOrdersOf(t, orderId);
    expect(linked).toEqual([expect.objectContaining({ status: 'complete', total: 2557 })]);
    expect(await paymentAttemptsOf(t, linked[0]?.id)).toEqual([
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
    expect(await linkedOrdersOf(t, orderId)).toHaveLength(1);
  });

  it("answers the same PaymentIntent's challenge while it waits: nothing created at Stripe", async () => {
    const { shopper, orderId, path } = await stripeOrderAwaitingUpsellAuthentication(t);
    const asking = t.stripe.expect(readOfUpsellIntent('upsell-retrieve-requires-action'));
    const again = await shopper.post(`${path}/accept`, { step: 1 }, { 'idempotency-key': 'yes-reload' });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.action).toMatchObject({
      type: 'authenticate',
      reference: INTENT,
      payment_action: { type: 'stripe' },
    });
    expect(again.body.offer).toMatchObject({ step: 1 });
    expect(asking.sent).toHaveLength(1);
    const linked = await linkedOrdersOf(t, orderId);
    expect(linked).toEqual([expect.objectContaining({ status: 'awaiting_payment' })]);
    expect(await paymentAttemptsOf(t, linked[0]?.id)).toEqual([
      { status: 'requires_action', gateway_reference: INTENT },
    ]);
  });

  it('makes a new attempt when the authentication failed: one new charge', async () => {
    const { store, shopper, orderId, path } = await stripeOrderAwaitingUpsellAuthentication(t);
    const asking = t.stripe.expect(readOfUpsellIntent('upsell-retrieve-authentication-failed'), {
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
    const linked = await linkedOrdersOf(t, orderId);
    expect(linked).toEqual([expect.objectContaining({ status: 'complete' })]);
    expect((await paymentAttemptsOf(t, linked[0]?.id)).map((attempt) => attempt.status)).toEqual([
      'requires_action',
      'declined',
      'approved',
    ]);
  });

  it('records nothing when Stripe does not answer: 503, and the yes sent again asks again', async () => {
    const { shopper, orderId, path } = await stripeOrderAwaitingUpsellAuthentication(t);
    t.stripe.expect({ method: 'GET', path: `/v1/payment_intents/${INTENT}`, fail: 'network' });
    const lost = await shopper.post(`${path}/accept`, { step: 1 }, { 'idempotency-key': 'yes-reload' });
    expect(lost.status).toBe(503);
    expect(lost.headers['retry-after']).toBe('2');
    const linked = await linkedOrdersOf(t, orderId);
    expect(linked).toEqual([expect.objectContaining({ status: 'awaiting_payment' })]);
    expect(await paymentAttemptsOf(t, linked[0]?.id)).toEqual([
      { status: 'requires_action', gateway_reference: INTENT },
    ]);
    t.stripe.expect(readOfUpsellIntent('upsell-retrieve-succeeded'));
    const again = await shopper.post(`${path}/accept`, { step: 1 }, { 'idempotency-key': 'yes-reload' });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(await linkedOrdersOf(t, orderId)).toEqual([expect.objectContaining({ status: 'complete' })]);
  });
});
