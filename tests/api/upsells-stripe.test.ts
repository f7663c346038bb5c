import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { verifyStripeReplays } from '../../src/server/platform/payments/testing/stripe-replay.js';
import { orderBody } from '../helpers/order-body.js';
import { shopperSession } from '../helpers/shopper.js';
import { createStore } from '../helpers/store.js';
import { createStripeTestApp } from '../helpers/stripe.js';

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

const VISA_PM = 'pm_1QvRtJ2eZvKYlo2Cw8aVisa';
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

    const ordering = t.stripe.expect(
      { method: 'GET', path: `/v1/payment_methods/${VISA_PM}`, answer: 'payment-method-visa' },
      { method: 'POST', path: '/v1/customers', answer: 'customer-created' },
      { method: 'POST', path: '/v1/payment_intents', answer: 'charge-succeeded-stored' },
    );
    const placed = await shopper.post(
      'orders',
      orderBody(cartToken, { payment: { method: 'card', card_token: VISA_PM } }),
    );
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    expect(placed.body.order.has_upsells).toBe(true);
    const orderId = placed.body.order.order_id as number;
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
