import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findPaymentEvents } from '../../src/server/modules/payment-webhooks/payment-events-repository.js';
import { findPaymentAttempts } from '../../src/server/modules/orders/payment-attempts-repository.js';
import { verifyStripeReplays } from '../../src/server/platform/payments/testing/stripe-replay.js';
import type { ShopperSession } from '../helpers/shopper.js';
import { storeWithShopper } from '../helpers/store.js';
import { createStripeTestApp, deliver, orderOfCart, paymentIntent, stripeEvent } from '../helpers/stripe.js';

// POST /checkout/api/webhooks/stripe on the real app and database: signatures, configuration, and each event handled
// once (docs/payments.md, "Stripe"). Stripe's answers to the adapter are replayed (fixtures/stripe/).

let t: Awaited<ReturnType<typeof createStripeTestApp>>;

beforeAll(async () => {
  t = await createStripeTestApp();
});

afterAll(async () => {
  await t.close();
});

afterEach(verifyStripeReplays);

const AUTHENTICATED = 'pi_3QvS3d2eZvKYlo2C03dsReq';

/** An order waiting for its payment: the shopper started an express payment, which places the order unpaid. */
async function openOrder(offer: 'beans' | 'club' = 'beans') {
  const { store, shopper } = await storeWithShopper(t.app, t.db);
  const token = await store.cart([{ offer_id: store.offers[offer].id }]);
  await startPayment(shopper, token);
  return orderOfCart(t.db, token);
}

async function startPayment(shopper: ShopperSession, token: string) {
  const response = await shopper.post(
    'orders',
    { cart_token: token, payment: { method: 'paypal' } },
    { 'idempotency-key': `start-${token}` },
  );
  expect(response.status, JSON.stringify(response.body)).toBe(200);
}

describe('the Stripe webhook endpoint', () => {
  it('refuses a body whose signature does not match, or that has none', async () => {
    const event = stripeEvent('payment_intent.succeeded', { id: 'pi_x' });
    const forged = await deliver(t.app, event, { secret: 'whsec_someoneElsesSecret' });
    expect(forged).toMatchObject({ status: 400, body: { code: 'invalid_signature' } });
    expect(await deliver(t.app, event, { signature: null })).toMatchObject({
      status: 400,
      body: { code: 'invalid_signature' },
    });
    expect(await deliver(t.app, event, { signature: 't=1,v1=00' })).toMatchObject({ status: 400 });
  });

  it('answers 503 without a signing secret and 404 without Stripe, saying what to set', async () => {
    const stripe = t.config.stripe;
    try {
      t.config.stripe = stripe && { ...stripe, webhookSecret: null };
      const unset = await deliver(t.app, stripeEvent('charge.refunded', {}));
      expect(unset).toMatchObject({ status: 503, body: { code: 'webhook_not_configured' } });
      expect(String(unset.body.message)).toContain('STRIPE_WEBHOOK_SECRET');
      t.config.stripe = null;
      expect(await deliver(t.app, stripeEvent('charge.refunded', {}))).toMatchObject({ status: 404 });
    } finally {
      t.config.stripe = stripe;
    }
  });

  it('takes the event with or without a charset in its content type, and nothing but JSON', async () => {
    const event = stripeEvent('customer.created', { id: 'cus_1', object: 'customer' });
    expect(await deliver(t.app, event, { contentType: 'application/json' })).toMatchObject({ status: 200 });
    expect((await deliver(t.app, event, { contentType: 'text/plain' })).status).toBe(415);
  });

  it('answers 200 to events it does not handle, and ignores them', async () => {
    const answer = await deliver(t.app, stripeEvent('customer.created', { id: 'cus_1', object: 'customer' }));
    expect(answer).toEqual({ status: 200, body: { received: true, outcome: 'ignored' } });
  });
});

