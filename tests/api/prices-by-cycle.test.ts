import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CartSchema, PreviewResponseSchema } from '../../src/contract/cart.js';
import { OfferSchema, SubscriptionSchema } from '../../src/contract/merchant.js';
import {
  createPaymentGateways,
  type PaymentGateways,
} from '../../src/server/platform/payments/select-gateway.js';
import { DECLINING_TOKEN_PREFIX } from '../../src/server/platform/payments/test-gateway.js';
import { runRebills } from '../../src/server/modules/subscriptions/rebill-service.js';
import { LONDON_BILLING, orderBody } from '../helpers/order-body.js';
import { shopperSession } from '../helpers/shopper.js';
import { createStore, type Store } from '../helpers/store.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

// Prices by cycle (docs/subscriptions.md): a trial, discounted cycles, an end, rebilled exactly.
const DAY = 86_400_000;
let t: TestApp;
let gateways: PaymentGateways;

beforeAll(async () => {
  t = await createTestApp();
  gateways = createPaymentGateways(t.config, { db: t.db, clock: t.clock });
});

afterAll(async () => {
  await t.close();
});

const rebill = () => runRebills({ db: t.db, gateways, clock: t.clock });

/**
 * $1 for 14 days, then 2 cycles at $19.99, then $29.99 every 30 days, 5 cycles in all; $2 offer shipping, taxable
 * (Texas, 8.25%): cycle 1 is 1.00 + 2.00 + 0.08 = 3.08, cycles 2-3 19.99 + 2.00 + 1.65 = 23.64, cycles 4-5
 * 29.99 + 2.00 + 2.47 = 34.46.
 */
const TRIAL = {
  offer_name: 'Trial club',
  item_name: 'Coffee club trial',
  price: 1,
  is_recurring: true,
  billing_interval_days: 30,
  next_price: 29.99,
  trial_days: 14,
  discounted_cycles: 2,
  discounted_price: 19.99,
  total_cycles: 5,
  shipping_price: 2,
};

async function subscribeTo(store: Store, offerId: number, extra: Record<string, unknown> = {}) {
  const shopper = await shopperSession(t.app, store.org.publicId);
  const token = await store.cart([{ offer_id: offerId }]);
  const preview = await shopper.get(`carts/${token}/preview`, { ship_country: 'US', ship_state: 'TX' });
  const placed = await shopper.post(
    'orders',
    orderBody(token, { subscription_terms_accepted: true, ...extra }),
  );
  expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  const detail = (await store.api.get(`/orders/${placed.body.order.order_id}`)).body;
  return {
    preview: PreviewResponseSchema.parse(preview.body),
    placed: CartSchema.parse(placed.body),
    detail,
  };
}

async function read(store: Store, id: number) {
  return SubscriptionSchema.parse((await store.api.get(`/subscriptions/${id}`)).body);
}

async function advanceTo(store: Store, id: number) {
  const due = new Date((await read(store, id)).next_charge_at).getTime();
  if (due > t.clock.now().getTime()) t.clock.set(new Date(due));
}

async function webhookData(organizationId: number, type: string) {
  const { rows } = await t.db.query<{ payload: { data: Record<string, unknown> } }>(
    `SELECT payload FROM webhook_deliveries WHERE organization_id = $1 AND event_type = $2 ORDER BY id`,
    [organizationId, type],
  );
  return rows.map((row) => row.payload.data);
}

