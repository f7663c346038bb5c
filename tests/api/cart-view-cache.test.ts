import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CartSchema } from '../../src/contract/cart.js';
import { createPostgresDatabase, LISTEN_APPLICATION_NAME } from '../../src/server/platform/db/postgres.js';
import { cartViewCounts } from '../helpers/metrics.js';
import { orderBody } from '../helpers/order-body.js';
import { shopperSession } from '../helpers/shopper.js';
import { storeWithShopper } from '../helpers/store.js';
import { createTestApp, injectJson, type TestApp } from '../helpers/test-app.js';
import { testDatabaseKind } from '../helpers/test-database.js';

// GET carts/{token} answers from the instance's kept views (src/server/platform/cart-view-cache.ts). Each test
// reads a cart twice (the second read from memory), changes something the view is made of, and reads again.

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

const setup = () => storeWithShopper(t.app, t.db);

/** The cache's counters from GET /metrics. */
async function cacheCounts(): Promise<Record<string, number>> {
  return cartViewCounts((await t.app.inject({ method: 'GET', url: '/metrics' })).body);
}

/**
 * Reads the cart until a read comes from memory, and checks it answers what the database did; answers the view.
 * On the embedded database the second read does. On PostgreSQL the notice of a write this app made a moment ago may
 * still be on its way: it drops the view kept meanwhile (once), so a few more reads may be needed.
 */
