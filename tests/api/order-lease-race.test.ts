import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/platform/db/database.js';
import { gatewayCharges } from '../helpers/gateway-charges.js';
import { interceptQueries } from '../helpers/intercept-queries.js';
import { CARDS, card, orderBody } from '../helpers/order-body.js';
import { storeWithShopper } from '../helpers/store.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createTestDatabase } from '../helpers/test-database.js';

// A retry whose cart was read while an earlier attempt (its lease run out) was still paying: that attempt completes
// the order before the retry rewrites it. The retry must see the completed order and charge nothing.
let t: TestApp;
/** The order the next rewrite of an order finds completed by "the earlier attempt", or null. */
let completeBeforeRewrite: number | null = null;

function completingEarlierAttempt(db: Database): Database {
  return interceptQueries(db, 'transactions', async (sql, _params, run, tx) => {
    const rewrite = /^\s*UPDATE orders SET/.test(sql) && sql.includes("status <> 'complete'");
    if (rewrite && completeBeforeRewrite !== null) {
      const orderId = completeBeforeRewrite;
      completeBeforeRewrite = null;
      // What the earlier attempt commits meanwhile, as later statements of this transaction see it.
      await tx.query("UPDATE orders SET status = 'complete', completed_at = now() WHERE id = $1", [orderId]);
    }
    return run();
  });
}

beforeAll(async () => {
  const database = await createTestDatabase();
  t = await createTestApp({ database: { ...database, db: completingEarlierAttempt(database.db) } });
});

afterAll(async () => {
  await t.close();
});

describe('an order completed by an earlier attempt while a retry prepares it', () => {
  it('is answered 409 order_complete and charged nothing more', async () => {
    const { store, shopper } = await storeWithShopper(t.app, t.db);
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const declined = await shopper.post('orders', orderBody(token, { payment: card(CARDS.declined) }), {
      'idempotency-key': `first-${token}`,
    });
    expect(declined.status).toBe(402);
    const { rows } = await t.db.query<{ id: number }>(
      'SELECT o.id FROM orders o JOIN carts c ON c.id = o.cart_id WHERE c.token = $1',
      [token],
    );
    const orderId = rows[0]?.id ?? null;
    expect(orderId).not.toBeNull();

    completeBeforeRewrite = orderId;
    const retry = await shopper.post('orders', orderBody(token), { 'idempotency-key': `retry-${token}` });
    expect(completeBeforeRewrite).toBeNull();
    expect(retry.status).toBe(409);
    expect(retry.body.code).toBe('order_complete');

    // The declined first attempt is the only charge the gateway saw.
    expect(await gatewayCharges(t.db, store.org.id)).toBe(1);
  });

  it('answers an express start 409 order_complete and starts no express payment', async () => {
    const { store, shopper } = await storeWithShopper(t.app, t.db);
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const declined = await shopper.post('orders', orderBody(token, { payment: card(CARDS.declined) }), {
      'idempotency-key': `first-${token}`,
    });
    expect(declined.status).toBe(402);
    const orderOf = async () =>
      (
        await t.db.query<{ id: number; status: string; express_payment_id: number | null }>(
          `SELECT o.id, o.status, o.express_payment_id FROM orders o JOIN carts c ON c.id = o.cart_id
            WHERE c.token = $1`,
          [token],
        )
      ).rows[0];
    const orderId = (await orderOf())?.id ?? null;
    expect(orderId).not.toBeNull();

    completeBeforeRewrite = orderId;
    const retry = await shopper.post(
      'orders',
      { cart_token: token, payment: { method: 'paypal' } },
      { 'idempotency-key': `express-${token}` },
    );
    expect(completeBeforeRewrite).toBeNull();
    expect(retry.status).toBe(409);
    expect(retry.body.code).toBe('order_complete');
    // No express payment was started for it (the completion here is simulated in the retry's transaction, which is
    // undone with it: the order is as the declined attempt left it).
    expect(await orderOf()).toMatchObject({ status: 'declined', express_payment_id: null });
    const { rows } = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM express_payments WHERE order_id = $1',
      [orderId],
    );
    expect(rows[0]?.n).toBe(0);
  });
});
