import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayCharges, withWorkDuringCharges } from '../helpers/gateway-charges.js';
import { orderBody } from '../helpers/order-body.js';
import { storeWithShopper } from '../helpers/store.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createTestDatabase } from '../helpers/test-database.js';

// An attempt's payment is approved after its lease ran out and another attempt took the order over (a new lease,
// the order rewritten). The approval is recorded as ever (the order completes), but the order is no longer as this
// attempt wrote it: its answer is read back rather than made from what the attempt holds.
let t: TestApp;
let charges: ReturnType<typeof withWorkDuringCharges>;

beforeAll(async () => {
  const database = await createTestDatabase();
  charges = withWorkDuringCharges(database.db);
  t = await createTestApp({ database: { ...database, db: charges.db } });
});

afterAll(async () => {
  await t.close();
});

describe('an approved payment of an order another attempt took over meanwhile', () => {
  it('completes the order and answers it as read back', async () => {
    const { store, shopper } = await storeWithShopper(t.app, t.db);
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    // What the other attempt committed meanwhile: its own lease, another shipping option, a cent more tax.
    charges.meanwhile(async (db) => {
      await db.query(
        `UPDATE orders o SET payment_lease_until = o.payment_lease_until + interval '1 second',
                shipping_profile_id = (SELECT p.id FROM shipping_profiles p
                                        WHERE p.organization_id = o.organization_id AND p.name = 'Express'),
                total_tax = o.total_tax + 1, total = o.total + 1
           FROM carts c WHERE c.id = o.cart_id AND c.token = $1`,
        [token],
      );
    });
    const placed = await shopper.post('orders', orderBody(token), { 'idempotency-key': `takeover-${token}` });
    expect(charges.pending()).toBe(false);
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    expect(placed.body.order.status).toBe('complete');
    // 18.00 + 5.00 shipping + 1.49 Texas tax, and the cent the other attempt added.
    expect(placed.body.total).toBe(24.5);
    expect(placed.body.order.shipping_profile_id).toBe(String(store.profiles.express.id));
    expect(JSON.stringify(placed.body)).toBe(JSON.stringify((await shopper.get(`carts/${token}`)).body));

    const detail = (await store.api.get(`/orders/${placed.body.order.order_id as number}`)).body;
    expect(detail.status).toBe('complete');
    expect(detail.payment_attempts).toEqual([expect.objectContaining({ status: 'approved', amount: 24.49 })]);
    expect(await gatewayCharges(t.db, store.org.id)).toBe(1);
  });
});
