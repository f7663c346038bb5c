import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../src/server/platform/db/database.js';
import { gatewayCharges } from '../helpers/gateway-charges.js';
import { card, CARDS, EXPRESS_PAYER_FORM, orderBody } from '../helpers/order-body.js';
import type { ShopperSession } from '../helpers/shopper.js';
import { storeWithShopper } from '../helpers/store.js';
import { createTestApp, type JsonResponse, type TestApp } from '../helpers/test-app.js';
import { createTestDatabase } from '../helpers/test-database.js';

// A process killed right after an order attempt's outcome was committed (the order completed, or its payment declined)
// never sends its answer. The shopper's page retries with the same Idempotency-Key once the attempt's lease ran out,
// and must get the answer the attempt would have sent, not 409 order_complete (docs/api.md, "Orders").

/**
 * The database of a process that dies, once armed, right after the statement or transaction that records a payment
 * attempt commits: every later call fails, as nothing after the kill runs. `revive` is the restart.
 */
function dyingAfterAttempt(db: Database) {
  let armed = false;
  let dead = false;
  const records = (sql: string) => /INSERT INTO payment_attempts/.test(sql);
  const alive = () => {
    if (dead) throw new Error('the process was killed');
  };
  const inside = (tx: Queryable, saw: () => void): Queryable => ({
    exec: (sql) => tx.exec(sql),
    query: (async (sql: string, params?: readonly unknown[]) => {
      alive();
      const result = await tx.query(sql, params as unknown[]);
      if (records(sql)) saw();
      return result;
    }) as Queryable['query'],
  });
  const wrapped: Database = {
    ...db,
    kind: db.kind,
    query: (async (sql: string, params?: readonly unknown[]) => {
      alive();
      const result = await db.query(sql, params as unknown[]);
      if (armed && records(sql)) dead = true;
      return result;
    }) as Database['query'],
    exec: async (sql) => {
      alive();
      return db.exec(sql);
    },
    transaction: async (fn) => {
      alive();
      let recorded = false;
      const result = await db.transaction((tx) => fn(inside(tx, () => (recorded = true))));
      if (armed && recorded) dead = true;
      return result;
    },
  };
  return {
    db: wrapped,
    arm: () => {
      armed = true;
    },
    died: () => dead,
    revive: () => {
      armed = false;
      dead = false;
    },
  };
}

let t: TestApp;
let dying: ReturnType<typeof dyingAfterAttempt>;

beforeAll(async () => {
  const database = await createTestDatabase();
  dying = dyingAfterAttempt(database.db);
  t = await createTestApp({ database: { ...database, db: dying.db } });
});

afterAll(async () => {
  await t.close();
});

/**
 * Sends the attempt with the process set to die once its outcome is committed, restarts it, waits out the attempt's
 * lease and retries with the same key. Answers both responses.
 */
async function crashAndRetry(
  send: (headers: Record<string, string>) => Promise<JsonResponse>,
  key: string,
): Promise<{ first: JsonResponse; retried: JsonResponse }> {
  dying.arm();
  const first = await send({ 'idempotency-key': key });
  expect(dying.died()).toBe(true);
  dying.revive();
  t.clock.advance(t.config.paymentLeaseSeconds * 1000 + 1000);
  const retried = await send({ 'idempotency-key': key });
  return { first, retried };
}

/** The answer the attempt would have sent: the cart as it now is. */
async function expectCompletedAnswer(shopper: ShopperSession, token: string, response: JsonResponse) {
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect(response.body.order.status).toBe('complete');
  expect(response.body).toEqual((await shopper.get(`carts/${token}`)).body);
}

