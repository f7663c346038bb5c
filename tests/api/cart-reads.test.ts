import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CartSchema } from '../../src/contract/cart.js';
import { createPostgresDatabase } from '../../src/server/platform/db/postgres.js';
import { orderBody } from '../helpers/order-body.js';
import { shopperSession } from '../helpers/shopper.js';
import { storeWithShopper } from '../helpers/store.js';
import { createTestApp, injectJson, type TestApp } from '../helpers/test-app.js';

// GET carts/{token} answers the cart as it is now: each test reads a cart, changes something it is made of (by the
// shopper, the merchant, someone else on the database, or the clock), and reads it again at once.

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

const setup = () => storeWithShopper(t.app, t.db);

describe('GET carts/{token} after a change', () => {
  it('answers the same body and headers to the same read', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id, quantity: 2 }]);
    const read = () =>
      t.app.inject({
        method: 'GET',
        url: `/checkout/api/vrio/carts/${token}`,
        headers: { authorization: `Bearer ${shopper.accessToken}`, 'csrf-token': shopper.csrfToken },
      });
    const first = await read();
    const second = await read();
    expect(second.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(second.headers['cache-control']).toBe(first.headers['cache-control']);
    expect(CartSchema.parse(JSON.parse(second.body)).subtotal).toBe(36);
  });

  it('still checks the shopper on every read: no token, or another organization, is refused', async () => {
    const { store, shopper } = await setup();
    const other = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    expect((await shopper.get(`carts/${token}`)).status).toBe(200);
    const anonymous = await injectJson(t.app, { method: 'GET', url: `/checkout/api/vrio/carts/${token}` });
    expect(anonymous.status).toBe(401);
    expect((await other.shopper.get(`carts/${token}`)).status).toBe(404);
  });

  it("shows the shopper's own changes at once: quantity, discount code", async () => {
    const { store, shopper } = await storeWithShopper(t.app, t.db, {
      editable: { value: true, override: null },
    });
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const before = CartSchema.parse((await shopper.get(`carts/${token}`)).body);
    const line = before.offers[0]?.id;
    expect((await shopper.put(`carts/${token}/quantity`, { id: line, quantity: 3 })).status).toBe(200);
    expect((await shopper.get(`carts/${token}`)).body).toMatchObject({ subtotal: 54 });
    expect((await shopper.put(`carts/${token}/discount_code`, { discount_code: 'WELCOME10' })).status).toBe(
      200,
    );
    expect((await shopper.get(`carts/${token}`)).body).toMatchObject({
      discount_code: 'WELCOME10',
      total_discount: 5.4,
    });
  });

  it("shows the merchant's changes on the next read: offer price, code switched off, shipping price, tax rate", async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }], { discount_code: 'WELCOME10' });
    // A stored preview (Austin, Texas, standard shipping) so that shipping and tax are part of the cart.
    const preview = await shopper.get(`carts/${token}/preview`, {
      ship_country: 'US',
      ship_state: 'TX',
      ship_zipcode: '73301',
      same_address: 'true',
    });
    expect(preview.status).toBe(200);
    expect((await shopper.get(`carts/${token}`)).body).toMatchObject({ subtotal: 18, total_discount: 1.8 });

    expect((await store.api.patch(`/offers/${store.offers.beans.id}`, { price: 20 })).status).toBe(200);
    expect((await shopper.get(`carts/${token}`)).body).toMatchObject({ subtotal: 20, total_discount: 2 });

    const codes = await store.api.get('/discount-codes?limit=100');
    const welcome = (codes.body.data as { id: number; code: string }[]).find((c) => c.code === 'WELCOME10');
    expect((await store.api.patch(`/discount-codes/${welcome?.id}`, { active: false })).status).toBe(200);
    const off = CartSchema.parse((await shopper.get(`carts/${token}`)).body);
    expect(off.total_discount).toBe(0);
    expect(off.discount_notice).not.toBeNull();

    expect(
      (await store.api.patch(`/shipping-profiles/${store.profiles.standard.id}`, { price: 9 })).status,
    ).toBe(200);
    const shipped = CartSchema.parse((await shopper.get(`carts/${token}`)).body);
    expect(shipped.total).not.toBe(off.total);

    const rates = await store.api.get('/tax-rates?limit=100');
    const texas = (rates.body.data as { id: number; state: string | null }[]).find((r) => r.state === 'TX');
    expect(texas).toBeDefined();
    expect((await store.api.patch(`/tax-rates/${texas?.id}`, { rate: 0 })).status).toBe(200);
    expect((await shopper.get(`carts/${token}`)).body).toMatchObject({ total_tax: 0 });
  });

  it('shows a change made in the database by anyone else on the next read', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    expect((await shopper.get(`carts/${token}`)).body).toMatchObject({ subtotal: 18 });
    // Another process, as another instance or a script would: its own connection (PostgreSQL), or the same
    // embedded database's (PGlite, which has one connection).
    const other = t.database.url ? createPostgresDatabase(t.database.url, { poolSize: 1 }) : t.db;
    try {
      await other.query('UPDATE offers SET price = 2500 WHERE organization_id = $1 AND id = $2', [
        store.org.id,
        store.offers.beans.id,
      ]);
      expect((await shopper.get(`carts/${token}`)).body).toMatchObject({ subtotal: 25 });
      await other.query(
        'UPDATE cart_offers SET quantity = 4 WHERE organization_id = $1 AND cart_id = (SELECT id FROM carts WHERE token = $2)',
        [store.org.id, token],
      );
      expect((await shopper.get(`carts/${token}`)).body).toMatchObject({ subtotal: 100 });
    } finally {
      if (other !== t.db) await other.close();
    }
  });

  it('shows what the clock alone changes: the code window ends, the cart expires', async () => {
    const { store, shopper } = await setup();
    await store.create('/discount-codes', {
      code: 'TODAYONLY',
      kind: 'percent',
      percent_off: 10,
      ends_at: new Date(t.clock.now().getTime() + 3_600_000).toISOString(),
    });
    const token = await store.cart([{ offer_id: store.offers.beans.id }], { discount_code: 'TODAYONLY' });
    expect((await shopper.get(`carts/${token}`)).body).toMatchObject({ total_discount: 1.8 });
    t.clock.advance(3_600_000);
    const later = await shopperSession(t.app, store.org.publicId);
    const ended = CartSchema.parse((await later.get(`carts/${token}`)).body);
    expect(ended.total_discount).toBe(0);
    expect(ended.discount_notice?.code).toBe('discount_code_expired');

    t.clock.advance(31 * 86_400_000);
    const muchLater = await shopperSession(t.app, store.org.publicId);
    expect((await muchLater.get(`carts/${token}`)).status).toBe(404);
  });

  it('answers the completed order on every read after the order', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    expect((await shopper.get(`carts/${token}`)).body.order).toMatchObject({ status: 'open' });
    const order = await shopper.post('orders', orderBody(token));
    expect(order.status).toBe(200);
    for (let read = 0; read < 2; read++) {
      const cart = await shopper.get(`carts/${token}`);
      expect(cart.body.order).toMatchObject({ status: 'complete', order_id: order.body.order.order_id });
      expect(cart.body.total).toBe(order.body.total);
    }
  });
});
