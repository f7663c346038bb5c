import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CartSchema, PreviewResponseSchema } from '../../src/contract/cart.js';
import { OfferSchema, OrderDetailSchema, SubscriptionSchema } from '../../src/contract/merchant.js';
import { createJobHandlers } from '../../src/server/job-handlers.js';
import { createJobWorker } from '../../src/server/platform/jobs/job-worker.js';
import { createLogger } from '../../src/server/platform/logging.js';
import {
  createPaymentGateways,
  type PaymentGateways,
} from '../../src/server/platform/payments/select-gateway.js';
import { DECLINING_TOKEN_PREFIX } from '../../src/server/platform/payments/test-gateway.js';
import { runRebills } from '../../src/server/modules/subscriptions/rebill-service.js';
import { scheduleChargeReminders } from '../../src/server/modules/emails/charge-reminders.js';
import { subscriptionEmailJob } from '../../src/server/modules/emails/subscription-email-enqueue.js';
import { orderBody } from '../helpers/order-body.js';
import { shopperSession } from '../helpers/shopper.js';
import { createStore, type Store } from '../helpers/store.js';
import { createTestApp, injectJson, subscriberLinksOf, type TestApp } from '../helpers/test-app.js';
import { SubscriberSubscriptionSchema } from '../../src/contract/subscriber.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';

// Prepaid plans (docs/subscriptions.md, "Prepaid plans"): one payment for 3 cycles, $0 fulfilment orders for cycles
// 2 and 3, then the next period charged whole (renew) or the end (end).
const DAY = 86_400_000;
let t: TestApp;
let gateways: PaymentGateways;

beforeAll(async () => {
  t = await createTestApp({ config: { webhooks: { requireHttps: false, allowPrivateUrls: true } } });
  gateways = createPaymentGateways(t.config, { db: t.db, clock: t.clock });
});

afterAll(async () => {
  await t.close();
});

const rebill = () => runRebills({ db: t.db, gateways, clock: t.clock });

/**
 * 3 months for $89.97, shipped monthly, then $84.00 per 3 months; $2 offer shipping per payment, taxable (Texas,
 * 8.25%): the order's line is 89.97 + 2.00 + 7.42 = 99.39, each renewal 84.00 + 2.00 + 6.93 = 92.93.
 */
const PREPAID = {
  offer_name: 'Prepaid club',
  item_name: 'Coffee club, 3 months',
  price: 89.97,
  next_price: 84,
  is_recurring: true,
  billing_interval_days: 30,
  prepaid_cycles: 3,
  prepaid_renewal: 'renew',
  shipping_price: 2,
};

