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

// A no to an upsell whose yes the bank asked to authenticate (docs/api.md, "Upsells"), with the built-in test
// processor: the shopper passed the challenge and the accept that followed was lost, or left the challenge undone.
// The no asks the processor first: charged once and accepted, or cancelled there and declined.

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

describe('a no after the bank asked to authenticate a yes', () => {
  it('keeps the yes the shopper authenticated (its accept lost): charged once, accepted, 409 upsell_accepted', async () => {
    const f = await orderWithAuthenticatingCard();
    const { reference, url, amount } = await acceptAsked(f);
    expect(await decideChallenge(url, 'complete')).toBe('succeeded');
    // The accept with the authenticated payment never arrives; the shopper presses "No, thanks".

    const no = await f.shopper.post(`${f.path}/decline`, { step: 1 }, { 'idempotency-key': 'no' });
    expect(no.status, JSON.stringify(no.body)).toBe(409);
    expect(no.body.code).toBe('upsell_accepted');
    expect(no.body.message).toContain('charged once');
    expect(await chargesOf(f.orderId)).toEqual([{ status: 'approved', amount: Math.round(amount * 100) }]);

    const first = (await f.store.api.get(`/orders/${f.orderId}`)).body;
    expect(first.linked_orders).toEqual([expect.objectContaining({ status: 'complete', total: amount })]);
    expect(first.upsell_steps).toEqual([expect.objectContaining({ step: 1, status: 'accepted' })]);
    const linkedId = first.linked_orders[0].order_id as number;
    const linked = (await f.store.api.get(`/orders/${linkedId}`)).body;
    expect(linked.payment_attempts.map((attempt: { status: string }) => attempt.status)).toEqual([
      'requires_action',
      'approved',
    ]);

    // The no again (its key, or a new one), and the lost accept arriving late: charged once, one linked order.
    const again = await f.shopper.post(`${f.path}/decline`, { step: 1 }, { 'idempotency-key': 'no' });
    expect(again).toMatchObject({ status: 409, body: no.body });
    const other = await f.shopper.post(`${f.path}/decline`, { step: 1 }, { 'idempotency-key': 'no-2' });
    expect(other.body.code).toBe('upsell_accepted');
    const late = await f.shopper.post(
      `${f.path}/accept`,
      { step: 1, authenticated_payment: reference },
      { 'idempotency-key': 'yes-authenticated' },
    );
    expect(late.status, JSON.stringify(late.body)).toBe(200);
    expect(late.body).toMatchObject({ offer: null, linked_orders: [{ order_id: linkedId, total: amount }] });
    expect(await chargesOf(f.orderId)).toHaveLength(1);
    const { rows } = await t.db.query('SELECT id FROM orders WHERE parent_order_id = $1', [f.orderId]);
    expect(rows).toHaveLength(1);
  });

  it('cancels a challenge left undone: nothing charged, the step declined, and a late confirmation charges nothing', async () => {
    const f = await orderWithAuthenticatingCard();
    const { reference, url } = await acceptAsked(f);

    const no = await f.shopper.post(`${f.path}/decline`, { step: 1 }, { 'idempotency-key': 'no' });
    expect(no.status, JSON.stringify(no.body)).toBe(200);
    expect(no.body.offer).toMatchObject({ step: 2, is_downsell: true });
    expect(no.body.linked_orders).toEqual([]);
    expect(await chargesOf(f.orderId)).toEqual([expect.objectContaining({ status: 'declined' })]);
    const first = (await f.store.api.get(`/orders/${f.orderId}`)).body;
    expect(first.upsell_steps).toEqual([
      expect.objectContaining({ step: 1, status: 'declined' }),
      expect.objectContaining({ step: 2, status: 'offered', is_downsell: true }),
    ]);
    expect(first.linked_orders).toEqual([expect.objectContaining({ status: 'declined' })]);
    const { rows: linked } = await t.db.query<{ status: string }>(
      'SELECT status FROM orders WHERE parent_order_id = $1',
      [f.orderId],
    );
    expect(linked).toEqual([{ status: 'declined' }]);

    // The shopper finishes the challenge afterwards: the bank's answer is that it was cancelled, and the accept that
    // follows is refused; nothing is charged.
    expect(await decideChallenge(url, 'complete')).toBe('failed');
    const late = await f.shopper.post(
      `${f.path}/accept`,
      { step: 1, authenticated_payment: reference },
      { 'idempotency-key': 'yes-authenticated' },
    );
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('upsell_declined');
    expect(await chargesOf(f.orderId)).toEqual([expect.objectContaining({ status: 'declined' })]);
    const after = await t.db.query<{ status: string }>(
      'SELECT status FROM orders WHERE parent_order_id = $1',
      [f.orderId],
    );
    expect(after.rows).toEqual([{ status: 'declined' }]);
    expect((await f.shopper.get(f.path)).body).toMatchObject({
      offer: { step: 2, is_downsell: true },
      linked_orders: [],
    });
  });
});
