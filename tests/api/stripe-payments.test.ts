import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findPaymentAttempts } from '../../src/server/modules/orders/payment-attempts-repository.js';
import { verifyStripeReplays } from '../../src/server/platform/payments/testing/stripe-replay.js';
import { orderBody } from '../helpers/order-body.js';
import { storeWithShopper } from '../helpers/store.js';
import { createStripeTestApp, deliver, orderOfCart, paymentIntent, stripeEvent } from '../helpers/stripe.js';

// Card orders through Stripe on the real app (docs/payments.md, "One path through the code"): the order sends the
// PaymentMethod Stripe's frame made, never a card; a charge whose answer is lost is completed by Stripe's webhook.
// Stripe's answers are replayed (fixtures/stripe/); ids and amounts are this database's, so charges are checked here.

let t: Awaited<ReturnType<typeof createStripeTestApp>>;

beforeAll(async () => {
  t = await createStripeTestApp();
});

afterAll(async () => {
  await t.close();
});

afterEach(verifyStripeReplays);

const VISA_PM = 'pm_1QvRtJ2eZvKYlo2Cw8aVisa';
const THREE_DS = 'pi_3QvS3d2eZvKYlo2C03dsReq';

async function cartAndShopper() {
  const { store, shopper } = await storeWithShopper(t.app, t.db);
  const token = await store.cart([{ offer_id: store.offers.beans.id }]);
  return { shopper, token };
}