async function subscribeTo(store: Store, offerId: number) {
  const shopper = await shopperSession(t.app, store.org.publicId);
  const token = await store.cart([{ offer_id: offerId }]);
  const preview = await shopper.get(`carts/${token}/preview`, { ship_country: 'US', ship_state: 'TX' });
  const placed = await shopper.post('orders', orderBody(token, { subscription_terms_accepted: true }));
  expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  const detail = OrderDetailSchema.parse((await store.api.get(`/orders/${placed.body.order.order_id}`)).body);
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

async function fulfilmentOrders(store: Store, subscriptionId: number) {
  const { rows } = await t.db.query<{ id: number; fulfilment_cycle: number }>(
    `SELECT id, fulfilment_cycle FROM orders WHERE organization_id = $1 AND fulfilment_of_subscription_id = $2
      ORDER BY fulfilment_cycle`,
    [store.org.id, subscriptionId],
  );
  return rows.map((row) => ({ id: Number(row.id), cycle: row.fulfilment_cycle }));
}

/** The facts of the subscriber's welcome email, as enqueued with the order. */
async function welcomeFacts(subscriptionId: number) {
  const { rows } = await t.db.query<{ payload: Record<string, unknown> }>(
    `SELECT payload FROM jobs WHERE kind = $1 AND (payload ->> 'subscription_id')::bigint = $2`,
    [subscriptionEmailJob('welcome'), subscriptionId],
  );
  return rows[0]?.payload;
}

describe('offer fields', () => {
  it('keeps the prepaid terms, says them in words and defaults the renewal', async () => {
    const store = await createStore(t.app, t.db);
    const { prepaid_renewal: _renewal, ...withoutRenewal } = PREPAID;
    const offer = OfferSchema.parse(await store.create('/offers', withoutRenewal));
    expect(offer).toMatchObject({
      prepaid_cycles: 3,
      prepaid_renewal: 'renew',
      billing_plan_description: '3 months for $89.97, shipped monthly; renews every 3 months at $84.00',
    });
    const ending = await store.api.patch(`/offers/${offer.id}`, { prepaid_renewal: 'end' });
    expect(ending.body).toMatchObject({
      prepaid_renewal: 'end',
      billing_plan_description:
        '3 months for $89.97, shipped monthly; ends after the last delivery, nothing more charged',
    });
    const link = await store.create('/checkout-links', { name: 'Prepaid', offers: [{ offer_id: offer.id }] });
    const renewing = await store.api.patch(`/offers/${offer.id}`, { prepaid_renewal: 'renew' });
    expect(renewing.status).toBe(200);
    // The link's preview (no address: no tax) names the next whole period's charge, every 90 days.
    expect((await store.api.get(`/checkout-links/${link.id}/preview`)).body.later_charges).toEqual([
      {
        offer_id: offer.id,
        item_name: 'Coffee club, 3 months',
        amount: 86,
        interval_days: 90,
        plan_description: '3 months for $91.97, shipped monthly; renews every 3 months at $86.00',
      },
    ]);
    const cleared = await store.api.patch(`/offers/${offer.id}`, { prepaid_cycles: null });
    expect(cleared.body).toMatchObject({ prepaid_cycles: null, prepaid_renewal: null });
  });

  it('refuses prepaid terms on a one-off offer, out of range, or with a trial, discounted cycles or an end', async () => {
    const store = await createStore(t.app, t.db);
    const oneOff = await store.api.post('/offers', {
      ...PREPAID,
      is_recurring: false,
      billing_interval_days: null,
      next_price: null,
    });
    expect(oneOff.status).toBe(422);
    expect(oneOff.body.fields.prepaid_cycles).toMatch(/Only recurring offers can be prepaid/);
    const tooMany = await store.api.post('/offers', { ...PREPAID, prepaid_cycles: 25 });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.fields.prepaid_cycles).toMatch(/from 2 to 24/);
    const mixed = await store.api.post('/offers', {
      ...PREPAID,
      trial_days: 14,
      discounted_cycles: 1,
      discounted_price: 10,
      total_cycles: 6,
    });
    expect(mixed.status).toBe(422);
    expect(mixed.body.fields).toMatchObject({
      trial_days: expect.stringMatching(/cannot also have a trial/),
      discounted_cycles: expect.stringMatching(/cannot also have discounted cycles/),
      total_cycles: expect.stringMatching(/prepaid_renewal to "end"/),
    });
    const renewalAlone = await store.api.post('/offers', { ...PREPAID, prepaid_cycles: null });
    expect(renewalAlone.status).toBe(422);
    expect(renewalAlone.body.fields.prepaid_cycles).toMatch(/how many cycles/);
  });
});

