import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptionEmailKey } from '../../src/server/modules/emails/subscription-email-enqueue.js';
import { findJobByKey } from '../../src/server/platform/jobs/jobs-repository.js';
import { orderBody } from '../helpers/order-body.js';
import { shopperSession } from '../helpers/shopper.js';
import { createStore, type Store } from '../helpers/store.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

// The merchant's subscriptions list with its filters, and the merchant's skip (docs/api.md, "Merchant API").

const DAY = 86_400_000;
let t: TestApp;
let store: Store;
/** Ada's two (one paused, one a test), Bea's one: newest first. */
let ada: number;
let adaPaused: number;
let adaTest: number;
let bea: number;

beforeAll(async () => {
  t = await createTestApp({ config: { webhooks: { requireHttps: false, allowPrivateUrls: true } } });
  store = await createStore(t.app, t.db);
  ada = await subscribe('ada@example.com');
  adaPaused = await subscribe('Ada.Lovelace@Example.com');
  adaTest = await subscribe('ada@example.com');
  bea = await subscribe('bea_100%@example.org');
  expect((await store.api.post(`/subscriptions/${adaPaused}/pause`, {})).status).toBe(200);
  await t.db.query('UPDATE subscriptions SET is_test = true WHERE id = $1', [adaTest]);
});

afterAll(async () => {
  await t?.close();
});

async function subscribe(email: string): Promise<number> {
  const shopper = await shopperSession(t.app, store.org.publicId);
  const token = await store.cart([{ offer_id: store.offers.club.id }]);
  await shopper.get(`carts/${token}/preview`, { ship_country: 'US', ship_state: 'TX' });
  const placed = await shopper.post('orders', orderBody(token, { email, subscription_terms_accepted: true }));
  expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  return (await store.api.get(`/orders/${placed.body.order.order_id}`)).body.subscription_ids[0];
}

async function ids(query: string): Promise<number[]> {
  const listed = await store.api.get(`/subscriptions${query}`);
  expect(listed.status, JSON.stringify(listed.body)).toBe(200);
  return listed.body.data.map((s: { id: number }) => s.id);
}

describe('the subscriptions list', () => {
  it('keeps one status', async () => {
    expect(await ids('?status=paused')).toEqual([adaPaused]);
    expect(await ids('?status=active')).toEqual([bea, adaTest, ada]);
    expect(await ids('?status=cancelled')).toEqual([]);
  });

  it('keeps test or live subscriptions', async () => {
    expect(await ids('?test=true')).toEqual([adaTest]);
    expect(await ids('?test=false')).toEqual([bea, adaPaused, ada]);
  });

  it("finds part of the customer's email whatever its case, its % and _ taken literally", async () => {
    expect(await ids('?q=ADA')).toEqual([adaTest, adaPaused, ada]);
    expect(await ids('?q=lovelace%40example')).toEqual([adaPaused]);
    expect(await ids('?q=_100%25')).toEqual([bea]);
    expect(await ids('?q=a_a')).toEqual([]);
  });

  it('finds a subscription by its id when the search is all digits', async () => {
    expect(await ids(`?q=${bea}`)).toEqual([bea]);
    expect(await ids('?q=999999999')).toEqual([]);
  });

  it('combines the filters', async () => {
    expect(await ids('?q=ada&status=active&test=false')).toEqual([ada]);
    expect(await ids('?q=ada&test=true')).toEqual([adaTest]);
    expect(await ids('?status=paused&test=true')).toEqual([]);
    expect(await ids(`?q=${ada}&status=paused`)).toEqual([]);
  });

  it('goes a page at a time with a filter', async () => {
    const first = await store.api.get('/subscriptions?q=ada&limit=2');
    expect(first.body.data.map((s: { id: number }) => s.id)).toEqual([adaTest, adaPaused]);
    expect(first.body.has_more).toBe(true);
    const second = await store.api.get(`/subscriptions?q=ada&limit=2&starting_after=${adaPaused}`);
    expect(second.body.data.map((s: { id: number }) => s.id)).toEqual([ada]);
    expect(second.body.has_more).toBe(false);
  });

  it('refuses a filter value it does not take, saying which values it does', async () => {
    const status = await store.api.get('/subscriptions?status=canceled');
    expect(status.status).toBe(422);
    expect(status.body.fields.status).toBe('Use one of: active, paused, past_due, cancelled.');
    const test = await store.api.get('/subscriptions?test=yes');
    expect(test.status).toBe(422);
    expect(test.body.fields.test).toBe('Use true (test subscriptions) or false (live ones).');
    const empty = await store.api.get('/subscriptions?q=%20');
    expect(empty.status).toBe(422);
    expect(empty.body.fields.q).toBe('Enter part of an email, or a subscription id.');
    expect((await store.api.get('/subscriptions?state=active')).status).toBe(422);
  });
});

describe("the merchant's skip", () => {
  it('moves the next charge one interval later, as the merchant, with the email and webhook', async () => {
    await store.api.post('/webhook-endpoints', {
      url: 'http://127.0.0.1:9/hooks',
      events: ['subscription.updated'],
    });
    const before = (await store.api.get(`/subscriptions/${ada}`)).body;
    const skipped = await store.api.post(`/subscriptions/${ada}/skip`, {});
    expect(skipped.status, JSON.stringify(skipped.body)).toBe(200);
    expect(skipped.body).toMatchObject({ id: ada, status: 'active', changed_by: 'merchant' });
    expect(new Date(skipped.body.next_charge_at).getTime()).toBe(
      new Date(before.next_charge_at).getTime() + 30 * DAY,
    );
    const occurrence = String(t.clock.now().getTime());
    expect(await findJobByKey(t.db, subscriptionEmailKey('skipped', ada, occurrence))).not.toBeNull();
    const { rows } = await t.db.query<{ event_type: string; payload: unknown }>(
      'SELECT event_type, payload FROM webhook_deliveries WHERE organization_id = $1 ORDER BY id',
      [store.org.id],
    );
    const payloads = rows.map((row) =>
      typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload,
    ) as { data: { id: number; changed_by: string } }[];
    expect(rows.map((row) => row.event_type)).toEqual(['subscription.updated']);
    expect(payloads[0]?.data).toMatchObject({ id: ada, changed_by: 'merchant' });
  });

  it('refuses to skip a paused or a cancelled subscription, saying why', async () => {
    const paused = await store.api.post(`/subscriptions/${adaPaused}/skip`, {});
    expect(paused.status).toBe(409);
    expect(paused.body.message).toBe('This subscription is paused: resume it before skipping a charge.');
    expect((await store.api.post(`/subscriptions/${bea}/cancel`, {})).status).toBe(200);
    const before = (await store.api.get(`/subscriptions/${bea}`)).body;
    const cancelled = await store.api.post(`/subscriptions/${bea}/skip`, {});
    expect(cancelled.status).toBe(409);
    expect(cancelled.body.code).toBe('subscription_cancelled');
    expect(cancelled.body.message).toMatch(/canceled/);
    expect((await store.api.get(`/subscriptions/${bea}`)).body.next_charge_at).toBe(before.next_charge_at);
  });

  it('answers 404 for a subscription of another store', async () => {
    const other = await createStore(t.app, t.db);
    expect((await other.api.post(`/subscriptions/${ada}/skip`, {})).status).toBe(404);
  });
});