async function readKept(shopper: Awaited<ReturnType<typeof setup>>['shopper'], token: string) {
  const first = await shopper.get(`carts/${token}`);
  expect(first.status).toBe(200);
  const deadline = Date.now() + (t.database.kind === 'pglite' ? 0 : 2000);
  for (;;) {
    const before = await cacheCounts();
    const again = await shopper.get(`carts/${token}`);
    const after = await cacheCounts();
    expect(again.body).toEqual(first.body);
    if (after.hit === (before.hit ?? 0) + 1) return CartSchema.parse(again.body);
    expect(Date.now(), 'a read is answered from memory').toBeLessThan(deadline);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Reads until the view shows what `expected` checks: a change made outside this app reaches it through the
 * database's notice, at once on the embedded database and a moment after the COMMIT on PostgreSQL.
 */
async function readUntil(
  shopper: Awaited<ReturnType<typeof setup>>['shopper'],
  token: string,
  expected: (cart: ReturnType<typeof CartSchema.parse>) => boolean,
) {
  const deadline = Date.now() + (t.database.kind === 'pglite' ? 0 : 2000);
  for (;;) {
    const cart = CartSchema.parse((await shopper.get(`carts/${token}`)).body);
    if (expected(cart) || Date.now() >= deadline) return cart;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('GET carts/{token} from kept views', () => {
  it('answers the second read from memory with the same body and headers', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id, quantity: 2 }]);
    const first = await t.app.inject({
      method: 'GET',
      url: `/checkout/api/vrio/carts/${token}`,
      headers: { authorization: `Bearer ${shopper.accessToken}`, 'csrf-token': shopper.csrfToken },
    });
    const second = await t.app.inject({
      method: 'GET',
      url: `/checkout/api/vrio/carts/${token}`,
      headers: { authorization: `Bearer ${shopper.accessToken}`, 'csrf-token': shopper.csrfToken },
    });
    expect(second.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(second.headers['content-type']).toBe(first.headers['content-type']);
    expect(second.headers['cache-control']).toBe(first.headers['cache-control']);
    expect(CartSchema.parse(JSON.parse(second.body)).subtotal).toBe(36);
  });

  it('still checks the shopper: no token, or another organization, is refused though the view is kept', async () => {
    const { store, shopper } = await setup();
    const other = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    await readKept(shopper, token);
    const anonymous = await injectJson(t.app, { method: 'GET', url: `/checkout/api/vrio/carts/${token}` });
    expect(anonymous.status).toBe(401);
    expect((await other.shopper.get(`carts/${token}`)).status).toBe(404);
  });

  it("shows the shopper's own changes at once: quantity, discount code", async () => {
    const { store, shopper } = await storeWithShopper(t.app, t.db, {
      editable: { value: true, override: null },
    });
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const kept = await readKept(shopper, token);
    const line = kept.offers[0]?.id;
    expect((await shopper.put(`carts/${token}/quantity`, { id: line, quantity: 3 })).status).toBe(200);
    expect((await shopper.get(`carts/${token}`)).body).toMatchObject({ subtotal: 54 });
    await readKept(shopper, token);
    expect((await shopper.put(`carts/${token}/discount_code`, { discount_code: 'WELCOME10' })).status).toBe(
      200,
    );
    expect((await shopper.get(`carts/${token}`)).body).toMatchObject({
      discount_code: 'WELCOME10',
      total_discount: 5.4,
    });
  });

  it("shows the merchant's changes at once: offer price, code switched off, shipping price, tax rate", async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }], { discount_code: 'WELCOME10' });
    // A stored preview (Austin, Texas, standard shipping) so that shipping and tax are part of the view.
    const preview = await shopper.get(`carts/${token}/preview`, {
      ship_country: 'US',
      ship_state: 'TX',
      ship_zipcode: '73301',
      same_address: 'true',
    });
    expect(preview.status).toBe(200);
    const before = await readKept(shopper, token);
    expect(before).toMatchObject({ subtotal: 18, total_discount: 1.8 });

    expect((await store.api.patch(`/offers/${store.offers.beans.id}`, { price: 20 })).status).toBe(200);
    expect((await shopper.get(`carts/${token}`)).body).toMatchObject({ subtotal: 20, total_discount: 2 });

    await readKept(shopper, token);
    const codes = await store.api.get('/discount-codes?limit=100');
    const welcome = (codes.body.data as { id: number; code: string }[]).find((c) => c.code === 'WELCOME10');
    expect((await store.api.patch(`/discount-codes/${welcome?.id}`, { active: false })).status).toBe(200);
    const off = CartSchema.parse((await shopper.get(`carts/${token}`)).body);
    expect(off.total_discount).toBe(0);
    expect(off.discount_notice).not.toBeNull();

    const kept = await readKept(shopper, token);
    expect(
      (await store.api.patch(`/shipping-profiles/${store.profiles.standard.id}`, { price: 9 })).status,
    ).toBe(200);
    const shipped = CartSchema.parse((await shopper.get(`carts/${token}`)).body);
    expect(shipped.total).not.toBe(kept.total);

    await readKept(shopper, token);
    const rates = await store.api.get('/tax-rates?limit=100');
    const texas = (rates.body.data as { id: number; state: string | null }[]).find((r) => r.state === 'TX');
    expect(texas).toBeDefined();
    expect((await store.api.patch(`/tax-rates/${texas?.id}`, { rate: 0 })).status).toBe(200);
    expect((await shopper.get(`carts/${token}`)).body).toMatchObject({ total_tax: 0 });
  });

  it('shows a change made in the database by anyone else, through its change notice', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    await readKept(shopper, token);
    // Another process, as another instance or a script would: its own connection (PostgreSQL), or the same
    // embedded database's (PGlite, which has one connection).
    const other = t.database.url ? createPostgresDatabase(t.database.url, { poolSize: 1 }) : t.db;
    try {
      await other.query('UPDATE offers SET price = 2500 WHERE organization_id = $1 AND id = $2', [
        store.org.id,
        store.offers.beans.id,
      ]);
      expect((await readUntil(shopper, token, (cart) => cart.subtotal === 25)).subtotal).toBe(25);

      await readKept(shopper, token);
      await other.query(
        'UPDATE cart_offers SET quantity = 4 WHERE organization_id = $1 AND cart_id = (SELECT id FROM carts WHERE token = $2)',
        [store.org.id, token],
      );
      expect((await readUntil(shopper, token, (cart) => cart.subtotal === 100)).subtotal).toBe(100);
    } finally {
      if (other !== t.db) await other.close();
    }
  });

  it('stops serving a view when the clock makes it untrue: the cart expires, the code window ends', async () => {
    const { store, shopper } = await setup();
    await store.create('/discount-codes', {
      code: 'TODAYONLY',
      kind: 'percent',
      percent_off: 10,
      ends_at: new Date(t.clock.now().getTime() + 3_600_000).toISOString(),
    });
    const token = await store.cart([{ offer_id: store.offers.beans.id }], { discount_code: 'TODAYONLY' });
    expect(await readKept(shopper, token)).toMatchObject({ total_discount: 1.8 });
    t.clock.advance(3_600_000);
    const later = await shopperSession(t.app, store.org.publicId);
    const ended = CartSchema.parse((await later.get(`carts/${token}`)).body);
    expect(ended.total_discount).toBe(0);
    expect(ended.discount_notice?.code).toBe('discount_code_expired');

    await readKept(later, token);
    t.clock.advance(31 * 86_400_000);
    const muchLater = await shopperSession(t.app, store.org.publicId);
    expect((await muchLater.get(`carts/${token}`)).status).toBe(404);
  });

  it('reads a cart with an order from the database every time, and shows the order at once', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    await readKept(shopper, token);
    const order = await shopper.post('orders', orderBody(token));
    expect(order.status).toBe(200);
    const before = await cacheCounts();
    const read = await shopper.get(`carts/${token}`);
    expect(read.body.order).toMatchObject({ status: 'complete' });
    await shopper.get(`carts/${token}`);
    const after = await cacheCounts();
    expect(after.hit).toBe(before.hit);
    expect(after.miss).toBe((before.miss ?? 0) + 2);
  });
});