describe('a prepaid plan that renews', () => {
  it('charges once, ships cycles 2 and 3 as $0 orders exactly once, then charges the next period', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const store = await createStore(t.app, t.db);
      await store.create('/webhook-endpoints', { url: receiver.url, events: ['order.completed'] });
      const offer = await store.create('/offers', PREPAID);
      const orderedAt = t.clock.now().getTime();
      const { preview, placed, detail } = await subscribeTo(store, offer.id);

      // The page's words, from the server.
      expect(preview.offers[0]?.billing_plan).toMatchObject({
        description: '3 months for $99.39, shipped monthly; renews every 3 months at $92.93',
        prepaid: { cycles: 3, renewal: 'renew', interval_days: 30 },
      });
      // Charged once: the line's items, offer shipping and tax (the store's shipping is free over $50).
      expect(placed.total).toBe(99.39);
      expect(detail.lines[0]).toMatchObject({ total: 99.39 });
      expect(detail.payment_attempts.map((attempt) => attempt.amount)).toEqual([99.39]);
      expect(detail.kind).toBe('order');
      // The confirmation's next charge is the next period's, not the next fulfilment.
      expect(placed.order.subscriptions).toMatchObject([
        { amount: 92.93, interval_days: 90, next_charge_at: new Date(orderedAt + 90 * DAY).toISOString() },
      ]);
      const id = detail.subscription_ids[0] as number;
      const started = await read(store, id);
      expect(started).toMatchObject({
        cycle: 1,
        cycle_amount: 92.93,
        next_charge_at: new Date(orderedAt + 30 * DAY).toISOString(),
        prepaid: {
          cycles: 3,
          renewal: 'renew',
          shipped_cycle: 1,
          next: { kind: 'fulfilment', cycle: 2, amount: 0 },
        },
      });

      // The welcome names the next period's charge and its date, not the fulfilment before it.
      expect(await welcomeFacts(id)).toMatchObject({
        next_charge_at: new Date(orderedAt + 90 * DAY).toISOString(),
        later_cycles: '$92.93 for each next 3 months, shipped monthly',
      });

      // Cycle 2: two runs at once make one $0 order.
      await advanceTo(store, id);
      const [first, second] = await Promise.all([rebill(), rebill()]);
      expect(first.fulfilled + second.fulfilled).toBe(1);
      expect(first.approved + second.approved).toBe(0);
      // Cycle 3, then a run again on the same day: nothing more.
      await advanceTo(store, id);
      await Promise.all([rebill(), rebill()]);
      await rebill();
      const fulfilments = await fulfilmentOrders(store, id);
      expect(fulfilments.map((order) => order.cycle)).toEqual([2, 3]);
      const atThree = await read(store, id);
      expect(atThree).toMatchObject({
        status: 'active',
        cycle: 1,
        charges: [],
        next_charge_at: new Date(orderedAt + 90 * DAY).toISOString(),
        prepaid: { shipped_cycle: 3, next: { kind: 'charge', cycle: 4, amount: 92.93 } },
      });

      const fulfilment = OrderDetailSchema.parse((await store.api.get(`/orders/${fulfilments[0]?.id}`)).body);
      expect(fulfilment).toMatchObject({
        status: 'complete',
        total: 0,
        kind: 'prepaid_fulfilment',
        fulfilment_of_subscription_id: id,
        fulfilment_of_order_id: detail.order_id,
        fulfilment_cycle: 2,
        subscription_ids: [],
      });
      expect(fulfilment.lines).toMatchObject([
        { offer_id: offer.id, unit_price: 0, total: 0, is_recurring: false },
      ]);
      expect(fulfilment.shipping_address).toEqual(detail.shipping_address);

      // Cycle 4: one charge for the next 3 cycles.
      await advanceTo(store, id);
      const renewal = await rebill();
      expect(renewal).toMatchObject({ approved: 1, fulfilled: 0 });
      const renewed = await read(store, id);
      expect(renewed).toMatchObject({
        status: 'active',
        cycle: 2,
        next_charge_at: new Date(orderedAt + 120 * DAY).toISOString(),
        prepaid: { shipped_cycle: 4, next: { kind: 'fulfilment', cycle: 5 } },
      });
      expect(renewed.charges.map((charge) => [charge.cycle, charge.amount, charge.status])).toEqual([
        [2, 92.93, 'approved'],
      ]);
      await advanceTo(store, id);
      await rebill();
      expect((await fulfilmentOrders(store, id)).map((order) => order.cycle)).toEqual([2, 3, 5]);

      // The merchant's systems hear each fulfilment as an order.completed with its marker.
      const { handlers } = createJobHandlers(t.config, subscriberLinksOf(t));
      const worker = createJobWorker(t.db, handlers, {
        clock: t.clock,
        logger: createLogger({ level: 'silent' }),
      });
      await worker.drain();
      await worker.drain();
      const events = receiver.received.map((message) => JSON.parse(message.body).data);
      expect(events.find((data) => data.order_id === fulfilments[1]?.id)).toMatchObject({
        kind: 'prepaid_fulfilment',
        fulfilment_of_subscription_id: id,
        fulfilment_cycle: 3,
        total: 0,
      });
      expect(events.find((data) => data.order_id === detail.order_id)).toMatchObject({ kind: 'order' });
    } finally {
      await receiver.close();
    }
  });

  it('puts a declined renewal through the dunning for the whole period’s amount', async () => {
    const store = await createStore(t.app, t.db);
    const offer = await store.create('/offers', PREPAID);
    const { detail } = await subscribeTo(store, offer.id);
    const id = detail.subscription_ids[0] as number;
    await advanceTo(store, id);
    await rebill();
    await advanceTo(store, id);
    await rebill();
    await t.db.query(
      `UPDATE payment_methods SET gateway_token = $2
        WHERE id = (SELECT payment_method_id FROM subscriptions WHERE id = $1)`,
      [id, `${DECLINING_TOKEN_PREFIX}${id}`],
    );
    for (const retry of [1, 2, 3]) {
      await advanceTo(store, id);
      await rebill();
      expect(await read(store, id)).toMatchObject({
        status: 'active',
        retry_count: retry,
        cycle: 1,
        prepaid: { shipped_cycle: 3, next: { kind: 'charge', cycle: 4 } },
      });
    }
    await advanceTo(store, id);
    await rebill();
    const final = await read(store, id);
    expect(final).toMatchObject({ status: 'past_due', retry_count: 4, cycle: 1 });
    expect(
      final.charges.map((charge) => [charge.cycle, charge.attempt, charge.amount, charge.status]),
    ).toEqual([
      [2, 1, 92.93, 'declined'],
      [2, 2, 92.93, 'declined'],
      [2, 3, 92.93, 'declined'],
      [2, 4, 92.93, 'declined'],
    ]);
    // No fulfilment was made for the unpaid period.
    expect((await fulfilmentOrders(store, id)).map((order) => order.cycle)).toEqual([2, 3]);
  });
});

