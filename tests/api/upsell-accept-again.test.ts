import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import {
  challengeForYes,
  decideChallenge,
  orderWithAuthenticatingCard,
  upsellChargesOf,
  linkedOrdersOf,
  type UpsellFunnel,
} from '../helpers/upsell-store.js';

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

/** The linked order's payment attempts, as the merchant sees them. */
async function attemptsOf(f: UpsellFunnel, linkedId: number | undefined): Promise<string[]> {
  const linked = (await f.store.api.get(`/orders/${linkedId}`)).body;
  return linked.payment_attempts.map((attempt: { status: string }) => attempt.status);
}

describe('a yes sent again while the bank asks to authenticate the first', () => {
  it('completes the payment the shopper authenticated: charged once, one linked order, accepted', async () => {
    const f = await orderWithAuthenticatingCard(t);
    const { url, amount } = await challengeForYes(f);
    expect(await decideChallenge(t, url, 'complete')).toBe('succeeded');
    // The page reloads before its accept with the reference; the shopper presses "Yes, add it" again.
    const again = await f.shopper.post(`${f.path}/accept`, { step: 1 }, { 'idempotency-key': 'yes-reload' });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.action).toBeUndefined();
    expect(again.body).toMatchObject({ offer: null, linked_orders: [{ total: amount }] });
    expect(await upsellChargesOf(t, f.orderId)).toEqual([
      { status: 'approved', amount: Math.round(amount * 100) },
    ]);
    const linked = await linkedOrdersOf(t, f.orderId);
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
    expect(await upsellChargesOf(t, f.orderId)).toHaveLength(1);
    expect(await linkedOrdersOf(t, f.orderId)).toHaveLength(1);
  });

  it('answers the same challenge again while it is open, and charges once when it is passed', async () => {
    const f = await orderWithAuthenticatingCard(t);
    const { reference, url, amount } = await challengeForYes(f);
    const again = await f.shopper.post(`${f.path}/accept`, { step: 1 }, { 'idempotency-key': 'yes-reload' });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.action).toMatchObject({
      type: 'authenticate',
      reference,
      payment_action: { type: 'challenge', url },
    });
    expect(again.body.offer).toMatchObject({ step: 1 });
    expect(again.body.linked_orders).toEqual([]);
    expect(await upsellChargesOf(t, f.orderId)).toEqual([
      expect.objectContaining({ status: 'requires_action' }),
    ]);
    const linked = await linkedOrdersOf(t, f.orderId);
    expect(linked).toEqual([expect.objectContaining({ status: 'awaiting_payment' })]);
    expect(await attemptsOf(f, linked[0]?.id)).toEqual(['requires_action']);

    expect(await decideChallenge(t, url, 'complete')).toBe('succeeded');
    const done = await f.shopper.post(
      `${f.path}/accept`,
      { step: 1, authenticated_payment: reference },
      { 'idempotency-key': 'yes-authenticated' },
    );
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.linked_orders).toEqual([expect.objectContaining({ total: amount })]);
    expect(await upsellChargesOf(t, f.orderId)).toEqual([
      { status: 'approved', amount: Math.round(amount * 100) },
    ]);
    expect(await linkedOrdersOf(t, f.orderId)).toEqual([expect.objectContaining({ status: 'complete' })]);
  });

  it('makes a new attempt when the first challenge failed: charged once', async () => {
    const f = await orderWithAuthenticatingCard(t);
    const first = await challengeForYes(f);
    expect(await decideChallenge(t, first.url, 'fail')).toBe('failed');
    const again = await f.shopper.post(`${f.path}/accept`, { step: 1 }, { 'idempotency-key': 'yes-reload' });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    // The card's bank asks again for the new attempt: a new payment, with its own challenge.
    const reference = again.body.action?.reference as string;
    expect(reference).toBeTruthy();
    expect(reference).not.toBe(first.reference);
    const linked = await linkedOrdersOf(t, f.orderId);
    expect(linked).toHaveLength(1);
    expect(await attemptsOf(f, linked[0]?.id)).toEqual(['requires_action', 'declined', 'requires_action']);
    const { rows: keys } = await t.db.query<{ idempotency_key: string }>(
      "SELECT idempotency_key FROM test_gateway_charges WHERE kind = 'charge' AND reference = $1",
      [reference],
    );
    expect(keys[0]?.idempotency_key).toMatch(/_step_1_attempt_3$/);

    expect(await decideChallenge(t, again.body.action.payment_action.url as string, 'complete')).toBe(
      'succeeded',
    );
    const done = await f.shopper.post(
      `${f.path}/accept`,
      { step: 1, authenticated_payment: reference },
      { 'idempotency-key': 'yes-authenticated' },
    );
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(await upsellChargesOf(t, f.orderId)).toEqual([
      { status: 'declined', amount: Math.round(first.amount * 100) },
      { status: 'approved', amount: Math.round(first.amount * 100) },
    ]);
    expect(await linkedOrdersOf(t, f.orderId)).toEqual([expect.objectContaining({ status: 'complete' })]);
  });
});
