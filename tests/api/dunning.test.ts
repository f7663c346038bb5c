import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPaymentGateways,
  type PaymentGateways,
} from '../../src/server/platform/payments/select-gateway.js';
import {
  DECLINING_TOKEN_PREFIX,
  LOST_CARD_TOKEN_PREFIX,
} from '../../src/server/platform/payments/test-gateway.js';
import { runRebills } from '../../src/server/modules/subscriptions/rebill-service.js';
import { orderBody } from '../helpers/order-body.js';
import { shopperSession } from '../helpers/shopper.js';
import { createStore, type Store } from '../helpers/store.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

// The organization's dunning (docs/operations.md, "Dunning"): its retry days, and where a subscription ends up.
const DAY = 86_400_000;
let t: TestApp;
let gateways: PaymentGateways;

beforeAll(async () => {
  t = await createTestApp({ config: { webhooks: { requireHttps: false, allowPrivateUrls: true } } });
  gateways = createPaymentGateways(t.config, { db: t.db, clock: t.clock });
});

afterAll(async () => {
  await t.close();
});

const rebill = () => runRebills({ db: t.db, gateways, clock: t.clock });

/** A store whose merchant listens to every subscription event (kept as deliveries; nobody drains them here). */
async function listeningStore(): Promise<Store> {
  const store = await createStore(t.app, t.db);
  const endpoint = await store.api.post('/webhook-endpoints', {
    url: 'http://127.0.0.1:9/hooks',
    events: [
      'subscription.payment_failed',
      'subscription.past_due',
      'subscription.cancelled',
      'subscription.paused',
    ],
  });
  expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
  return store;
}

async function subscribe(store: Store): Promise<number> {
  const shopper = await shopperSession(t.app, store.org.publicId);
  const token = await store.cart([{ offer_id: store.offers.club.id }]);
  await shopper.get(`carts/${token}/preview`, { ship_country: 'US', ship_state: 'TX' });
  const placed = await shopper.post('orders', orderBody(token, { subscription_terms_accepted: true }));
  expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  return (await store.api.get(`/orders/${placed.body.order.order_id}`)).body.subscription_ids[0];
}

async function read(store: Store, id: number) {
  return (await store.api.get(`/subscriptions/${id}`)).body;
}

async function chargeTokenFromNowOn(subscriptionId: number, prefix: string) {
  await t.db.query(
    `UPDATE payment_methods SET gateway_token = $2
      WHERE id = (SELECT payment_method_id FROM subscriptions WHERE id = $1)`,
    [subscriptionId, `${prefix}${subscriptionId}`],
  );
}

/** Moves the clock to the subscription's next charge (one shared app: clocks move forward only). */
async function advanceTo(store: Store, id: number) {
  const due = new Date((await read(store, id)).next_charge_at).getTime();
  if (due > t.clock.now().getTime()) t.clock.set(new Date(due));
}

async function eventsOf(id: number): Promise<string[]> {
  const { rows } = await t.db.query<{ event_type: string }>(
    // event_key is type:subscription:occurrence
    `SELECT event_type FROM webhook_deliveries WHERE split_part(event_key, ':', 2) = $1 ORDER BY id`,
    [String(id)],
  );
  return rows.map((row) => row.event_type);
}

