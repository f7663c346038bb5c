import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runRebills } from '../../src/server/modules/subscriptions/rebill-service.js';
import { createPaymentGateways } from '../../src/server/platform/payments/select-gateway.js';
import {
  stripeReplay,
  verifyStripeReplays,
} from '../../src/server/platform/payments/testing/stripe-replay.js';
import { orderBody } from '../helpers/order-body.js';
import { storeWithShopper } from '../helpers/store.js';
import { createStripeTestApp } from '../helpers/stripe.js';
import { injectJson } from '../helpers/test-app.js';

// A subscriber's new card through Stripe on the real app (docs/subscriptions.md, "Self-service"): Stripe's frame makes
// a PaymentMethod on the page, the server saves it through a SetupIntent on the subscription's Customer, and the next
// renewal charges it. Stripe's answers are replayed (fixtures/stripe/); ids are this database's, checked here.

let t: Awaited<ReturnType<typeof createStripeTestApp>>;

beforeAll(async () => {
  t = await createStripeTestApp();
});

afterAll(async () => {
  await t.close();
});

afterEach(verifyStripeReplays);

const FIRST_PM = 'pm_1QvRtJ2eZvKYlo2Cw8aVisa';
const CUSTOMER = 'cus_RhZk5n0pQ2xYvB';
const NEW_PM = 'pm_1QvT9z2eZvKYlo2CNewCard';

describe('a new card through Stripe', () => {
  it('is saved by a SetupIntent on the Customer, and the next renewal charges it', async () => {
    const { store, shopper } = await storeWithShopper(t.app, t.db);
    const cart = await store.cart([{ offer_id: store.offers.club.id }]);
    await shopper.get(`carts/${cart}/preview`, { ship_country: 'US', ship_state: 'TX' });
    t.stripe.expect(
      { method: 'GET', path: `/v1/payment_methods/${FIRST_PM}`, answer: 'payment-method-visa' },
      { method: 'POST', path: '/v1/customers', answer: 'customer-created' },
      { method: 'POST', path: '/v1/payment_intents', answer: 'charge-succeeded-stored' },
    );
    const placed = await shopper.post(
      'orders',
      orderBody(cart, {
        subscription_terms_accepted: true,
        payment: { method: 'card', card_token: FIRST_PM },
      }),
    );
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const id = (await store.api.get(`/orders/${placed.body.order.order_id}`)).body.subscription_ids[0];

    const link = await store.api.post(`/subscriptions/${id}/manage-link`, {});
    const token = new URL(link.body.url).pathname.split('/').pop();
    const headers = { authorization: `Bearer ${token}` };
    const read = await injectJson(t.app, {
      method: 'GET',
      url: '/checkout/api/subscriber/subscription',
      headers,
    });
    expect(read.body.card_processor).toEqual({
      name: 'stripe',
      publishable_key: 'pk_test_51QvRtJ2eZvKYlo2C',
    });

    const saving = t.stripe.expect({
      method: 'POST',
      path: '/v1/setup_intents',
      answer: 'setup-intent-succeeded',
    });
    const saved = await injectJson(t.app, {
      method: 'POST',
      url: '/checkout/api/subscriber/subscription/card',
      headers,
      payload: { card_token: NEW_PM },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const setup = saving.sent[0];
    expect(setup?.headers['idempotency-key']).toMatch(
      new RegExp(`^subcard_${store.org.id}_${id}_[0-9a-f]{32}$`),
    );
    expect(Object.fromEntries(new URLSearchParams(setup?.body ?? ''))).toMatchObject({
      payment_method: NEW_PM,
      customer: CUSTOMER,
      confirm: 'true',
      usage: 'off_session',
      'metadata[organization_id]': String(store.org.id),
    });
    expect(saved.body.card).toEqual({ brand: 'mastercard', last4: '4444' });
    const { rows } = await t.db.query<{ gateway: string; gateway_customer: string }>(
      `SELECT pm.gateway, pm.gateway_customer FROM payment_methods pm
         JOIN subscriptions s ON s.payment_method_id = pm.id WHERE s.id = $1`,
      [id],
    );
    expect(rows[0]).toEqual({ gateway: 'stripe', gateway_customer: CUSTOMER });

    // The renewal charges the saved card on its Customer.
    const renewal = stripeReplay({ method: 'POST', path: '/v1/payment_intents', answer: 'rebill-succeeded' });
    const gateways = createPaymentGateways(t.config, { db: t.db, fetch: renewal.fetch, timeoutMs: 200 });
    const due = new Date((await store.api.get(`/subscriptions/${id}`)).body.next_charge_at);
    if (due > t.clock.now()) t.clock.set(due);
    await runRebills({ db: t.db, gateways, clock: t.clock });
    expect(Object.fromEntries(new URLSearchParams(renewal.sent[0]?.body ?? ''))).toMatchObject({
      payment_method: NEW_PM,
      customer: CUSTOMER,
      off_session: 'true',
    });
    expect((await store.api.get(`/subscriptions/${id}`)).body).toMatchObject({
      cycle: 2,
      changed_by: 'subscriber',
    });
  });
});
