// The dashboard's Orders screens on the merchant API (docs/api.md, "Orders: search and filters", and
// GET /webhook-deliveries?order_id=): the list's search and filters, and the deliveries about one order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderListSchema } from '../../src/contract/merchant.js';
import { StaffSessionSchema } from '../../src/contract/staff.js';
import { OrderWebhookDeliveryListSchema } from '../../src/contract/webhooks.js';
import { createJobHandlers } from '../../src/server/job-handlers.js';
import { inviteStaff, issueStaffLink } from '../../src/server/modules/staff/staff-service.js';
import { createJobWorker } from '../../src/server/platform/jobs/job-worker.js';
import { createLogger } from '../../src/server/platform/logging.js';
import { CARDS, card, LONDON_BILLING, orderBody } from '../helpers/order-body.js';
import { shopperSession } from '../helpers/shopper.js';
import { createStore, type Store } from '../helpers/store.js';
import {
  createTestApp,
  injectJson,
  merchantClient,
  subscriberLinksOf,
  type TestApp,
} from '../helpers/test-app.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ config: { webhooks: { requireHttps: false, allowPrivateUrls: true } } });
});

afterAll(async () => {
  await t?.close();
});

let keyCounter = 0;
const key = () => `dashboard-orders-${process.pid}-${++keyCounter}`;

/** Places an order in `store` as a new shopper: answers the order id (declined orders too). */
async function placeOrder(
  store: Store,
  details: Record<string, unknown>,
  options: { testMode?: boolean; cardNumber?: string } = {},
): Promise<number> {
  const shopper = await shopperSession(t.app, store.org.publicId, { testMode: options.testMode ?? false });
  const token = await store.cart([{ offer_id: store.offers.beans.id }]);
  const placed = await shopper.post(
    'orders',
    orderBody(token, { payment: card(options.cardNumber ?? CARDS.visa), ...details }),
    { 'idempotency-key': key() },
  );
  expect([200, 402], JSON.stringify(placed.body)).toContain(placed.status);
  const cart = await shopper.get(`carts/${token}`);
  return cart.body.order.order_id as number;
}