describe('offer fields', () => {
  it('keeps a recurring offer’s cycles and says them in words', async () => {
    const store = await createStore(t.app, t.db);
    const offer = OfferSchema.parse(await store.create('/offers', TRIAL));
    expect(offer).toMatchObject({
      trial_days: 14,
      discounted_cycles: 2,
      discounted_price: 19.99,
      total_cycles: 5,
      billing_plan_description:
        '$1.00 today for 14 days, then $19.99 every 30 days for 2 payments, then $29.99 every 30 days for 2 payments; 5 payments in all',
    });
    const cleared = await store.api.patch(`/offers/${offer.id}`, { is_recurring: false });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({
      trial_days: null,
      discounted_cycles: null,
      discounted_price: null,
      total_cycles: null,
      billing_plan_description: null,
    });
  });

  it('says in a checkout link’s preview what comes after the trial, before tax', async () => {
    const store = await createStore(t.app, t.db);
    const offer = await store.create('/offers', TRIAL);
    const link = await store.create('/checkout-links', { name: 'Trial', offers: [{ offer_id: offer.id }] });
    const preview = (await store.api.get(`/checkout-links/${link.id}/preview`)).body;
    expect(preview.later_charges).toEqual([
      {
        offer_id: offer.id,
        item_name: 'Coffee club trial',
        amount: 21.99,
        interval_days: 30,
        plan_description:
          'from day 14: $21.99 every 30 days for 2 payments, then $31.99 every 30 days for 2 payments; 5 payments in all, the first included',
      },
    ]);
  });

  it('refuses cycles a person can fix, naming each field', async () => {
    const store = await createStore(t.app, t.db);
    const oneOff = await store.api.post('/offers', {
      offer_name: 'Mug',
      item_name: 'Mug',
      price: 9,
      trial_days: 7,
    });
    expect(oneOff.status).toBe(422);
    expect(oneOff.body.fields).toEqual({
      trial_days: 'Only recurring offers have a trial. Set is_recurring to true.',
    });

    const noPrice = await store.api.post('/offers', { ...TRIAL, discounted_price: null });
    expect(noPrice.status).toBe(422);
    expect(noPrice.body.fields).toEqual({
      discounted_price: 'Give the price of the discounted cycles, or remove discounted_cycles.',
    });

    const tooShort = await store.api.post('/offers', { ...TRIAL, total_cycles: 2 });
    expect(tooShort.status).toBe(422);
    expect(tooShort.body.fields.total_cycles).toBe(
      '2 cycles in all leave room for at most 1 discounted cycles after the first: raise total_cycles or lower discounted_cycles.',
    );

    const once = await store.api.post('/offers', {
      ...TRIAL,
      discounted_cycles: null,
      discounted_price: null,
      total_cycles: 1,
    });
    expect(once.status).toBe(422);
    expect(once.body.fields.total_cycles).toMatch(/at least 2 cycles/);

    const cents = await store.api.post('/offers', { ...TRIAL, discounted_price: 19.999 });
    expect(cents.status).toBe(422);
    expect(cents.body.fields.discounted_price).toMatch(/2 decimal places/);
  });
});