describe('a retry after a crash right after the order attempt was recorded', () => {
  it('replays a card payment’s completed order', async () => {
    const { store, shopper } = await storeWithShopper(t.app, t.db);
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    // The retry is the same request: the same body (the same card token) with the same key.
    const body = orderBody(token);
    const { first, retried } = await crashAndRetry(
      (headers) => shopper.post('orders', body, headers),
      `crash-card-${token}`,
    );
    await expectCompletedAnswer(shopper, token, retried);
    if (first.status === 200) expect(retried.body).toEqual(first.body);
    expect(await gatewayCharges(t.db, store.org.id)).toBe(1);
  });

  it('replays an order completed with its subscription', async () => {
    const { store, shopper } = await storeWithShopper(t.app, t.db);
    const token = await store.cart([{ offer_id: store.offers.club.id }]);
    const body = orderBody(token, { subscription_terms_accepted: true });
    const { first, retried } = await crashAndRetry(
      (headers) => shopper.post('orders', body, headers),
      `crash-club-${token}`,
    );
    await expectCompletedAnswer(shopper, token, retried);
    expect(retried.body.order.subscriptions).toHaveLength(1);
    if (first.status === 200) expect(retried.body).toEqual(first.body);
    expect(await gatewayCharges(t.db, store.org.id)).toBe(1);
  });

  it('replays a free order', async () => {
    const { store, shopper } = await storeWithShopper(t.app, t.db);
    await store.create('/discount-codes', { code: 'ONUS', kind: 'percent', percent_off: 100 });
    const token = await store.cart([{ offer_id: store.offers.guide.id }]);
    expect((await shopper.put(`carts/${token}/discount_code`, { discount_code: 'onus' })).status).toBe(200);
    const body = orderBody(token, { payment: { method: 'none' } });
    const { first, retried } = await crashAndRetry(
      (headers) => shopper.post('orders', body, headers),
      `crash-free-${token}`,
    );
    await expectCompletedAnswer(shopper, token, retried);
    expect(retried.body.total).toBe(0);
    if (first.status === 200) expect(retried.body).toEqual(first.body);
  });

  it('replays an order completed by an express payment', async () => {
    const { store, shopper } = await storeWithShopper(t.app, t.db);
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const started = await shopper.post(
      'orders',
      { cart_token: token, payment: { method: 'paypal' } },
      { 'idempotency-key': `express-${token}` },
    );
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const approval = new URL(started.body.action.url as string);
    const approved = await t.app.inject({
      method: 'POST',
      url: approval.pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ ...EXPRESS_PAYER_FORM, decision: 'approve' }).toString(),
    });
    const paymentTokenId = new URL(approved.headers.location as string).searchParams.get('payment_token_id');
    const orderId = started.body.order.order_id as number;
    const body = orderBody(token, {
      email: EXPRESS_PAYER_FORM.email,
      ship_fname: 'Pat',
      ship_lname: 'Payer',
      ship_address1: EXPRESS_PAYER_FORM.ship_address1,
      ship_city: EXPRESS_PAYER_FORM.ship_city,
      ship_state: EXPRESS_PAYER_FORM.ship_state,
      ship_zipcode: EXPRESS_PAYER_FORM.ship_zipcode,
      same_address: false,
      payment: { method: 'paypal', payment_token_id: paymentTokenId },
    });
    const { first, retried } = await crashAndRetry(
      (headers) => shopper.put(`orders/${orderId}`, body, headers),
      `crash-express-${token}`,
    );
    await expectCompletedAnswer(shopper, token, retried);
    if (first.status === 200) expect(retried.body).toEqual(first.body);
  });

  it('replays a decline instead of charging the card again', async () => {
    const { store, shopper } = await storeWithShopper(t.app, t.db);
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const body = orderBody(token, { payment: card(CARDS.declined) });
    const { first, retried } = await crashAndRetry(
      (headers) => shopper.post('orders', body, headers),
      `crash-declined-${token}`,
    );
    expect(retried.status, JSON.stringify(retried.body)).toBe(402);
    expect(retried.body).toMatchObject({ status: 402, code: 'card_declined' });
    if (first.status === 402) expect(retried.body).toEqual(first.body);
    expect(await gatewayCharges(t.db, store.org.id)).toBe(1);
  });
});
