import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PG_DEADLOCK_DETECTED, type Database } from '../../src/server/platform/db/database.js';
import { gatewayCharges } from '../helpers/gateway-charges.js';
import { interceptQueries } from '../helpers/intercept-queries.js';
import { orderBody } from '../helpers/order-body.js';
import { storeWithShopper } from '../helpers/store.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createTestDatabase } from '../helpers/test-database.js';

// A plain approved payment completes its order in one statement outside any transaction. When that statement loses a
// deadlock it has written nothing, and the payment is recorded by the transaction (which PostgreSQL may run again).
let t: TestApp;
let deadlocks = 0;

/** The database, where the next one-statement completion (outside a transaction) loses a deadlock once. */
function losingOneCompletion(db: Database): Database {
  return interceptQueries(db, 'direct', (sql, _params, run) => {
    if (deadlocks > 0 && /^\s*WITH completed AS \(\s*UPDATE orders SET status = 'complete'/.test(sql)) {
      deadlocks--;
      return Promise.reject(Object.assign(new Error('deadlock detected'), { code: PG_DEADLOCK_DETECTED }));
    }
    return run();
  });
}

beforeAll(async () => {
  const database = await createTestDatabase();
  t = await createTestApp({ database: { ...database, db: losingOneCompletion(database.db) } });
});

afterAll(async () => {
  await t.close();
});

describe('a one-statement completion that loses a deadlock', () => {
  it('is completed by the transaction instead: one approved attempt, one charge, the same answer', async () => {
    const { store, shopper } = await storeWithShopper(t.app, t.db);
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    deadlocks = 1;
    const placed = await shopper.post('orders', orderBody(token), { 'idempotency-key': `deadlock-${token}` });
    expect(deadlocks).toBe(0); // the one-statement completion was tried, and lost
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    expect(placed.body.order.status).toBe('complete');
    expect(JSON.stringify(placed.body)).toBe(JSON.stringify((await shopper.get(`carts/${token}`)).body));

    const detail = (await store.api.get(`/orders/${placed.body.order.order_id as number}`)).body;
    expect(detail.status).toBe('complete');
    expect(detail.payment_attempts).toEqual([expect.objectContaining({ status: 'approved' })]);
    expect(await gatewayCharges(t.db, store.org.id)).toBe(1);
  });
});
