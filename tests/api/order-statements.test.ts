import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../src/server/platform/db/database.js';
import { CARDS, card, orderBody } from '../helpers/order-body.js';
import { shopperSession } from '../helpers/shopper.js';
import { createStore, storeWithShopper } from '../helpers/store.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createTestDatabase } from '../helpers/test-database.js';

// What a request costs the database: every statement (each transaction adds BEGIN and COMMIT), which on PostgreSQL
// costs the server and the database more CPU than most of the statements' own work; and the round trips, which the
// request waits through one after the other. A statement sent while the one ahead of it in the same transaction is
// still unanswered goes out with it (PostgreSQL's connection pipelines them), as BEGIN goes out with the first.
// (On PostgreSQL a transaction that changes a cart's view sends two statements more with its COMMIT, in the same
// round trip, not counted here: commitPastNotifyLock in src/server/platform/db/postgres.ts.)
let t: TestApp;
let counting = false;
const statements: string[] = [];
let transactions = 0;
let roundTrips = 0;

function counted(db: Database): Database {
  const note = (sql: string) => {
    if (counting) statements.push(sql.replace(/\s+/g, ' ').trim().slice(0, 60));
  };
  const wrap = (q: Queryable, inTransaction: boolean): Queryable => {
    let unanswered = 0;
    return {
      exec: (sql) => q.exec(sql),
      announce: (channel, payload) => q.announce(channel, payload),
      query<Row>(sql: string, params?: readonly unknown[]) {
        note(sql);
        if (counting && (!inTransaction || unanswered === 0)) roundTrips++;
        unanswered++;
        return q.query<Row>(sql, params).finally(() => unanswered--);
      },
    };
  };
  const direct = wrap(db, false);
  return {
    ...db,
    kind: db.kind,
    query: direct.query,
    exec: direct.exec,
    announce: direct.announce,
    transaction(fn) {
      // Its COMMIT is a round trip of its own; its BEGIN goes out with its first statement.
      if (counting) {
        transactions++;
        roundTrips++;
      }
      return db.transaction((tx) => fn(wrap(tx, true)));
    },
  };
}

beforeAll(async () => {
  const database = await createTestDatabase();
  t = await createTestApp({ database: { ...database, db: counted(database.db) } });
});

afterAll(async () => {
  await t.close();
});

async function measure<T>(
  work: () => Promise<T>,
): Promise<{ result: T; statements: number; transactions: number; roundTrips: number }> {
  statements.length = 0;
  transactions = 0;
  roundTrips = 0;
  counting = true;
  try {
    const result = await work();
    // BEGIN and COMMIT of each transaction are statements too.
    return { result, statements: statements.length + 2 * transactions, transactions, roundTrips };
  } finally {
    counting = false;
  }
}

describe('statements per request', () => {
  it('places a first card order in at most 11 statements and 1 transaction', async () => {
    const { store, shopper } = await storeWithShopper(t.app, t.db);
    // A first order of the instance also prunes old rate-limit events (every few minutes): not measured.
    const earlier = await store.cart([{ offer_id: store.offers.beans.id }]);
    expect((await shopper.post('orders', orderBody(earlier, { payment: card(CARDS.visa) }))).status).toBe(
      200,
    );
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const preview = await measure(() =>
      shopper.get(
        `carts/${token}/preview?ship_country=US&ship_state=TX&ship_zipcode=73301&same_address=true`,
      ),
    );
    expect(preview.result.status).toBe(200);
    // The cart's lock, its snapshot with the address's shipping and tax, the stored preview; BEGIN and COMMIT. BEGIN,
    // the lock and the snapshot go out together: 3 round trips.
    expect(preview.statements).toBeLessThanOrEqual(5);
    expect(preview.roundTrips, statements.join('\n')).toBeLessThanOrEqual(3);

    const order = await measure(() =>
      shopper.post('orders', orderBody(token, { payment: card(CARDS.visa) }), {
        'idempotency-key': `k-${token}`,
      }),
    );
    expect(order.result.status).toBe(200);
    expect(order.result.body.order.status).toBe('complete');
    // Idempotency key (1); validate, price and save the order with its customer, its lease and the abuse limits (7
    // with BEGIN and COMMIT; the address's shipping and tax come with the cart); the gateway's ledger (1); record the
    // payment and complete the order (1: nothing else completes with a plain order, and it still holds its lease); the
    // key's outcome (1). The answer is made from what the order path holds (reading it back took 2 more). It was 35
    // statements in 4 transactions.
    expect(order.transactions).toBe(1);
    expect(order.statements, statements.join('\n')).toBeLessThanOrEqual(11);
    // In the transaction, BEGIN goes out with the cart's lock and snapshot, and the abuse limits' locks with their
    // check: 4 round trips instead of 7, 8 in all.
    expect(order.roundTrips, statements.join('\n')).toBeLessThanOrEqual(8);
  });

  it('runs the shopper flow (csrf, authorize, cart, preview, order) in at most 18 statements', async () => {
    const store = await createStore(t.app, t.db);
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const flow = await measure(async () => {
      const shopper = await shopperSession(t.app, store.org.publicId);
      expect((await shopper.get(`carts/${token}`)).status).toBe(200);
      const preview = await shopper.get(
        `carts/${token}/preview?ship_country=US&ship_state=TX&ship_zipcode=73301&same_address=true`,
      );
      expect(preview.status).toBe(200);
      const order = await shopper.post('orders', orderBody(token, { payment: card(CARDS.visa) }), {
        'idempotency-key': `k-${token}`,
      });
      expect(order.status).toBe(200);
      return order;
    });
    expect(flow.result.body.order.status).toBe('complete');
    expect(flow.statements, statements.join('\n')).toBeLessThanOrEqual(18);
    // The organization by its public id (once per instance), the cart (1), the preview (3), the order (8).
    expect(flow.roundTrips, statements.join('\n')).toBeLessThanOrEqual(13);

    // The next shopper's handshake costs nothing: the instance remembers which organization the public id names.
    const handshake = await measure(() => shopperSession(t.app, store.org.publicId));
    expect(handshake.statements, statements.join('\n')).toBe(0);
  });
});