describe('a prepaid plan that ends', () => {
  it('ships its cycles, then ends with the last one and charges nothing more', async () => {
    const store = await createStore(t.app, t.db);
    const offer = await store.create('/offers', { ...PREPAID, prepaid_renewal: 'end' });
    const { preview, placed, detail } = await subscribeTo(store, offer.id);
    // Nothing more will be charged: the confirmation names no next charge.
    expect(placed.order.subscriptions).toEqual([]);
    expect(await welcomeFacts(detail.subscription_ids[0] as number)).toMatchObject({
      paid_in_full: 'Your 3 months are paid for, shipped monthly.',
    });
    expect(preview.offers[0]?.billing_plan?.description).toBe(
      '3 months for $99.39, shipped monthly; ends after the last delivery, nothing more charged',
    );
    const id = detail.subscription_ids[0] as number;
    expect(await read(store, id)).toMatchObject({
      cycle_amount: 0,
      prepaid: { next: { kind: 'fulfilment' } },
    });
    await advanceTo(store, id);
    await rebill();
    await advanceTo(store, id);
    await rebill();
    const ended = await read(store, id);
    expect(ended).toMatchObject({
      status: 'cancelled',
      end_reason: 'plan_completed',
      cancelled_at: t.clock.now().toISOString(),
      prepaid: { shipped_cycle: 3, next: null },
      charges: [],
    });
    t.clock.advance(200 * DAY);
    await rebill();
    expect((await read(store, id)).charges).toEqual([]);
    expect((await fulfilmentOrders(store, id)).map((order) => order.cycle)).toEqual([2, 3]);
  });
});

describe('a runner that crashed', () => {
  it('leaves the cycle to the next run, which ships it once; the database refuses a second order for it', async () => {
    const store = await createStore(t.app, t.db);
    const offer = await store.create('/offers', PREPAID);
    const { detail } = await subscribeTo(store, offer.id);
    const id = detail.subscription_ids[0] as number;
    await advanceTo(store, id);
    // A runner claimed it and died before its transaction committed: only its lease is left.
    await t.db.query('UPDATE subscriptions SET lease_until = $2 WHERE id = $1', [
      id,
      new Date(t.clock.now().getTime() + 10 * 60_000),
    ]);
    await rebill();
    expect(await fulfilmentOrders(store, id)).toEqual([]);
    t.clock.advance(11 * 60_000);
    await rebill();
    await rebill();
    const made = await fulfilmentOrders(store, id);
    expect(made.map((order) => order.cycle)).toEqual([2]);
    await expect(
      t.db.query(`UPDATE orders SET fulfilment_of_subscription_id = $2, fulfilment_cycle = 2 WHERE id = $1`, [
        detail.order_id,
        id,
      ]),
    ).rejects.toThrow(/orders_one_fulfilment_per_cycle|unique/i);

    // A cycle whose order the database refuses (here: cycle 3 already taken) is rolled back whole, and the run goes on.
    await t.db.query(
      `UPDATE orders SET fulfilment_of_subscription_id = $2, fulfilment_cycle = 3 WHERE id = $1`,
      [detail.order_id, id],
    );
    await advanceTo(store, id);
    await rebill();
    expect(await read(store, id)).toMatchObject({ status: 'active', prepaid: { shipped_cycle: 2 } });
    await t.db.query(
      `UPDATE orders SET fulfilment_of_subscription_id = NULL, fulfilment_cycle = NULL WHERE id = $1`,
      [detail.order_id],
    );
    t.clock.advance(11 * 60_000);
    await rebill();
    expect((await fulfilmentOrders(store, id)).map((order) => order.cycle)).toEqual([2, 3]);
  });
});