describe('payment_intent.succeeded', () => {
  it('completes the order whose payment answer we never heard, once, with the card Stripe charged', async () => {
    const order = await openOrder();
    expect(order.status).toBe('awaiting_payment');
    t.stripe.expect('retrieve-succeeded-after-action');
    const event = stripeEvent('payment_intent.succeeded', paymentIntent(AUTHENTICATED, order));
    expect(await deliver(t.app, event)).toEqual({
      status: 200,
      body: { received: true, outcome: 'completed' },
    });
    expect((await orderOfCart(t.db, await cartTokenOf(order.orderId))).status).toBe('complete');
    const attempts = await findPaymentAttempts(t.db, order.organizationId, order.orderId);
    expect(attempts).toMatchObject([
      {
        status: 'approved',
        gateway: 'stripe',
        gateway_reference: AUTHENTICATED,
        amount: 1800,
        card_brand: 'visa',
        card_last4: '4242',
      },
    ]);

    // Stripe delivers an event again when it did not hear our 200: nothing happens twice.
    t.stripe.expect();
    expect(await deliver(t.app, event)).toMatchObject({ body: { outcome: 'duplicate_event' } });
    // Another event about the same payment finds it recorded, without asking Stripe.
    t.stripe.expect();
    const again = stripeEvent('payment_intent.succeeded', paymentIntent(AUTHENTICATED, order));
    expect(await deliver(t.app, again)).toMatchObject({ body: { outcome: 'already_recorded' } });
    expect(await findPaymentAttempts(t.db, order.organizationId, order.orderId)).toHaveLength(1);
    expect(t.logs.join('')).toContain('"outcome":"completed"');
  });

  it('refunds a second payment of an order another payment completed, and records both', async () => {
    const order = await openOrder();
    t.stripe.expect('retrieve-succeeded-after-action');
    await deliver(t.app, stripeEvent('payment_intent.succeeded', paymentIntent(AUTHENTICATED, order)));
    t.stripe.expect('retrieve-paid-twice', 'refund-paid-twice');
    const twice = stripeEvent('payment_intent.succeeded', paymentIntent('pi_3QvT1a2eZvKYlo2C0Twice', order));
    expect(await deliver(t.app, twice)).toMatchObject({
      status: 200,
      body: { outcome: 'refunded_paid_twice' },
    });
    const attempts = await findPaymentAttempts(t.db, order.organizationId, order.orderId);
    expect(attempts.map((a) => [a.status, a.gateway_reference])).toEqual([
      ['approved', AUTHENTICATED],
      ['approved', 'pi_3QvT1a2eZvKYlo2C0Twice'],
    ]);
    expect(await findPaymentEvents(t.db, order.organizationId, order.orderId)).toMatchObject([
      {
        kind: 'refund',
        reference: 'pi_3QvT1a2eZvKYlo2C0Twice',
        source_id: 're_3QvT1a2eZvKYlo2C0TwiceRf',
        amount: 1800,
        status: 'requested',
        reason: 'paid_twice',
      },
    ]);
    expect(t.logs.join('')).toContain('"outcome":"refunded_paid_twice"');
  });

  it('refunds a payment of an amount the order does not owe, and leaves the order open', async () => {
    const order = await openOrder();
    t.stripe.expect('retrieve-amount-differs', 'refund-amount-differs');
    const event = stripeEvent(
      'payment_intent.succeeded',
      paymentIntent('pi_3QvT2b2eZvKYlo2C0Differ', order, { amount: 1500 }),
    );
    expect(await deliver(t.app, event)).toMatchObject({ body: { outcome: 'refunded_amount_differs' } });
    expect((await orderOfCart(t.db, await cartTokenOf(order.orderId))).status).toBe('awaiting_payment');
  });

  it('keeps the card and its Customer for a subscription paid this way, and starts the subscription', async () => {
    const order = await openOrder('club');
    const stored = 'pi_3QvS5f2eZvKYlo2C0Stored';
    t.stripe.expect('retrieve-succeeded-stored');
    const event = stripeEvent(
      'payment_intent.succeeded',
      paymentIntent(stored, order, { amount: order.total, setup_future_usage: 'off_session' }),
    );
    expect(await deliver(t.app, event)).toMatchObject({ body: { outcome: 'completed' } });
    const { rows } = await t.db.query(
      `SELECT pm.gateway, pm.gateway_token, pm.gateway_customer, pm.card_last4, s.status AS subscription
         FROM orders o JOIN payment_methods pm ON pm.organization_id = o.organization_id AND pm.id = o.payment_method_id
         JOIN subscriptions s ON s.organization_id = o.organization_id AND s.order_id = o.id
        WHERE o.organization_id = $1 AND o.id = $2`,
      [order.organizationId, order.orderId],
    );
    expect(rows).toEqual([
      {
        gateway: 'stripe',
        gateway_token: 'pm_1QvRtJ2eZvKYlo2Cw8aVisa',
        gateway_customer: 'cus_RhZk5n0pQ2xYvB',
        card_last4: '4242',
        subscription: 'active',
      },
    ]);
  });

  it('asks Stripe to deliver again later while an attempt is paying the order', async () => {
    const order = await openOrder();
    await t.db.query(`UPDATE orders SET payment_lease_until = $3 WHERE organization_id = $1 AND id = $2`, [
      order.organizationId,
      order.orderId,
      new Date(t.clock.now().getTime() + 60_000),
    ]);
    t.stripe.expect('retrieve-succeeded-after-action');
    const event = stripeEvent('payment_intent.succeeded', paymentIntent(AUTHENTICATED, order));
    expect(await deliver(t.app, event)).toMatchObject({ status: 503, body: { code: 'payment_in_flight' } });
    expect(await findPaymentAttempts(t.db, order.organizationId, order.orderId)).toEqual([]);
  });
});

