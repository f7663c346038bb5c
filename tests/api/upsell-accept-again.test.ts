import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTHENTICATING_TOKEN_PREFIX } from '../../src/server/platform/payments/test-gateway.js';
import { orderBody } from '../helpers/order-body.js';
import { shopperSession, type ShopperSession } from '../helpers/shopper.js';
import { createStore, type Store } from '../helpers/store.js';
import {
  createTestApp,
  injectJson,
  processorOf,
  TEST_PROCESSOR_URL,
  type TestApp,
} from '../helpers/test-app.js';

// A yes sent again without `authenticated_payment` while the bank's challenge for the first one is open (docs/api.md,
// "Upsells"), with the built-in test processor: the page reloaded and lost the challenge. The accept asks the
// processor about the waiting payment first: passed, charged once; still open, the same challenge; failed, a new
// attempt.

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

interface Funnel {
  store: Store;
  shopper: ShopperSession;
  orderId: number;
  path: string;
}

/** An order through a link offering a grinder (downsell: a scale), paid with a card whose bank asks for 3-D Secure. */
async function orderWithAuthenticatingCard(): Promise<Funnel> {
  const store = await createStore(t.app, t.db);
  const upsell = await store.create('/offers', {
    offer_name: 'Grinder',
    item_name: 'Burr grinder',
    price: 40,
  });
  const downsell = await store.create('/offers', {
    offer_name: 'Scale',
    item_name: 'Coffee scale',
    price: 12.5,
  });
  const link = await store.create('/checkout-links', {
    offers: [{ offer_id: store.offers.beans.id }],
    upsells: [{ offer_id: upsell.id, downsell_offer_id: downsell.id }],
  });
  const shopper = await shopperSession(t.app, store.org.publicId);
  const cartToken = (await shopper.get(`carts/${link.cart_token}`)).body.cart_token as string;
  await shopper.get(`carts/${cartToken}/preview`, { ship_country: 'US', ship_state: 'TX' });
  const placed = await shopper.post('orders', orderBody(cartToken), { 'idempotency-key': `o-${cartToken}` });
  expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  const orderId = placed.body.order.order_id as number;
  await t.db.query(
    `UPDATE payment_methods SET gateway_token = $2
      WHERE id = (SELECT payment_method_id FROM orders WHERE id = $1)`,
    [orderId, `${AUTHENTICATING_TOKEN_PREFIX}${orderId}`],
  );
  return { store, shopper, orderId, path: `carts/${cartToken}/orders/${orderId}/upsell` };
}