describe('card orders through Stripe', () => {
  it("completes the order by webhook when the charge's answer was lost, and the shopper's retry does not pay again", async () => {
    const { shopper, token } = await cartAndShopper();
    const recording = t.stripe.expect('payment-method-visa', {
      method: 'POST',
      path: '/v1/payment_intents',
      fail: 'network',
    });
    const body = orderBody(token, { payment: { method: 'card', card_token: VISA_PM } });
    const lost = await shopper.post('orders', body, { 'idempotency-key': `lost-${token}` });
    expect(lost.status, JSON.stringify(lost.body)).toBe(503);
    expect(lost.body.code).toBe('payment_unavailable');

    const order = await orderOfCart(t.db, token);
    expect(order.status).not.toBe('complete');
    // The charge Stripe would have made: the token, our order's amount and the attempt's key, never a card.
    const charge = recording.sent[1];
    const form = Object.fromEntries(new URLSearchParams(charge?.body ?? ''));
    expect(charge?.headers['idempotency-key']).toBe(
      `order_${order.organizationId}_${order.orderId}_attempt_1`,
    );
    expect(form).toMatchObject({
      amount: String(order.total),
      currency: 'usd',
      payment_method: VISA_PM,
      confirm: 'true',
      'metadata[organization_id]': String(order.organizationId),
      'metadata[order_id]': String(order.orderId),
    });
    expect(JSON.stringify(recording.sent)).not.toMatch(/\d{12,19}|cvc|cvv/i);

    // Stripe had charged the card: its webhook completes the order.
    t.stripe.expect('retrieve-succeeded-after-action');
    const event = stripeEvent(
      'payment_intent.succeeded',
      paymentIntent(THREE_DS, order, { amount: order.total }),
    );
    expect(await deliver(t.app, event)).toMatchObject({ status: 200, body: { outcome: 'completed' } });
    expect((await orderOfCart(t.db, token)).status).toBe('complete');
    expect(
      (await findPaymentAttempts(t.db, order.organizationId, order.orderId)).map((a) => [
        a.status,
        a.gateway,
      ]),
    ).toEqual([
      ['error', 'stripe'],
      ['approved', 'stripe'],
    ]);

    // The shopper presses "Place order" again: the order is complete, nothing is charged again.
    // (The order path may ask Stripe about the token again before it finds the order complete; it charges nothing.)
    const retried = t.stripe.expect({
      method: 'GET',
      path: `/v1/payment_methods/${VISA_PM}`,
      answer: 'payment-method-visa',
      optional: true,
    });
    const retry = await shopper.post('orders', body, { 'idempotency-key': `retry-${token}` });
    expect([200, 409], JSON.stringify(retry.body)).toContain(retry.status);
    if (retry.status === 200) expect(retry.body.order.status).toBe('complete');
    expect(retried.sent.filter((request) => request.method === 'POST')).toEqual([]);
  });

  it('sends the shopper to authenticate, then completes the order once Stripe says the payment succeeded', async () => {
    const { shopper, token } = await cartAndShopper();
    t.stripe.expect('payment-method-visa', {
      method: 'POST',
      path: '/v1/payment_intents',
      answer: 'charge-requires-action',
    });
    const first = await shopper.post(
      'orders',
      orderBody(token, { payment: { method: 'card', card_token: VISA_PM } }),
      { 'idempotency-key': `first-${token}` },
    );
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.order.status).toBe('awaiting_payment');
    expect(first.body.action).toEqual({
      type: 'authenticate',
      reference: THREE_DS,
      payment_action: { type: 'stripe', client_secret: `${THREE_DS}_secret_Fq3cTz9v1mWb7Hn2` },
    });

    t.stripe.expect({
      method: 'GET',
      path: `/v1/payment_intents/${THREE_DS}`,
      answer: 'retrieve-succeeded-after-action',
    });
    const confirmed = await shopper.post(
      'orders',
      orderBody(token, { payment: { method: 'card', authenticated_payment: THREE_DS } }),
      { 'idempotency-key': `confirmed-${token}` },
    );
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body.order.status).toBe('complete');
  });

  it('answers the order complete when the webhook completed it before the page confirmed the authentication', async () => {
    const { shopper, token } = await cartAndShopper();
    t.stripe.expect('payment-method-visa', {
      method: 'POST',
      path: '/v1/payment_intents',
      answer: 'charge-requires-action',
    });
    const body = orderBody(token, { payment: { method: 'card', card_token: VISA_PM } });
    expect((await shopper.post('orders', body, { 'idempotency-key': `first-${token}` })).status).toBe(200);
    const order = await orderOfCart(t.db, token);

    t.stripe.expect('retrieve-succeeded-after-action');
    const event = stripeEvent(
      'payment_intent.succeeded',
      paymentIntent(THREE_DS, order, { amount: order.total }),
    );
    expect(await deliver(t.app, event)).toMatchObject({ body: { outcome: 'completed' } });

    t.stripe.expect({
      method: 'GET',
      path: `/v1/payment_intents/${THREE_DS}`,
      answer: 'retrieve-succeeded-after-action',
      optional: true,
    });
    const confirmed = await shopper.post(
      'orders',
      orderBody(token, { payment: { method: 'card', authenticated_payment: THREE_DS } }),
      { 'idempotency-key': `confirmed-${token}` },
    );
    expect([200, 409], JSON.stringify(confirmed.body)).toContain(confirmed.status);
    if (confirmed.status === 200) expect(confirmed.body.order.status).toBe('complete');
    const approved = (await findPaymentAttempts(t.db, order.organizationId, order.orderId)).filter(
      (attempt) => attempt.status === 'approved',
    );
    expect(approved.map((attempt) => attempt.gateway_reference)).toEqual([THREE_DS]);
  });

  it('refuses a card token Stripe does not know, without charging', async () => {
    const { shopper, token } = await cartAndShopper();
    t.stripe.expect({
      method: 'GET',
      path: '/v1/payment_methods/pm_1QvRxD2eZvKYlo2CUnknown',
      answer: 'payment-method-missing',
    });
    const refused = await shopper.post(
      'orders',
      orderBody(token, { payment: { method: 'card', card_token: 'pm_1QvRxD2eZvKYlo2CUnknown' } }),
      { 'idempotency-key': `unknown-${token}` },
    );
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect(JSON.stringify(refused.body)).toContain(
      'This card entry was already used or has expired. Enter your card again.',
    );
    // The shopper reads it in the page's language, not in the processor's words.
    t.stripe.expect({
      method: 'GET',
      path: '/v1/payment_methods/pm_1QvRxD2eZvKYlo2CUnknown',
      answer: 'payment-method-missing',
    });
    const spanish = await shopper.post(
      'orders',
      orderBody(token, { payment: { method: 'card', card_token: 'pm_1QvRxD2eZvKYlo2CUnknown' } }),
      { 'idempotency-key': `unknown-es-${token}`, 'accept-language': 'es' },
    );
    expect(spanish.status).toBe(refused.status);
    expect(JSON.stringify(spanish.body)).toContain(
      'Estos datos de tarjeta ya se usaron o han caducado. Vuelve a introducir tu tarjeta.',
    );
    expect(JSON.stringify(spanish.body)).not.toContain('Enter your card details again.');
  });
});