describe('failures, refunds and disputes', () => {
  it('records a failed payment once, with our decline code and message', async () => {
    const order = await openOrder();
    const failed = paymentIntent('pi_3QvS2c2eZvKYlo2C0NoFund', order, {
      status: 'requires_payment_method',
      last_payment_error: { type: 'card_error', code: 'card_declined', decline_code: 'insufficient_funds' },
    });
    expect(await deliver(t.app, stripeEvent('payment_intent.payment_failed', failed))).toMatchObject({
      body: { outcome: 'failure_recorded' },
    });
    expect(await deliver(t.app, stripeEvent('payment_intent.payment_failed', failed))).toMatchObject({
      body: { outcome: 'already_recorded' },
    });
    expect(await findPaymentAttempts(t.db, order.organizationId, order.orderId)).toMatchObject([
      {
        status: 'declined',
        decline_code: 'insufficient_funds',
        gateway_reference: 'pi_3QvS2c2eZvKYlo2C0NoFund',
      },
    ]);
  });

  it('records refunds and disputes against the order that recorded the payment', async () => {
    const order = await openOrder();
    const paid = 'pi_3QvT3c2eZvKYlo2C0Refund';
    t.stripe.expect('retrieve-succeeded-refunded-later');
    await deliver(t.app, stripeEvent('payment_intent.succeeded', paymentIntent(paid, order)));
    const charge = {
      id: 'ch_QvT3c2eZvKYlo2C0Refund',
      object: 'charge',
      amount: 1800,
      currency: 'usd',
      payment_intent: paid,
      metadata: {},
    };
    const partly = stripeEvent('charge.refunded', { ...charge, amount_refunded: 500, refunded: false });
    expect(await deliver(t.app, partly)).toMatchObject({ body: { outcome: 'refund_recorded' } });
    await deliver(t.app, partly);
    await deliver(
      t.app,
      stripeEvent('charge.refunded', { ...charge, amount_refunded: 1800, refunded: true }),
    );
    const dispute = {
      id: 'du_1QvS9z2eZvKYlo2C',
      object: 'dispute',
      amount: 1800,
      currency: 'usd',
      charge: charge.id,
      payment_intent: paid,
      reason: 'fraudulent',
      status: 'needs_response',
    };
    await deliver(t.app, stripeEvent('charge.dispute.created', dispute));
    await deliver(t.app, stripeEvent('charge.dispute.closed', { ...dispute, status: 'lost' }));
    const events = await findPaymentEvents(t.db, order.organizationId, order.orderId);
    expect(events.map((e) => [e.kind, e.amount, e.status])).toEqual([
      ['refund', 500, 'partially_refunded'],
      ['refund', 1800, 'refunded'],
      ['dispute', 1800, 'needs_response'],
      ['dispute', 1800, 'lost'],
    ]);
  });

  it('answers 200 to an event about a payment it does not know', async () => {
    const dispute = stripeEvent('charge.dispute.created', {
      id: 'du_unknown',
      amount: 100,
      currency: 'usd',
      payment_intent: 'pi_unknown',
      status: 'needs_response',
    });
    expect(await deliver(t.app, dispute)).toMatchObject({
      status: 200,
      body: { outcome: 'order_not_found' },
    });
  });
});

async function cartTokenOf(orderId: number): Promise<string> {
  const { rows } = await t.db.query<{ token: string }>(
    'SELECT c.token FROM carts c JOIN orders o ON o.organization_id = c.organization_id AND o.cart_id = c.id WHERE o.id = $1',
    [orderId],
  );
  return rows[0]?.token ?? '';
}
