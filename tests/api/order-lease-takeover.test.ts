import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  gatewayCharges,
  testAppWithWorkDuringCharges,
  type withWorkDuringCharges,
} from '../helpers/gateway-charges.js';
import { CARDS, card, orderBody } from '../helpers/order-body.js';
import { storeWithShopper } from '../helpers/store.js';
import type { TestApp } from '../helpers/test-app.js';

// An attempt's payment is approved after its lease ran out and another attempt took the order over (a new lease,
// the order rewritten). The approval is recorded as ever (the order completes), but the order is no longer as this
// attempt wrote it: its answer is read back rather than made from what the attempt holds.
let t: TestApp;
let charges: ReturnType<typeof withWorkDuringCharges>;

beforeAll(async () => {
  ({ t, charges } = await testAppWithWorkDuringCharges());
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

describe('a declined payment of an order another attempt took over meanwhile', () => {
  it('is recorded, and leaves the order, its lease and its discount code use to that attempt', async () => {
    const { store, shopper } = await storeWithShopper(t.app, t.db);
    const code = await store.create('/discount-codes', {
      code: 'TAKENOVER',
      kind: 'fixed',
      amount_off: 1,
      usage_limit: 5,
    });
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    await shopper.put(`carts/${token}/discount_code`, { discount_code: 'takenover' });
    // The other attempt takes the order over (its own lease), keeping the code use this one reserved.
    let otherLease: Date | null = null;
    charges.meanwhile(async (db) => {
      const { rows } = await db.query<{ payment_lease_until: Date }>(
        `UPDATE orders o SET payment_lease_until = o.payment_lease_until + interval '1 second'
           FROM carts c WHERE c.id = o.cart_id AND c.token = $1 RETURNING o.payment_lease_until`,
        [token],
      );
      otherLease = rows[0]!.payment_lease_until;
    });
    const declined = await shopper.post('orders', orderBody(token, { payment: card(CARDS.declined) }), {
      'idempotency-key': `takeover-declined-${token}`,
    });
    expect(charges.pending()).toBe(false);
    expect(declined.status, JSON.stringify(declined.body)).toBe(402);

    const { rows } = await t.db.query<{
      status: string;
      payment_lease_until: Date | null;
      discount_reserved: boolean;
    }>(
      `SELECT o.status, o.payment_lease_until, o.discount_reserved FROM orders o JOIN carts c ON c.id = o.cart_id
        WHERE c.token = $1`,
      [token],
    );
    expect(rows[0]).toEqual({ status: 'pending', payment_lease_until: otherLease, discount_reserved: true });
    // The use is still held, for the other attempt: not given back, not yet used.
    const { rows: uses } = await t.db.query<{ usage_count: number; held_count: number }>(
      'SELECT usage_count, held_count FROM discount_codes WHERE id = $1',
      [code.id],
    );
    expect(uses[0]).toEqual({ usage_count: 0, held_count: 1 });
    const orderId = (await shopper.get(`carts/${token}`)).body.order.order_id as number;
    const detail = (await store.api.get(`/orders/${orderId}`)).body;
    expect(detail.payment_attempts).toEqual([expect.objectContaining({ status: 'declined' })]);
  });
});