/** A store with four orders over three days: Ada (Nov 1), Grace (Nov 2, declined), Alan (Nov 3, test), Ada again. */
async function storeWithOrders() {
  const store = await createStore(t.app, t.db);
  t.clock.set(new Date('2026-11-01T12:00:00Z'));
  const ada = await placeOrder(store, { email: 'ada@example.com', ...LONDON_BILLING });
  t.clock.set(new Date('2026-11-02T23:59:00Z'));
  const grace = await placeOrder(
    store,
    { email: 'grace@navy.example', ship_fname: 'Grace', ship_lname: 'Hopper' },
    { cardNumber: CARDS.declined },
  );
  t.clock.set(new Date('2026-11-03T00:00:00Z'));
  const alan = await placeOrder(
    store,
    { email: 'turing@example.org', ship_fname: 'Alan', ship_lname: 'Turing' },
    { testMode: true },
  );
  const adaAgain = await placeOrder(store, { email: 'ADA.L@Example.com' });
  const api = merchantClient(t.app, store.org.apiKey);
  const list = async (query: string) => {
    const response = await api.get(`/orders${query}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return OrderListSchema.parse(response.body);
  };
  const ids = async (query: string) => (await list(query)).data.map((order) => order.order_id);
  return { store, api, list, ids, orders: { ada, grace, alan, adaAgain } };
}

describe('the order list', () => {
  it("names each order's customer, billing name first", async () => {
    const { list, orders } = await storeWithOrders();
    const page = await list('');
    const named = Object.fromEntries(page.data.map((order) => [order.order_id, order.customer_name]));
    expect(named).toEqual({
      [orders.ada]: 'Ada Lovelace',
      [orders.grace]: 'Grace Hopper',
      [orders.alan]: 'Alan Turing',
      [orders.adaAgain]: 'Ada Lovelace',
    });
  });

  it('is searched by number, email and name, and filtered by status, dates and test, alone and combined', async () => {
    const { ids, orders } = await storeWithOrders();
    const { ada, grace, alan, adaAgain } = orders;
    expect(await ids('')).toEqual([adaAgain, alan, grace, ada]);
    // q: a number finds that order only, with or without "#".
    expect(await ids(`?q=${grace}`)).toEqual([grace]);
    expect(await ids(`?q=%23${alan}`)).toEqual([alan]);
    expect(await ids('?q=999999999')).toEqual([]);
    // q: text, case-insensitive, in the email or the first or last name of either address.
    expect(await ids('?q=ADA')).toEqual([adaAgain, ada]);
    expect(await ids('?q=navy.example')).toEqual([grace]);
    expect(await ids('?q=hopper')).toEqual([grace]);
    expect(await ids('?q=alan%20%20turing')).toEqual([alan]);
    expect(await ids('?q=lovelace')).toEqual([adaAgain, ada]);
    // LIKE's own characters match only themselves.
    expect(await ids('?q=%25')).toEqual([]);
    expect(await ids('?q=_')).toEqual([]);
    // status, dates (inclusive UTC days), test
    expect(await ids('?status=declined')).toEqual([grace]);
    expect(await ids('?status=complete')).toEqual([adaAgain, alan, ada]);
    expect(await ids('?created_from=2026-11-02')).toEqual([adaAgain, alan, grace]);
    expect(await ids('?created_to=2026-11-02')).toEqual([grace, ada]);
    expect(await ids('?created_from=2026-11-02&created_to=2026-11-02')).toEqual([grace]);
    expect(await ids('?test=true')).toEqual([alan]);
    expect(await ids('?test=false')).toEqual([adaAgain, grace, ada]);
    // combined
    expect(await ids('?q=ada&created_from=2026-11-03')).toEqual([adaAgain]);
    expect(await ids('?status=complete&test=false&created_to=2026-11-01')).toEqual([ada]);
    expect(await ids('?q=ada&status=declined')).toEqual([]);
  });

  it('goes a page at a time with a filter', async () => {
    const { list, orders } = await storeWithOrders();
    const first = await list('?status=complete&limit=2');
    expect(first.data.map((order) => order.order_id)).toEqual([orders.adaAgain, orders.alan]);
    expect(first.has_more).toBe(true);
    const second = await list(`?status=complete&limit=2&starting_after=${orders.alan}`);
    expect(second.data.map((order) => order.order_id)).toEqual([orders.ada]);
    expect(second.has_more).toBe(false);
  });

  it('answers a filter that is not valid with 422 and the field that is wrong', async () => {
    const { api } = await storeWithOrders();
    const refused = async (query: string, field: string, words: RegExp) => {
      const response = await api.get(`/orders${query}`);
      expect(response.status, query).toBe(422);
      expect(response.body.code).toBe('validation_failed');
      expect(response.body.fields[field], query).toMatch(words);
    };
    await refused('?status=shipped', 'status', /pending, declined, awaiting_payment, complete/);
    await refused('?created_from=2026-02-30', 'created_from', /YYYY-MM-DD/);
    await refused('?created_to=yesterday', 'created_to', /YYYY-MM-DD/);
    await refused('?created_from=2026-11-03&created_to=2026-11-01', 'created_to', /on or after created_from/);
    await refused('?test=yes', 'test', /true .* or false/);
    await refused(`?q=${'a'.repeat(201)}`, 'q', /at most 200/);
    await refused('?color=red', 'color', /not expected/);
  });

  it("never shows another store's orders", async () => {
    const { orders } = await storeWithOrders();
    const other = await createStore(t.app, t.db);
    const api = merchantClient(t.app, other.org.apiKey);
    expect((await api.get(`/orders?q=${orders.ada}`)).body.data).toEqual([]);
    expect((await api.get('/orders?q=ada')).body.data).toEqual([]);
  });
});

/** A signed-in staff member (not the owner) of the store: their cookie and CSRF token on each call. */
async function staffOf(store: Store) {
  const member = await inviteStaff(
    t.db,
    store.org.id,
    { email: `staff-${store.org.id}@shop.example` },
    t.clock.now(),
  );
  const link = await t.db.transaction((tx) =>
    issueStaffLink(
      tx,
      {
        organizationId: store.org.id,
        staffMemberId: member.id,
        purpose: 'invite',
        publicUrl: t.config.publicUrl,
      },
      t.clock.now(),
    ),
  );
  const joined = await t.app.inject({
    method: 'POST',
    url: '/admin/api/links/complete',
    payload: { token: new URL(link.url).hash.slice(1), password: 'staff passphrase 1' },
  });
  expect(joined.statusCode, joined.body).toBe(200);
  const session = StaffSessionSchema.parse(joined.json());
  expect(session.member.role).toBe('staff');
  const cookie = joined.cookies.find((c) => c.name === 'sc_staff')?.value ?? '';
  return (url: string) =>
    injectJson(t.app, {
      method: 'GET',
      url,
      cookies: { sc_staff: cookie },
      headers: { 'x-csrf-token': session.csrf_token },
    });
}

describe('the webhook deliveries about an order', () => {
  it('lists its order events to every endpoint, newest first, for staff too, and no other order’s', async () => {
    const store = await createStore(t.app, t.db);
    const api = merchantClient(t.app, store.org.apiKey);
    const endpoints: { id: number; url: string }[] = [];
    for (const path of ['/one', '/two']) {
      const created = await api.post('/webhook-endpoints', {
        url: `http://127.0.0.1:9${path}`,
        events: ['order.completed', 'order.payment_failed', 'order.refunded', 'subscription.created'],
      });
      expect(created.status).toBe(201);
      endpoints.push(created.body as { id: number; url: string });
    }
    t.clock.set(new Date('2026-11-05T10:00:00Z'));
    const declined = await placeOrder(store, {}, { cardNumber: CARDS.declined });
    const paid = await placeOrder(store, {});
    const refunded = await injectJson(t.app, {
      method: 'POST',
      url: `/checkout/api/merchant/orders/${paid}/refunds`,
      headers: { authorization: `Bearer ${store.org.apiKey}`, 'idempotency-key': key() },
      payload: { amount: 1 },
    });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(201);
    // order.completed is made by a job; the endpoints' URLs answer nothing, so each delivery has a failed attempt.
    const { handlers } = createJobHandlers(t.config, subscriberLinksOf(t));
    await createJobWorker(t.db, handlers, {
      clock: t.clock,
      logger: createLogger({ level: 'silent' }),
    }).drain();

    const deliveries = async (orderId: number, query = '') => {
      const response = await api.get(`/webhook-deliveries?order_id=${orderId}${query}`);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return OrderWebhookDeliveryListSchema.parse(response.body);
    };
    const ofPaid = await deliveries(paid);
    expect(ofPaid.data.map((d) => [d.event_type, d.endpoint_url]).sort()).toEqual(
      [
        ['order.completed', endpoints[0]?.url],
        ['order.completed', endpoints[1]?.url],
        ['order.refunded', endpoints[0]?.url],
        ['order.refunded', endpoints[1]?.url],
      ].sort(),
    );
    const ids = ofPaid.data.map((d) => d.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(ofPaid.data.every((d) => endpoints.some((e) => e.id === d.endpoint_id))).toBe(true);
    expect(ofPaid.data.find((d) => d.event_type === 'order.completed')?.attempts.length).toBeGreaterThan(0);
    expect((await deliveries(declined)).data.map((d) => d.event_type)).toEqual([
      'order.payment_failed',
      'order.payment_failed',
    ]);

    // a page at a time
    const first = await deliveries(paid, '&limit=3');
    expect(first.data).toHaveLength(3);
    expect(first.has_more).toBe(true);
    const rest = await deliveries(paid, `&limit=3&starting_after=${first.data[2]?.id}`);
    expect(rest.data.map((d) => d.id)).toEqual([ids[3]]);

    // Staff read them (the order's screen shows them), though endpoints are the owner's.
    const asStaff = await staffOf(store);
    const staffAnswer = await asStaff(`/checkout/api/merchant/webhook-deliveries?order_id=${paid}`);
    expect(staffAnswer.status, JSON.stringify(staffAnswer.body)).toBe(200);
    expect(staffAnswer.body.data).toHaveLength(4);
    expect((await asStaff('/checkout/api/merchant/webhook-endpoints')).status).toBe(403);

    // Another store sees none of them: the order is not theirs.
    const other = await createStore(t.app, t.db);
    const otherApi = merchantClient(t.app, other.org.apiKey);
    const foreign = await otherApi.get(`/webhook-deliveries?order_id=${paid}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('order_not_found');
    const otherOrder = await placeOrder(other, {});
    expect((await otherApi.get(`/webhook-deliveries?order_id=${otherOrder}`)).body.data).toEqual([]);

    // order_id is required, and a number.
    for (const query of ['', '?order_id=abc']) {
      const refused = await api.get(`/webhook-deliveries${query}`);
      expect(refused.status).toBe(422);
      expect(Object.keys(refused.body.fields)).toEqual(['order_id']);
    }
  });
});
