import { expect } from 'vitest';
import { AUTHENTICATING_TOKEN_PREFIX } from '../../src/server/platform/payments/test-gateway.js';
import { orderBody } from './order-body.js';
import { shopperSession, type ShopperSession } from './shopper.js';
import { createStore, type Store } from './store.js';
import type { createStripeTestApp } from './stripe.js';
import { injectJson, processorOf, TEST_PROCESSOR_URL, type TestApp } from './test-app.js';

// Stores whose checkout link offers an upsell with a downsell, the orders placed through them and what the upsell
// steps leave behind (docs/api.md, "Upsells"): with the built-in test processor, or with Stripe's recorded answers.

type StripeTestApp = Awaited<ReturnType<typeof createStripeTestApp>>;

interface OfferFields {
  offer_name: string;
  item_name: string;
  price: number;
}

/** An order placed through an upsell link, and the path of its upsell steps. */
export interface UpsellFunnel {
  store: Store;
  shopper: ShopperSession;
  orderId: number;
  path: string;
}

/** The card of Stripe's recorded orders (fixtures/stripe/). */
export const STRIPE_VISA_PM = 'pm_1QvRtJ2eZvKYlo2Cw8aVisa';
/**
 * The recorded PaymentIntent of an upsell the bank wants authenticated (fixtures/stripe/upsell-*.json): $25.57, the
 * total of a $19 offer shipped to Texas.
 */
export const STRIPE_UPSELL_INTENT = 'pi_3QvS7h2eZvKYlo2C0AuthRq';

/** A new store whose link offers beans, then `upsell` with `downsell` after a no; a shopper's cart through it, to Texas. */
async function cartThroughUpsellLink(t: TestApp, upsell: OfferFields, downsell: OfferFields) {
  const store = await createStore(t.app, t.db);
  const upsellOffer = await store.create('/offers', upsell);
  const downsellOffer = await store.create('/offers', downsell);
  const link = await store.create('/checkout-links', {
    offers: [{ offer_id: store.offers.beans.id }],
    upsells: [{ offer_id: upsellOffer.id, downsell_offer_id: downsellOffer.id }],
  });
  const shopper = await shopperSession(t.app, store.org.publicId);
  const cartToken = (await shopper.get(`carts/${link.cart_token}`)).body.cart_token as string;
  await shopper.get(`carts/${cartToken}/preview`, { ship_country: 'US', ship_state: 'TX' });
  return { store, shopper, cartToken };
}

const upsellPath = (cartToken: string, orderId: number) => `carts/${cartToken}/orders/${orderId}/upsell`;

/**
 * An order with the test processor through a link offering a grinder (downsell: a scale), paid with a card whose bank
 * asks for 3-D Secure.
 */
export async function orderWithAuthenticatingCard(t: TestApp): Promise<UpsellFunnel> {
  const { store, shopper, cartToken } = await cartThroughUpsellLink(
    t,
    { offer_name: 'Grinder', item_name: 'Burr grinder', price: 40 },
    { offer_name: 'Scale', item_name: 'Coffee scale', price: 12.5 },
  );
  const placed = await shopper.post('orders', orderBody(cartToken), { 'idempotency-key': `o-${cartToken}` });
  expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  const orderId = placed.body.order.order_id as number;
  await t.db.query(
    `UPDATE payment_methods SET gateway_token = $2
      WHERE id = (SELECT payment_method_id FROM orders WHERE id = $1)`,
    [orderId, `${AUTHENTICATING_TOKEN_PREFIX}${orderId}`],
  );
  return { store, shopper, orderId, path: upsellPath(cartToken, orderId) };
}

/** The yes to the test processor's order: the bank's challenge, as the page gets it. */
export async function challengeForYes(
  f: UpsellFunnel,
): Promise<{ reference: string; url: string; amount: number }> {
  const shown = await f.shopper.get(f.path);
  const asked = await f.shopper.post(`${f.path}/accept`, { step: 1 }, { 'idempotency-key': 'yes' });
  expect(asked.status, JSON.stringify(asked.body)).toBe(200);
  expect(asked.body.action).toMatchObject({ type: 'authenticate', payment_action: { type: 'challenge' } });
  return {
    reference: asked.body.action.reference as string,
    url: asked.body.action.payment_action.url as string,
    amount: shown.body.offer.amount as number,
  };
}