describe('the upcoming-charge reminder', () => {
  it('is not sent before a $0 fulfilment, only before the next period’s charge', async () => {
    const store = await createStore(t.app, t.db);
    const offer = await store.create('/offers', PREPAID);
    const { detail } = await subscribeTo(store, offer.id);
    const id = detail.subscription_ids[0] as number;
    const reminders = async () => {
      const { rows } = await t.db.query<{ payload: { next_charge_at: string; cycle_amount: string } }>(
        `SELECT payload FROM jobs WHERE kind = $1 AND (payload ->> 'subscription_id')::bigint = $2 ORDER BY id`,
        [subscriptionEmailJob('charge_reminder'), id],
      );
      return rows.map((row) => [row.payload.next_charge_at, Number(row.payload.cycle_amount)]);
    };
    const dayBefore = async () => {
      const due = new Date((await read(store, id)).next_charge_at).getTime();
      t.clock.set(new Date(due - DAY));
      await scheduleChargeReminders(t.db, t.clock.now());
    };
    await dayBefore();
    await advanceTo(store, id);
    await rebill();
    await dayBefore();
    expect(await reminders()).toEqual([]);
    await advanceTo(store, id);
    await rebill();
    await dayBefore();
    const chargeAt = (await read(store, id)).next_charge_at;
    expect(await reminders()).toEqual([[chargeAt, 9293]]);
  });
});

describe('the subscriber’s own page', () => {
  it('names the next period’s charge, refuses a skip, and a cancel at the period’s end keeps the cycles paid for', async () => {
    const store = await createStore(t.app, t.db);
    const offer = await store.create('/offers', PREPAID);
    const orderedAt = t.clock.now().getTime();
    const { detail } = await subscribeTo(store, offer.id);
    const id = detail.subscription_ids[0] as number;
    const link = await store.api.post(`/subscriptions/${id}/manage-link`, {});
    const headers = { authorization: `Bearer ${new URL(link.body.url).pathname.split('/').pop()}` };
    const base = '/checkout/api/subscriber/subscription';
    const act = (action: string, payload: Record<string, unknown> = {}) =>
      injectJson(t.app, { method: 'POST', url: `${base}/${action}`, headers, payload });
    const periodEnd = new Date(orderedAt + 90 * DAY).toISOString();

    const page = SubscriberSubscriptionSchema.parse(
      (await injectJson(t.app, { method: 'GET', url: base, headers })).body,
    );
    expect(page).toMatchObject({ next_charge_at: periodEnd, cycle_amount: 92.93, interval_days: 90 });
    const skip = await act('skip', { next_charge_at: page.next_charge_at });
    expect(skip.status).toBe(409);
    expect(skip.body).toMatchObject({ code: 'subscription_prepaid' });
    expect(skip.body.message).toMatch(/prepaid until .*no charge to skip/);

    expect((await act('cancel')).status).toBe(200);
    expect(await read(store, id)).toMatchObject({ status: 'active', cancel_at: periodEnd });
    // The cycles paid for still ship; the period's end then ends it without a charge.
    await advanceTo(store, id);
    await rebill();
    await advanceTo(store, id);
    await rebill();
    expect((await fulfilmentOrders(store, id)).map((order) => order.cycle)).toEqual([2, 3]);
    await advanceTo(store, id);
    await rebill();
    expect(await read(store, id)).toMatchObject({ status: 'cancelled', charges: [] });
  });
});