describe('a trial with discounted cycles and an end', () => {
  it('charges exactly each cycle’s amount on each cycle’s date, then ends and charges nothing more', async () => {
    const store = await createStore(t.app, t.db);
    const endpoint = await store.api.post('/webhook-endpoints', {
      url: 'https://hooks.example.com/cycles',
      events: ['subscription.created', 'subscription.renewed', 'subscription.cancelled'],
    });
    expect(endpoint.status).toBe(201);
    const offer = await store.create('/offers', TRIAL);
    const orderedAt = t.clock.now().getTime();
    const { preview, placed, detail } = await subscribeTo(store, offer.id);

    // The cart answer says what is charged today and after, for the page.
    const plan = {
      phases: [
        { cycles: 1, amount: 3.08, interval_days: 14 },
        { cycles: 2, amount: 23.64, interval_days: 30 },
        { cycles: 2, amount: 34.46, interval_days: 30 },
      ],
      total_cycles: 5,
      has_special_cycles: true,
      description:
        '$3.08 today for 14 days, then $23.64 every 30 days for 2 payments, then $34.46 every 30 days for 2 payments; 5 payments in all',
    };
    expect(preview.offers[0]).toMatchObject({ total: 3.08, next_cycle_total: 23.64, billing_plan: plan });
    // Today: the line and the $5 standard shipping.
    expect(placed.total).toBe(8.08);
    expect(placed.order.subscriptions).toEqual([
      expect.objectContaining({
        amount: 23.64,
        next_charge_at: new Date(orderedAt + 14 * DAY).toISOString(),
      }),
    ]);
    expect(detail.lines[0]).toMatchObject({ total: 3.08, next_cycle_total: 23.64, billing_plan: plan });

    const id = detail.subscription_ids[0] as number;
    expect(await read(store, id)).toMatchObject({
      cycle: 1,
      cycle_amount: 23.64,
      next_charge_at: new Date(orderedAt + 14 * DAY).toISOString(),
      next_cycle: { cycle: 2, amount: 23.64, interval_days: 30, is_last: false },
      billing_plan: plan,
      plan_remaining:
        '$23.64 every 30 days for 2 payments, then $34.46 every 30 days for 2 payments, the last one',
      end_reason: null,
    });

    // The merchant changes the offer: the subscriber's plan was kept with the order.
    await store.api.patch(`/offers/${offer.id}`, { next_price: 99, discounted_price: 50, total_cycles: 20 });

    const expected = [
      { cycle: 2, amount: 23.64, nextAfterDays: 14 + 30 },
      { cycle: 3, amount: 23.64, nextAfterDays: 14 + 60 },
      { cycle: 4, amount: 34.46, nextAfterDays: 14 + 90 },
    ];
    for (const step of expected) {
      await advanceTo(store, id);
      await rebill();
      const state = await read(store, id);
      expect(state).toMatchObject({ status: 'active', cycle: step.cycle });
      expect(state.charges.at(-1)).toMatchObject({
        cycle: step.cycle,
        amount: step.amount,
        status: 'approved',
      });
      expect(state.next_charge_at).toBe(new Date(orderedAt + step.nextAfterDays * DAY).toISOString());
    }
    expect((await read(store, id)).next_cycle).toEqual({
      cycle: 5,
      amount: 34.46,
      interval_days: 30,
      is_last: true,
    });

    await advanceTo(store, id);
    await rebill();
    const ended = await read(store, id);
    expect(ended).toMatchObject({
      status: 'cancelled',
      cycle: 5,
      end_reason: 'plan_completed',
      next_cycle: null,
      plan_remaining: null,
      cancelled_at: t.clock.now().toISOString(),
    });
    expect(ended.charges.map((charge) => [charge.cycle, charge.amount])).toEqual([
      [2, 23.64],
      [3, 23.64],
      [4, 34.46],
      [5, 34.46],
    ]);

    // Nothing more, however long the runner keeps running.
    t.clock.advance(90 * DAY);
    await rebill();
    expect((await read(store, id)).charges).toHaveLength(4);

    const created = await webhookData(store.org.id, 'subscription.created');
    expect(created).toEqual([
      expect.objectContaining({
        subscription_id: id,
        cycle: 1,
        cycle_paid_amount: 3.08,
        cycle_amount: 23.64,
        next_cycle: { cycle: 2, amount: 23.64, interval_days: 30, is_last: false },
      }),
    ]);
    const renewed = await webhookData(store.org.id, 'subscription.renewed');
    expect(renewed.map((data) => data.charged)).toEqual([
      { cycle: 2, amount: 23.64 },
      { cycle: 3, amount: 23.64 },
      { cycle: 4, amount: 34.46 },
      { cycle: 5, amount: 34.46 },
    ]);
    expect(renewed.at(-1)).toMatchObject({ cycle: 5, status: 'cancelled', end_reason: 'plan_completed' });
    expect(await webhookData(store.org.id, 'subscription.cancelled')).toEqual([
      expect.objectContaining({ id, end_reason: 'plan_completed' }),
    ]);
  });
});

describe('a free trial', () => {
  it('stores the card with a $0 order and charges cycle 2 when the trial ends', async () => {
    const store = await createStore(t.app, t.db);
    const offer = await store.create('/offers', {
      offer_name: 'Free week',
      item_name: 'Streaming',
      price: 0,
      is_recurring: true,
      billing_interval_days: 30,
      next_price: 12.5,
      trial_days: 7,
      requires_shipping: false,
      is_taxable: false,
    });
    const orderedAt = t.clock.now().getTime();
    const { placed, detail } = await subscribeTo(store, offer.id, LONDON_BILLING);
    expect(placed.total).toBe(0);
    expect(placed.offers[0]?.billing_plan?.description).toBe('Free for 7 days, then $12.50 every 30 days');
    const id = detail.subscription_ids[0] as number;
    const started = await read(store, id);
    expect(started.payment_method).toEqual({ method: 'card', card_brand: 'visa', card_last4: '1111' });
    expect(started.next_charge_at).toBe(new Date(orderedAt + 7 * DAY).toISOString());

    await advanceTo(store, id);
    await rebill();
    const after = await read(store, id);
    expect(after.charges).toEqual([expect.objectContaining({ cycle: 2, amount: 12.5, status: 'approved' })]);
    expect(after.next_charge_at).toBe(new Date(orderedAt + 37 * DAY).toISOString());
    expect(after.next_cycle).toEqual({ cycle: 3, amount: 12.5, interval_days: 30, is_last: false });
  });
});