describe('the dunning setting', () => {
  it('defaults to 1, 3 and 7 days then past due, and is read back as set', async () => {
    const store = await createStore(t.app, t.db);
    expect((await store.api.get('/organization')).body.dunning).toEqual({
      retry_days: [1, 3, 7],
      after_last_retry: 'past_due',
    });
    const changed = await store.api.patch('/organization', {
      dunning: { retry_days: [2, 10, 30, 60], after_last_retry: 'cancel' },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.dunning).toEqual({ retry_days: [2, 10, 30, 60], after_last_retry: 'cancel' });
    expect((await store.api.get('/organization')).body).toEqual(changed.body);
    // Another change of the organization keeps it.
    await store.api.patch('/organization', { name: 'Renamed' });
    expect((await store.api.get('/organization')).body.dunning.after_last_retry).toBe('cancel');
    const none = await store.api.patch('/organization', {
      dunning: { retry_days: [], after_last_retry: 'pause' },
    });
    expect(none.body.dunning).toEqual({ retry_days: [], after_last_retry: 'pause' });
  });

  it('refuses more than 8 retries, days outside 1 to 60, and an unknown ending, saying which', async () => {
    const store = await createStore(t.app, t.db);
    const refused = async (dunning: unknown) => {
      const response = await store.api.patch('/organization', { dunning });
      expect(response.status).toBe(422);
      return response.body.fields;
    };
    expect(await refused({ retry_days: [1, 1, 1, 1, 1, 1, 1, 1, 1], after_last_retry: 'past_due' })).toEqual({
      'dunning.retry_days': 'Retry at most 8 times.',
    });
    expect(await refused({ retry_days: [1, 0], after_last_retry: 'past_due' })).toEqual({
      'dunning.retry_days.1': 'Each retry waits 1 to 60 days.',
    });
    expect(await refused({ retry_days: [61], after_last_retry: 'past_due' })).toEqual({
      'dunning.retry_days.0': 'Each retry waits 1 to 60 days.',
    });
    expect(await refused({ retry_days: [1.5], after_last_retry: 'past_due' })).toEqual({
      'dunning.retry_days.0': 'Each retry is a whole number of days.',
    });
    expect(await refused({ retry_days: [1], after_last_retry: 'delete' })).toEqual({
      'dunning.after_last_retry': 'Use past_due, cancel or pause.',
    });
    expect(Object.keys(await refused({ retry_days: [1] }))).toEqual(['dunning.after_last_retry']);
    expect((await store.api.get('/organization')).body.dunning.retry_days).toEqual([1, 3, 7]);
  });
});

describe('rebilling with the organization dunning', () => {
  it('follows a custom schedule to the day, then cancels', async () => {
    const store = await listeningStore();
    await store.api.patch('/organization', { dunning: { retry_days: [2, 5], after_last_retry: 'cancel' } });
    const id = await subscribe(store);
    await chargeTokenFromNowOn(id, DECLINING_TOKEN_PREFIX);
    for (const [retry, days] of [
      [1, 2],
      [2, 5],
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
    expect(final).toMatchObject({ status: 'cancelled', retry_count: 3 });
    expect(final.charges).toHaveLength(3);
    expect(await eventsOf(id)).toEqual([
      'subscription.payment_failed',
      'subscription.payment_failed',
      'subscription.payment_failed',
      'subscription.cancelled',
    ]);
    t.clock.advance(90 * DAY);
    await rebill();
    expect((await read(store, id)).charges).toHaveLength(3);
  });

  it('pauses after the last retry when set to, and a resume charges again', async () => {
    const store = await listeningStore();
    await store.api.patch('/organization', { dunning: { retry_days: [1], after_last_retry: 'pause' } });
    const id = await subscribe(store);
    await chargeTokenFromNowOn(id, DECLINING_TOKEN_PREFIX);
    await advanceTo(store, id);
    await rebill();
    expect(await read(store, id)).toMatchObject({ status: 'active', retry_count: 1 });
    await advanceTo(store, id);
    await rebill();
    const paused = await read(store, id);
    expect(paused).toMatchObject({ status: 'paused', retry_count: 2 });
    expect(paused.paused_at).not.toBeNull();
    expect(await eventsOf(id)).toEqual([
      'subscription.payment_failed',
      'subscription.payment_failed',
      'subscription.paused',
    ]);
    const resumed = (await store.api.post(`/subscriptions/${id}/resume`, {})).body;
    expect(resumed).toMatchObject({ status: 'active', retry_count: 0 });
  });

  it('stops at once on a hard decline (a lost card) and ends as configured', async () => {
    for (const [after, status, event] of [
      ['past_due', 'past_due', 'subscription.past_due'],
      ['cancel', 'cancelled', 'subscription.cancelled'],
      ['pause', 'paused', 'subscription.paused'],
    ] as const) {
      const store = await listeningStore();
      await store.api.patch('/organization', { dunning: { retry_days: [1, 3, 7], after_last_retry: after } });
      const id = await subscribe(store);
      await chargeTokenFromNowOn(id, LOST_CARD_TOKEN_PREFIX);
      await advanceTo(store, id);
      await rebill();
      const state = await read(store, id);
      expect(state, after).toMatchObject({ status, retry_count: 1 });
      expect(state.charges).toEqual([expect.objectContaining({ attempt: 1, status: 'declined' })]);
      expect(await eventsOf(id)).toEqual(['subscription.payment_failed', event]);
    }
  });

  it('keeps retrying a soft decline under the default schedule, then marks it past due', async () => {
    const store = await listeningStore();
    const id = await subscribe(store);
    await chargeTokenFromNowOn(id, DECLINING_TOKEN_PREFIX);
    for (let attempt = 0; attempt < 4; attempt++) {
      await advanceTo(store, id);
      await rebill();
    }
    expect(await read(store, id)).toMatchObject({ status: 'past_due', retry_count: 4 });
    expect((await eventsOf(id)).at(-1)).toBe('subscription.past_due');
  });
});