// PostgreSQL only: the embedded database's notices come from its one connection, in this process, and cannot be lost.
if (testDatabaseKind() === 'postgres') {
  describe('when the listening connection is lost', () => {
    it('serves no kept view until it listens again, so no change made meanwhile is missed', async () => {
      const { store, shopper } = await setup();
      const token = await store.cart([{ offer_id: store.offers.beans.id }]);
      await readKept(shopper, token);
      const admin = createPostgresDatabase(t.database.url as string, { poolSize: 1 });
      // ALTER DATABASE from another database: the test server's own.
      const server = createPostgresDatabase(process.env.TEST_DATABASE_URL as string, { poolSize: 1 });
      const name = new URL(t.database.url as string).pathname.slice(1);
      const allowConnections = (allow: boolean) =>
        server.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS ${allow ? 'true' : 'false'}`);
      const isHit = async () => {
        const before = await cacheCounts();
        expect((await shopper.get(`carts/${token}`)).status).toBe(200);
        return (await cacheCounts()).hit === (before.hit ?? 0) + 1;
      };
      try {
        // The connection is cut and cannot come back for now (the app's pool keeps the connections it has).
        await admin.query('SELECT 1');
        await allowConnections(false);
        const ended = await admin.query<{ ended: boolean }>(
          `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
            WHERE datname = current_database() AND application_name = $1`,
          [LISTEN_APPLICATION_NAME],
        );
        expect(ended.rows).toEqual([{ ended: true }]);
        const lostAt = Date.now();
        while (await isHit()) {
          expect(Date.now() - lostAt, 'the loss is noticed').toBeLessThan(10_000);
          // A read answered from memory does no I/O: let the connection's events in.
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        // A change while nothing is heard: no kept view hides it, read after read.
        await admin.query('UPDATE offers SET price = 3000 WHERE organization_id = $1 AND id = $2', [
          store.org.id,
          store.offers.beans.id,
        ]);
        for (let read = 0; read < 3; read++) {
          expect(await isHit()).toBe(false);
          expect((await shopper.get(`carts/${token}`)).body).toMatchObject({ subtotal: 30 });
        }
        await allowConnections(true);
        // Listening again after its next retry (0.25 s, doubling up to 10 s), views are kept and served again.
        const deadline = Date.now() + 15_000;
        while (!(await isHit())) {
          expect(Date.now(), 'listening again').toBeLessThan(deadline);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        expect((await shopper.get(`carts/${token}`)).body).toMatchObject({ subtotal: 30 });
      } finally {
        await allowConnections(true);
        await Promise.all([admin.close(), server.close()]);
      }
    });
  });
}
