import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPaymentGateways,
  type PaymentGateways,
} from '../../src/server/platform/payments/select-gateway.js';
import { DECLINING_TOKEN_PREFIX } from '../../src/server/platform/payments/test-gateway.js';
import { runRebills } from '../../src/server/modules/subscriptions/rebill-service.js';
import { orderBody } from '../helpers/order-body.js';
import { shopperSession } from '../helpers/shopper.js';
import { createStore, type Store } from '../helpers/store.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const DAY = 86_400_000;
let t: TestApp;
let gateways: PaymentGateways;

beforeAll(async () => {
  t = await createTestApp();
  gateways = createPaymentGateways(t.config, { db: t.db, clock: t.clock });
});

afterAll(async () => {
  await t.close();
});

const rebill = () => runRebills({ db: t.db, gateways, clock: t.clock });

/** A customer subscribes to the club (US, Texas: 25.00 later cycles + 8.25% tax = 27.06). */
async function subscribe(store: Store): Promise<number> {
  const shopper = await shopperSession(t.app, store.org.publicId);
  const token = await store.cart([{ offer_id: store.offers.club.id }]);
  await shopper.get(`carts/${token}/preview`, { ship_country: 'US', ship_state: 'TX' });
  const placed = await shopper.post('orders', orderBody(token, { subscription_terms_accepted: true }));
  expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  const detail = (await store.api.get(`/orders/${placed.body.order.order_id}`)).body;
  return detail.subscription_ids[0];
}

async function read(store: Store, id: number) {
  return (await store.api.get(`/subscriptions/${id}`)).body;
}

async function declineFromNowOn(subscriptionId: number) {
  await t.db.query(
    `UPDATE payment_methods SET gateway_token = $2
      WHERE id = (SELECT payment_method_id FROM subscriptions WHERE id = $1)`,
    [subscriptionId, `${DECLINING_TOKEN_PREFIX}${subscriptionId}`],
  );
}

/** Moves the clock to the subscription's next charge (tests run in one shared app: clocks move forward only). */
async function advanceTo(store: Store, id: number) {
  const due = new Date((await read(store, id)).next_charge_at).getTime();
  if (due > t.clock.now().getTime()) t.clock.set(new Date(due));
}