/** The yes: the bank's challenge, as the page gets it. */
async function acceptAsked(f: Funnel): Promise<{ reference: string; url: string; amount: number }> {
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

/** What the shopper does on the bank's challenge page, at the processor's origin: its answer. */
async function decideChallenge(url: string, result: 'complete' | 'fail'): Promise<string> {
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
async function chargesOf(orderId: number) {
  const { rows } = await t.db.query<{ status: string; amount: number }>(
    `SELECT status, amount::int AS amount FROM test_gateway_charges
      WHERE kind = 'charge' AND idempotency_key LIKE $1 ORDER BY idempotency_key`,
    [`upsell\\_%\\_${orderId}\\_step\\_%`],
  );
  return rows;
}

/** The order's linked orders, as stored. */
async function linkedOrders(orderId: number) {
  const { rows } = await t.db.query<{ id: number; status: string }>(
    'SELECT id, status FROM orders WHERE parent_order_id = $1 ORDER BY id',
    [orderId],
  );
  return rows;
}

/** The linked order's payment attempts, as the merchant sees them. */
async function attemptsOf(f: Funnel, linkedId: number | undefined): Promise<string[]> {
  const linked = (await f.store.api.get(`/orders/${linkedId}`)).body;
  return linked.payment_attempts.map((attempt: { status: string }) => attempt.status);
}

describe('a yes sent again while the bank asks to authenticate the first', () => {
  it('completes the payment the shopper authenticated: charged once, one linked order, accepted', async () => {
    const f = await orderWithAuthenticatingCard();
    const { url, amount } = await acceptAsked(f);
    expect(await decideChallenge(url, 'complete')).toBe('succeeded');
    // The page reloads before its accept with the reference; the shopper presses "Yes, add it" again.
    const again = await f.shopper.post(`${f.path}/accept`, { step: 1 }, { 'idempotency-key': 'yes-reload' });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.action).toBeUndefined();
    expect(again.body).toMatchObject({ offer: null, linked_orders: [{ total: amount }] });
    expect(await chargesOf(f.orderId)).toEqual([{ status: 'approved', amount: Math.round(amount * 100) }]);
    const linked = await linkedOrders(f.orderId);
    expect(linked).toEqual([expect.objectContaining({ status: 'complete' })]);
    expect(await attemptsOf(f, linked[0]?.id)).toEqual(['requires_action', 'approved']);
    expect((await f.store.api.get(`/orders/${f.orderId}`)).body.upsell_steps).toEqual([
      expect.objectContaining({ step: 1, status: 'accepted' }),
    ]);

    // Once more, with its key or a new one: the same answer, nothing charged again.
    const repeat = await f.shopper.post(`${f.path}/accept`, { step: 1 }, { 'idempotency-key': 'yes-reload' });
    expect(repeat).toMatchObject({ status: 200, body: again.body });
    const other = await f.shopper.post(`${f.path}/accept`, { step: 1 }, { 'idempotency-key': 'yes-3' });
    expect(other.status).toBe(200);
    expect(await chargesOf(f.orderId)).toHaveLength(1);
    expect(await linkedOrders(f.orderId)).toHaveLength(1);
  });

  it('answers the same challenge again while it is open, and charges once when it is passed', async () => {
    const f = await orderWithAuthenticatingCard();
    const { reference, url, amount } = await acceptAsked(f);
    const again = await f.shopper.post(`${f.path}/accept`, { step: 1 }, { 'idempotency-key': 'yes-reload' });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.action).toMatchObject({
      type: 'authenticate',
      reference,
      payment_action: { type: 'challenge', url },
    });
    expect(again.body.offer).toMatchObject({ step: 1 });
    expect(again.body.linked_orders).toEqual([]);
    expect(await chargesOf(f.orderId)).toEqual([expect.objectContaining({ status: 'requires_action' })]);
    const linked = await linkedOrders(f.orderId);
    expect(linked).toEqual([expect.objectContaining({ status: 'awaiting_payment' })]);
    expect(await attemptsOf(f, linked[0]?.id)).toEqual(['requires_action']);

    expect(await decideChallenge(url, 'complete')).toBe('succeeded');
    const done = await f.shopper.post(
      `${f.path}/accept`,
      { step: 1, authenticated_payment: reference },
      { 'idempotency-key': 'yes-authenticated' },
    );
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.linked_orders).toEqual([expect.objectContaining({ total: amount })]);
    expect(await chargesOf(f.orderId)).toEqual([{ status: 'approved', amount: Math.round(amount * 100) }]);
    expect(await linkedOrders(f.orderId)).toEqual([expect.objectContaining({ status: 'complete' })]);
  });

  it('makes a new attempt when the first challenge failed: charged once', async () => {
    const f = await orderWithAuthenticatingCard();
    const first = await acceptAsked(f);
    expect(await decideChallenge(first.url, 'fail')).toBe('failed');
    const again = await f.shopper.post(`${f.path}/accept`, { step: 1 }, { 'idempotency-key': 'yes-reload' });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    // The card's bank asks again for the new attempt: a new payment, with its own challenge.
    const reference = again.body.action?.reference as string;
    expect(reference).toBeTruthy();
    expect(reference).not.toBe(first.reference);
    const linked = await linkedOrders(f.orderId);
    expect(linked).toHaveLength(1);
    expect(await attemptsOf(f, linked[0]?.id)).toEqual(['requires_action', 'declined', 'requires_action']);
    const { rows: keys } = await t.db.query<{ idempotency_key: string }>(
      "SELECT idempotency_key FROM test_gateway_charges WHERE kind = 'charge' AND reference = $1",
      [reference],
    );
    expect(keys[0]?.idempotency_key).toMatch(/_step_1_attempt_3$/);

    expect(await decideChallenge(again.body.action.payment_action.url as string, 'complete')).toBe(
      'succeeded',
    );
    const done = await f.shopper.post(
      `${f.path}/accept`,
      { step: 1, authenticated_payment: reference },
      { 'idempotency-key': 'yes-authenticated' },
    );
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(await chargesOf(f.orderId)).toEqual([
      { status: 'declined', amount: Math.round(first.amount * 100) },
      { status: 'approved', amount: Math.round(first.amount * 100) },
    ]);
    expect(await linkedOrders(f.orderId)).toEqual([expect.objectContaining({ status: 'complete' })]);
  });
});
