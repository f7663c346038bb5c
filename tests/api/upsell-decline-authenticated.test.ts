import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import {
  challengeForYes,
  decideChallenge,
  orderWithAuthenticatingCard,
  upsellChargesOf,
} from '../helpers/upsell-store.js';

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

describe('a no after the bank asked to authenticate a yes', () => {
  it('keeps the yes the shopper authenticated (its accept lost): charged once, accepted, 409 upsell_accepted', async () => {
    const f = await orderWithAuthenticatingCard(t);
    const { reference, url, amount } = await challengeForYes(f);
    expect(await decideChallenge(t, url, 'complete')).toBe('succeeded');
    // The accept with the authenticated payment never arrives; the shopper presses "No, thanks".

    const no = await f.shopper.post(`${f.path}/decline`, { step: 1 }, { 'idempotency-key': 'no' });
    expect(no.status, JSON.stringify(no.body)).toBe(409);
    expect(no.body.code).toBe('upsell_accepted');
    expect(no.body.message).toContain('charged once');
    expect(await upsellChargesOf(t, f.orderId)).toEqual([
      { status: 'approved', amount: Math.round(amount * 100) },
    ]);

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
    expect(await upsellChargesOf(t, f.orderId)).toHaveLength(1);
    const { rows } = await t.db.query('SELECT id FROM orders WHERE parent_order_id = $1', [f.orderId]);
    expect(rows).toHaveLength(1);
  });

  it('cancels a challenge left undone: nothing charged, the step declined, and a late confirmation charges nothing', async () => {
    const f = await orderWithAuthenticatingCard(t);
    const { reference, url } = await challengeForYes(f);

    const no = await f.shopper.post(`${f.path}/decline`, { step: 1 }, { 'idempotency-key': 'no' });
    expect(no.status, JSON.stringify(no.body)).toBe(200);
    expect(no.body.offer).toMatchObject({ step: 2, is_downsell: true });
    expect(no.body.linked_orders).toEqual([]);
    expect(await upsellChargesOf(t, f.orderId)).toEqual([expect.objectContaining({ status: 'declined' })]);
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
    expect(await decideChallenge(t, url, 'complete')).toBe('failed');
    const late = await f.shopper.post(
      `${f.path}/accept`,
      { step: 1, authenticated_payment: reference },
      { 'idempotency-key': 'yes-authenticated' },
    );
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('upsell_declined');
    expect(await upsellChargesOf(t, f.orderId)).toEqual([expect.objectContaining({ status: 'declined' })]);
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