describe('rebilling', () => {
  it('charges a due subscription once per cycle at its later-cycle price', async () => {
    const store = await createStore(t.app, t.db);
    const id = await subscribe(store);
    const before = await read(store, id);
    expect(await rebill()).toMatchObject({ approved: 0 });

    await advanceTo(store, id);
    const summary = await rebill();
    expect(summary.approved).toBeGreaterThanOrEqual(1);
    const after = await read(store, id);
    expect(after).toMatchObject({ status: 'active', cycle: 2, retry_count: 0 });
    expect(new Date(after.next_charge_at).getTime()).toBe(
      new Date(before.next_charge_at).getTime() + 30 * DAY,
    );
    expect(after.charges).toEqual([
      expect.objectContaining({ cycle: 2, attempt: 1, amount: 27.06, status: 'approved', message: null }),
    ]);
    // Running again the same day charges nothing more.
    await rebill();
    expect((await read(store, id)).charges).toHaveLength(1);
  });

  it('retries a decline after 1, 3 and 7 days, then marks the subscription past due', async () => {
    const store = await createStore(t.app, t.db);
    const id = await subscribe(store);
    await declineFromNowOn(id);
    for (const [retry, days] of [
      [1, 1],
      [2, 3],
      [3, 7],
    ] as const) {
      await advanceTo(store, id);
      const dueAt = t.clock.now().getTime();
      await rebill();
      const state = await read(store, id);
      expect(state).toMatchObject({ status: 'active', retry_count: retry, cycle: 1 });
      expect(new Date(state.next_charge_at).getTime()).toBe(dueAt + days * DAY);
    }
    await advanceTo(store, id);
    await rebill();
    const final = await read(store, id);
    expect(final).toMatchObject({ status: 'past_due', retry_count: 4 });
    expect(final.charges.map((c: { attempt: number; status: string }) => [c.attempt, c.status])).toEqual([
      [1, 'declined'],
      [2, 'declined'],
      [3, 'declined'],
      [4, 'declined'],
    ]);
    expect(final.charges[0].message).toBe('Your card was declined. Try another card or PayPal.');
    t.clock.advance(30 * DAY);
    await rebill();
    expect((await read(store, id)).charges).toHaveLength(4);

    // The merchant resumes it (say, after the customer updated their card): it is charged at the next run.
    const resumed = (await store.api.post(`/subscriptions/${id}/resume`, {})).body;
    expect(resumed).toMatchObject({ status: 'active', retry_count: 0 });
  });

  it('is charged again after a gateway outage, without counting it as a decline', async () => {
    const store = await createStore(t.app, t.db);
    const id = await subscribe(store);
    await advanceTo(store, id);
    // The one test gateway serves both roles by default: take it down in both.
    const down = { ...gateways.card, charge: () => Promise.reject(new Error('connect ECONNREFUSED')) };
    const unreachable: PaymentGateways = { card: down, express: down };
    await runRebills({ db: t.db, gateways: unreachable, clock: t.clock });
    const afterOutage = await read(store, id);
    expect(afterOutage).toMatchObject({ status: 'active', retry_count: 0, cycle: 1 });
    expect(afterOutage.charges).toEqual([expect.objectContaining({ status: 'error', attempt: 1 })]);
    t.clock.advance(60 * 60 * 1000);
    await rebill();
    expect(await read(store, id)).toMatchObject({ cycle: 2 });
  });

  it('does not charge paused or cancelled subscriptions', async () => {
    const store = await createStore(t.app, t.db);
    const paused = await subscribe(store);
    const cancelled = await subscribe(store);
    expect((await store.api.post(`/subscriptions/${paused}/pause`, {})).body.status).toBe('paused');
    expect((await store.api.post(`/subscriptions/${cancelled}/cancel`, {})).body).toMatchObject({
      status: 'cancelled',
      cancelled_at: t.clock.now().toISOString(),
    });
    await advanceTo(store, paused);
    t.clock.advance(DAY);
    await rebill();
    expect((await read(store, paused)).charges).toEqual([]);
    expect((await read(store, cancelled)).charges).toEqual([]);

    const resumed = (await store.api.post(`/subscriptions/${paused}/resume`, {})).body;
    expect(resumed.status).toBe('active');
    await rebill();
    expect((await read(store, paused)).cycle).toBe(2);

    for (const action of ['resume', 'pause', 'cancel']) {
      const refused = await store.api.post(`/subscriptions/${cancelled}/${action}`, {});
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('subscription_cancelled');
    }
    const other = await createStore(t.app, t.db);
    expect((await other.api.post(`/subscriptions/${paused}/pause`, {})).status).toBe(404);
  });

  it('charges each due subscription once with two runners at the same time', async () => {
    const store = await createStore(t.app, t.db);
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push(await subscribe(store));
    await advanceTo(store, ids[ids.length - 1] as number);
    const [first, second] = await Promise.all([
      runRebills({ db: t.db, gateways, clock: t.clock, batchSize: 2 }),
      runRebills({ db: t.db, gateways, clock: t.clock, batchSize: 2 }),
    ]);
    expect(first.approved + second.approved).toBeGreaterThanOrEqual(6);
    for (const id of ids) {
      const state = await read(store, id);
      expect(state.cycle).toBe(2);
      expect(state.charges).toHaveLength(1);
    }
    const { rows } = await t.db.query<{ n: number }>(
      `SELECT count(*)::bigint AS n FROM test_gateway_charges WHERE organization_id = $1 AND idempotency_key LIKE 'sub\\_%'`,
      [store.org.id],
    );
    expect(rows[0]?.n).toBe(6);
  });

  it('records, without charging again, a renewal a crashed runner had already charged', async () => {
    const store = await createStore(t.app, t.db);
    const id = await subscribe(store);
    await advanceTo(store, id);
    const { rows } = await t.db.query<{ gateway_token: string }>(
      'SELECT pm.gateway_token FROM payment_methods pm JOIN subscriptions s ON s.payment_method_id = pm.id WHERE s.id = $1',
      [id],
    );
    // The runner charged cycle 2 attempt 1 and died before recording it.
    await gateways.card.charge({
      amount: 2706,
      currency: 'USD',
      source: { kind: 'stored', token: rows[0]?.gateway_token ?? '', customerReference: null },
      storeForFuture: true,
      idempotencyKey: `sub_${store.org.id}_${id}_cycle_2_attempt_1`,
      description: 'renewal',
      organizationId: store.org.id,
    });
    await rebill();
    const state = await read(store, id);
    expect(state).toMatchObject({ cycle: 2 });
    expect(state.charges).toHaveLength(1);
    const ledger = await t.db.query<{ n: number }>(
      `SELECT count(*)::bigint AS n FROM test_gateway_charges WHERE idempotency_key = $1`,
      [`sub_${store.org.id}_${id}_cycle_2_attempt_1`],
    );
    expect(ledger.rows[0]?.n).toBe(1);
  });
});