/** What the shopper does on the bank's challenge page, at the test processor's origin: its answer. */
export async function decideChallenge(t: TestApp, url: string, result: 'complete' | 'fail'): Promise<string> {
  const processor = processorOf(t.app);
  if (!processor) throw new Error('no test processor');
  const answer = await injectJson(processor, {
    method: 'POST',
    url: new URL(url).pathname,
    headers: { origin: TEST_PROCESSOR_URL },
    payload: { result },
  });
  expect(answer.status).toBe(200);
  return answer.body.status as string;
}

/** The test processor's ledger of the order's upsell charges. */
export async function upsellChargesOf(t: TestApp, orderId: number) {
  const { rows } = await t.db.query<{ status: string; amount: number }>(
    `SELECT status, amount::int AS amount FROM test_gateway_charges
      WHERE kind = 'charge' AND idempotency_key LIKE $1 ORDER BY idempotency_key`,
    [`upsell\\_%\\_${orderId}\\_step\\_%`],
  );
  return rows;
}

/**
 * The cart's order paid with Stripe's recorded card, kept on a Customer for later charges: the order as answered, and
 * what Stripe was asked for it.
 */
export async function placeStripeOrder(t: StripeTestApp, shopper: ShopperSession, cartToken: string) {
  const ordering = t.stripe.expect(
    { method: 'GET', path: `/v1/payment_methods/${STRIPE_VISA_PM}`, answer: 'payment-method-visa' },
    { method: 'POST', path: '/v1/customers', answer: 'customer-created' },
    { method: 'POST', path: '/v1/payment_intents', answer: 'charge-succeeded-stored' },
  );
  const placed = await shopper.post(
    'orders',
    orderBody(cartToken, { payment: { method: 'card', card_token: STRIPE_VISA_PM } }),
  );
  expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  return { order: placed.body.order, orderId: placed.body.order.order_id as number, ordering };
}

/** A completed Stripe order whose link offers one upsell (priced `price`) with a downsell. */
export async function stripeOrderWithUpsell(t: StripeTestApp, price: number): Promise<UpsellFunnel> {
  const { store, shopper, cartToken } = await cartThroughUpsellLink(
    t,
    { offer_name: 'Grinder', item_name: 'Burr grinder', price },
    { offer_name: 'Scoop', item_name: 'Scoop', price: 3 },
  );
  const { orderId } = await placeStripeOrder(t, shopper, cartToken);
  return { store, shopper, orderId, path: upsellPath(cartToken, orderId) };
}

/** Stripe's read of the recorded upsell PaymentIntent, answered with the fixture named `answer`. */
export const readOfUpsellIntent = (answer: string) => ({
  method: 'GET',
  path: `/v1/payment_intents/${STRIPE_UPSELL_INTENT}`,
  answer,
});

/** The upsell shown, and its yes that Stripe asks the bank to authenticate (the recorded PaymentIntent). */
export async function stripeYesAskedToAuthenticate(t: StripeTestApp, f: UpsellFunnel): Promise<void> {
  await f.shopper.get(f.path);
  t.stripe.expect(
    { method: 'POST', path: '/v1/payment_intents', answer: 'upsell-authentication-required' },
    {
      method: 'POST',
      path: `/v1/payment_intents/${STRIPE_UPSELL_INTENT}/confirm`,
      answer: 'upsell-confirm-requires-action',
    },
  );
  const asked = await f.shopper.post(`${f.path}/accept`, { step: 1 }, { 'idempotency-key': 'yes' });
  expect(asked.body.action?.reference, JSON.stringify(asked.body)).toBe(STRIPE_UPSELL_INTENT);
}

/** A completed Stripe order offering a $19 upsell with a downsell, and its yes that Stripe asks to authenticate. */
export async function stripeOrderAwaitingUpsellAuthentication(t: StripeTestApp): Promise<UpsellFunnel> {
  const funnel = await stripeOrderWithUpsell(t, 19);
  await stripeYesAskedToAuthenticate(t, funnel);
  return funnel;
}

/** The linked orders of an order, as the database has them. */
export async function linkedOrdersOf(t: TestApp, orderId: number) {
  const { rows } = await t.db.query<{ id: number; status: string; total: number }>(
    'SELECT id, status, total FROM orders WHERE parent_order_id = $1 ORDER BY id',
    [orderId],
  );
  return rows;
}

/** A linked order's payment attempts and the processor's reference of each, as the database has them. */
export async function paymentAttemptsOf(t: TestApp, orderId: number | undefined) {
  const { rows } = await t.db.query<{ status: string; gateway_reference: string }>(
    'SELECT status, gateway_reference FROM payment_attempts WHERE order_id = $1 ORDER BY id',
    [orderId],
  );
  return rows;
}
