import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { verifyStripeReplays } from '../../src/server/platform/payments/testing/stripe-replay.js';
import { createStripeTestApp, deliver, paymentIntent, stripeEvent } from '../helpers/stripe.js';
import {
  linkedOrdersOf,
  paymentAttemptsOf,
  readOfUpsellIntent,
  STRIPE_UPSELL_INTENT as INTENT,
  stripeOrderAwaitingUpsellAuthentication,
} from '../helpers/upsell-store.js';

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

const cancel = (answer: string) => ({ method: 'POST', path: `/v1/payment_intents/${INTENT}/cancel`, answer });

describe('a no to an upsell Stripe asked to authenticate', () => {
  it('keeps the yes the shopper authenticated (its accept lost): charged once, accepted, 409 upsell_accepted', async () => {
    const { store, shopper, orderId, path } = await stripeOrderAwaitingUpsellAuthentication(t);
    // The page ran stripe.handleNextAction and the bank said yes; its accept never arrived. The shopper says no.
    const asking = t.stripe.expect(readOfUpsellIntent('upsell-retrieve-succeeded'));
    const no = await shopper.post(`${path}/decline`, { step: 1 }, { 'idempotency-key': 'no' });
    expect(no.status, JSON.stringify(no.body)).toBe(409);
    expect(no.body.code).toBe('upsell_accepted');
    expect(asking.sent).toHaveLength(1);
    const linked = await linkedOrdersOf(t, orderId);
    expect(linked).toEqual([expect.objectContaining({ status: 'complete', total: 2557 })]);
    expect(await paymentAttemptsOf(t, linked[0]?.id)).toEqual([
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
    expect(await linkedOrdersOf(t, orderId)).toHaveLength(1);
    expect((await shopper.get(path)).body).toMatchObject({ offer: null, linked_orders: [{ total: 25.57 }] });
  });

  it('cancels a PaymentIntent still waiting: nothing charged, declined, and a later webhook is refunded, not completed', async () => {
    const { store, shopper, orderId, path } = await stripeOrderAwaitingUpsellAuthentication(t);
    const asking = t.stripe.expect(
      readOfUpsellIntent('upsell-retrieve-requires-action'),
      cancel('upsell-cancel'),
    );
    const no = await shopper.post(`${path}/decline`, { step: 1 }, { 'idempotency-key': 'no' });
    expect(no.status, JSON.stringify(no.body)).toBe(200);
    expect(no.body.offer).toMatchObject({ step: 2, is_downsell: true });
    expect(no.body.linked_orders).toEqual([]);
    const cancelled = asking.sent[1];
    expect(cancelled?.headers['idempotency-key']).toBe(`upsell_${store.org.id}_${orderId}_step_1_cancel_1`);
    expect(Object.fromEntries(new URLSearchParams(cancelled?.body ?? ''))).toEqual({
      cancellation_reason: 'abandoned',
    });
    const linked = await linkedOrdersOf(t, orderId);
    expect(linked).toEqual([expect.objectContaining({ status: 'declined' })]);
    expect(await paymentAttemptsOf(t, linked[0]?.id)).toEqual([
      { status: 'requires_action', gateway_reference: INTENT },
      { status: 'declined', gateway_reference: INTENT },
    ]);
    const first = (await store.api.get(`/orders/${orderId}`)).body;
    expect(first.upsell_steps[0]).toMatchObject({ step: 1, status: 'declined' });

    // Had the payment gone through after all, its webhook refunds it: a declined step's order is never completed.
    const refunding = t.stripe.expect(readOfUpsellIntent('upsell-retrieve-succeeded'), {
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
    expect(await linkedOrdersOf(t, orderId)).toEqual([expect.objectContaining({ status: 'declined' })]);
    expect((await store.api.get(`/orders/${orderId}`)).body.upsell_steps[0]).toMatchObject({
      status: 'declined',
    });
    expect((await shopper.get(path)).body.linked_orders).toEqual([]);
  });

  it('keeps the yes when the shopper passed the challenge between the read and the cancel', async () => {
    const { shopper, orderId, path } = await stripeOrderAwaitingUpsellAuthentication(t);
    t.stripe.expect(
      readOfUpsellIntent('upsell-retrieve-requires-action'),
      cancel('upsell-cancel-already-succeeded'),
      readOfUpsellIntent('upsell-retrieve-succeeded'),
    );
    const no = await shopper.post(`${path}/decline`, { step: 1 }, { 'idempotency-key': 'no' });
    expect(no.status, JSON.stringify(no.body)).toBe(409);
    expect(no.body.code).toBe('upsell_accepted');
    expect(await linkedOrdersOf(t, orderId)).toEqual([
      expect.objectContaining({ status: 'complete', total: 2557 }),
    ]);
  });

  it('records nothing when Stripe does not answer: the no is sent again', async () => {
    const { shopper, orderId, path } = await stripeOrderAwaitingUpsellAuthentication(t);
    t.stripe.expect({ method: 'GET', path: `/v1/payment_intents/${INTENT}`, fail: 'network' });
    const lost = await shopper.post(`${path}/decline`, { step: 1 }, { 'idempotency-key': 'no' });
    expect(lost.status).toBe(503);
    expect(await linkedOrdersOf(t, orderId)).toEqual([
      expect.objectContaining({ status: 'awaiting_payment' }),
    ]);
    t.stripe.expect(readOfUpsellIntent('upsell-retrieve-requires-action'), cancel('upsell-cancel'));
    const no = await shopper.post(`${path}/decline`, { step: 1 }, { 'idempotency-key': 'no' });
    expect(no.status, JSON.stringify(no.body)).toBe(200);
    expect(await linkedOrdersOf(t, orderId)).toEqual([expect.objectContaining({ status: 'declined' })]);
  });
});