describe('a trial whose first rebill is declined', () => {
  it('goes through the dunning as any renewal does, then past due', async () => {
    const store = await createStore(t.app, t.db);
    const offer = await store.create('/offers', TRIAL);
    const { detail } = await subscribeTo(store, offer.id);
    const id = detail.subscription_ids[0] as number;
    const { rows } = await t.db.query<{ gateway_token: string }>(
      `SELECT gateway_token FROM payment_methods WHERE id = (SELECT payment_method_id FROM subscriptions WHERE id = $1)`,
      [id],
    );
    const workingToken = rows[0]?.gateway_token;
    await t.db.query(
      `UPDATE payment_methods SET gateway_token = $2
        WHERE id = (SELECT payment_method_id FROM subscriptions WHERE id = $1)`,
      [id, `${DECLINING_TOKEN_PREFIX}${id}`],
    );
    for (const [retry, days] of [
      [1, 1],
      [2, 3],
      [3, 7],
    ] as const) {
      await advanceTo(store, id);
      const dueAt = t.clock.now().getTime();
      await rebill();
      const state = await read(store, id);
      expect(state).toMatchObject({ status: 'active', retry_count: retry, cycle: 1 });
      expect(state.next_charge_at).toBe(new Date(dueAt + days * DAY).toISOString());
      expect(state.charges.at(-1)).toMatchObject({ cycle: 2, amount: 23.64, status: 'declined' });
    }
    await advanceTo(store, id);
    await rebill();
    const final = await read(store, id);
    expect(final).toMatchObject({ status: 'past_due', retry_count: 4, cycle: 1, end_reason: null });
    expect(final.charges.map((charge) => [charge.cycle, charge.attempt, charge.amount])).toEqual([
      [2, 1, 23.64],
      [2, 2, 23.64],
      [2, 3, 23.64],
      [2, 4, 23.64],
    ]);

    // Resumed with a working card, it charges cycle 2 at its price and keeps the plan from there.
    await t.db.query(
      `UPDATE payment_methods SET gateway_token = $2
        WHERE id = (SELECT payment_method_id FROM subscriptions WHERE id = $1)`,
      [id, workingToken],
    );
    expect((await store.api.post(`/subscriptions/${id}/resume`, {})).status).toBe(200);
    await rebill();
    expect(await read(store, id)).toMatchObject({
      status: 'active',
      cycle: 2,
      next_cycle: { cycle: 3, amount: 23.64, interval_days: 30, is_last: false },
    });
  });
});

describe('the plan in the shopper’s language', () => {
  const spaced = (text: string | undefined) => text?.replace(/[\u00a0\u202f]/g, ' ');
  const planOf = (body: unknown) => spaced(CartSchema.parse(body).offers[0]?.billing_plan?.description);

  it('says the cart’s plan in the page’s language, follows a switch, and welcomes the subscriber in it', async () => {
    const store = await createStore(t.app, t.db);
    const offer = await store.create('/offers', TRIAL);
    const shopper = await shopperSession(t.app, store.org.publicId);
    const token = await store.cart([{ offer_id: offer.id }]);
    // The page tells the cart the language it opened in, then reloads it.
    const opened = await shopper.put(`carts/${token}/language`, { language: 'es' });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    const spanish =
      '3,00 US$ hoy durante 14 días, luego 21,99 US$ cada 30 días durante 2 pagos y luego 31,99 US$ cada 30 días durante 2 pagos; 5 pagos en total';
    expect(planOf(opened.body)).toBe(spanish);
    expect(planOf((await shopper.get(`carts/${token}`)).body)).toBe(spanish);
    // The switcher: the cart comes back in the new language.
    const switched = await shopper.put(`carts/${token}/language`, { language: 'ja' });
    expect(planOf(switched.body)).toBe(
      '本日$3.00（14日間） その後30日ごとに$21.99（2回） その後30日ごとに$31.99（2回）、お支払いは合計5回',
    );
    await shopper.put(`carts/${token}/language`, { language: 'es' });
    const placed = await shopper.post('orders', orderBody(token, { subscription_terms_accepted: true }));
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const detail = (await store.api.get(`/orders/${placed.body.order.order_id}`)).body;
    const id = detail.subscription_ids[0] as number;
    // The welcome's words of the plan are in its email's language; the merchant's API stays English.
    const { rows } = await t.db.query<{ payload: { later_cycles?: string } }>(
      `SELECT payload FROM jobs WHERE kind = 'email.subscription_welcome' AND (payload ->> 'subscription_id')::bigint = $1`,
      [id],
    );
    expect(spaced(rows[0]?.payload.later_cycles)).toMatch(
      /^[\d,]+ US\$ cada 30 días durante 2 pagos y luego [\d,]+ US\$ cada 30 días durante 2 pagos; 5 pagos en total, incluido el primero$/,
    );
    expect((await read(store, id)).billing_plan?.description).toMatch(/^\$[\d.]+ today for 14 days, then /);
  });
});
