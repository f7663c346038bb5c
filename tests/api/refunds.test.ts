import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OrderDetailSchema } from '../../src/contract/merchant.js';
import { RefundSchema } from '../../src/contract/refund.js';
import { ManualClock } from '../../src/server/platform/clock.js';
import type { PaymentGateway } from '../../src/server/platform/payments/gateway.js';
import { createPaymentGateways } from '../../src/server/platform/payments/select-gateway.js';
import {
  recordedBody,
  verifyStripeReplays,
} from '../../src/server/platform/payments/testing/stripe-replay.js';
import { EXPRESS_PAYER_FORM, orderBody } from '../helpers/order-body.js';
import { storeWithShopper } from '../helpers/store.js';
import { createStripeTestApp, deliver, orderOfCart, stripeEvent } from '../helpers/stripe.js';
import { createTestApp, injectJson, type TestApp } from '../helpers/test-app.js';

// POST /checkout/api/merchant/orders/{id}/refunds on the real app and database (docs/api.md, "Refunds"): through the
// test processor, which keeps its own ledger of charges and refunds, and through Stripe on recorded answers.

/** What the test processor does with the next refund it is asked for: its own answer, or one the test sets. */
const processor = { next: null as null | 'refuse' | 'lose_answer', asked: 0 };

let t: TestApp;
let s: Awaited<ReturnType<typeof createStripeTestApp>>;

beforeAll(async () => {
  t = await createTestApp({
    gateways: (db, config) => {
      const real = createPaymentGateways(config, { db, clock: new ManualClock() }).card;
      const gateway: PaymentGateway = {
        ...real,
        async refund(request) {
          processor.asked += 1;
          const mode = processor.next;
          processor.next = null;
          if (mode === 'refuse') return { status: 'error', message: 'The bank refused the refund.' };
          const answer = await real.refund(request);
          // The processor made the refund, and its answer never reached us.
          if (mode === 'lose_answer') return { status: 'error', message: 'No answer.', retryable: true };
          return answer;
        },
      };
      return { card: gateway, express: gateway };
    },
  });
});

afterAll(async () => {
  await t.close();
});

afterEach(verifyStripeReplays);

let keys = 0;
const newKey = () => `refund-${process.pid}-${++keys}`;

/** A store with one order paid by card through the app's card processor; its total in major units. */
async function paidOrder(app: TestApp, payment?: unknown) {
  const { store, shopper } = await storeWithShopper(app.app, app.db);
  const token = await store.cart([{ offer_id: store.offers.beans.id }, { offer_id: store.offers.mug.id }]);
  const placed = await shopper.post('orders', orderBody(token, payment ? { payment } : {}), {
    'idempotency-key': `order-${token}`,
  });
  expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  expect(placed.body.order.status).toBe('complete');
  const orderId = placed.body.order.order_id as number;
  const detail = await orderDetail(app, store.org.apiKey, orderId);
  return { store, shopper, apiKey: store.org.apiKey, orderId, total: detail.total, token };
}

async function orderDetail(app: TestApp, apiKey: string, orderId: number) {
  const answer = await injectJson(app.app, {
    method: 'GET',
    url: `/checkout/api/merchant/orders/${orderId}`,
    headers: { authorization: `Bearer ${apiKey}` },
  });
  expect(answer.status).toBe(200);
  return OrderDetailSchema.parse(answer.body);
}

function refund(
  app: TestApp,
  apiKey: string,
  orderId: number,
  body: Record<string, unknown> = {},
  key: string | null = newKey(),
) {
  return injectJson(app.app, {
    method: 'POST',
    url: `/checkout/api/merchant/orders/${orderId}/refunds`,
    headers: { authorization: `Bearer ${apiKey}`, ...(key === null ? {} : { 'idempotency-key': key }) },
    payload: body,
  });
}

/** The refunds the test processor's ledger holds for the organization's charges. */
async function ledgerRefunds(app: TestApp, organizationId: number): Promise<number[]> {
  const { rows } = await app.db.query<{ amount: number }>(
    `SELECT r.amount FROM test_gateway_charges r
       JOIN test_gateway_charges c ON c.reference = r.refunds_reference
      WHERE r.kind = 'refund' AND c.organization_id = $1 ORDER BY r.amount`,
    [organizationId],
  );
  return rows.map((row) => row.amount);
}

const cents = (major: number) => Math.round(major * 100);

describe('refunds through the test processor', () => {
  it('refunds an order in full: the order shows the refund, amount_refunded and payment_status refunded', async () => {
    const { apiKey, orderId, total, store } = await paidOrder(t);
    expect((await orderDetail(t, apiKey, orderId)).payment_status).toBe('paid');

    const answer = await refund(t, apiKey, orderId, { reason: 'Customer changed their mind' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(RefundSchema.parse(answer.body)).toMatchObject({
      order_id: orderId,
      gateway: 'test',
      amount: total,
      currency: 'USD',
      reason: 'Customer changed their mind',
      status: 'succeeded',
      processor_reference: expect.stringMatching(/^re_test_/),
      error: null,
    });
    const detail = await orderDetail(t, apiKey, orderId);
    expect(detail).toMatchObject({ payment_status: 'refunded', amount_refunded: total, status: 'complete' });
    expect(detail.refunds).toEqual([answer.body]);
    expect(await ledgerRefunds(t, store.org.id)).toEqual([cents(total)]);

    // Nothing is left: another refund is refused, and says so.
    const again = await refund(t, apiKey, orderId);
    expect(again).toMatchObject({ status: 422, body: { code: 'nothing_left_to_refund' } });
    expect(again.body.message).toContain('0.00 USD is left');
  });

  it('refunds in part twice, then refuses a third beyond what is left, saying how much is left', async () => {
    const { apiKey, orderId, total, store } = await paidOrder(t);
    expect(total).toBeGreaterThan(20);
    const first = await refund(t, apiKey, orderId, { amount: 10 });
    expect(first).toMatchObject({ status: 201, body: { amount: 10, status: 'succeeded' } });
    expect(await orderDetail(t, apiKey, orderId)).toMatchObject({
      payment_status: 'partially_refunded',
      amount_refunded: 10,
    });
    const second = await refund(t, apiKey, orderId, { amount: 5.5 });
    expect(second).toMatchObject({ status: 201, body: { amount: 5.5 } });

    const left = (cents(total) - 1550) / 100;
    const beyond = await refund(t, apiKey, orderId, { amount: left + 0.01 });
    expect(beyond).toMatchObject({ status: 422, body: { code: 'amount_exceeds_refundable' } });
    expect(beyond.body.message).toContain(`${left.toFixed(2)} USD is left`);
    expect(beyond.body.fields.amount).toContain(left.toFixed(2));

    // The rest, with no amount: all that is left.
    const rest = await refund(t, apiKey, orderId);
    expect(rest).toMatchObject({ status: 201, body: { amount: left } });
    const detail = await orderDetail(t, apiKey, orderId);
    expect(detail).toMatchObject({ payment_status: 'refunded', amount_refunded: total });
    expect(detail.refunds.map((r) => [r.amount, r.status])).toEqual([
      [10, 'succeeded'],
      [5.5, 'succeeded'],
      [left, 'succeeded'],
    ]);
    expect(await ledgerRefunds(t, store.org.id)).toEqual([550, 1000, cents(left)].sort((a, b) => a - b));
  });

  it('answers the same refund for the same Idempotency-Key, without asking the processor again', async () => {
    const { apiKey, orderId, store } = await paidOrder(t);
    const key = newKey();
    const asked = processor.asked;
    const first = await refund(t, apiKey, orderId, { amount: 3 }, key);
    const second = await refund(t, apiKey, orderId, { amount: 3 }, key);
    expect(first.status).toBe(201);
    expect(second).toEqual(expect.objectContaining({ status: 201, body: first.body }));
    expect(processor.asked - asked).toBe(1);
    expect(await ledgerRefunds(t, store.org.id)).toEqual([300]);
    expect((await orderDetail(t, apiKey, orderId)).refunds).toHaveLength(1);

    // The same key with another body is refused; a new key is a new refund.
    expect(await refund(t, apiKey, orderId, { amount: 4 }, key)).toMatchObject({
      status: 422,
      body: { code: 'idempotency_key_reused' },
    });
    expect(await refund(t, apiKey, orderId, { amount: 3 })).toMatchObject({ status: 201 });
    expect(await ledgerRefunds(t, store.org.id)).toEqual([300, 300]);
  });

  it('never refunds more than was paid when refunds of one order run at once', async () => {
    const { apiKey, orderId, total, store } = await paidOrder(t);
    const part = Math.floor(cents(total) * 0.4) / 100;
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => refund(t, apiKey, orderId, { amount: part })),
    );
    const made = answers.filter((answer) => answer.status === 201);
    expect(made.length).toBeGreaterThanOrEqual(1);
    expect(made.length).toBeLessThanOrEqual(2);
    for (const answer of answers.filter((a) => a.status !== 201)) {
      expect([409, 422], JSON.stringify(answer.body)).toContain(answer.status);
      expect(['refund_in_progress', 'amount_exceeds_refundable']).toContain(answer.body.code);
    }
    const refunded = (await ledgerRefunds(t, store.org.id)).reduce((sum, amount) => sum + amount, 0);
    expect(refunded).toBe(made.length * cents(part));
    expect(refunded).toBeLessThanOrEqual(cents(total));
    const detail = await orderDetail(t, apiKey, orderId);
    expect(cents(detail.amount_refunded)).toBe(refunded);
    expect(detail.refunds.every((r) => r.status === 'succeeded')).toBe(true);

    // Once they are done, the rest can be refunded, and no more.
    await refund(t, apiKey, orderId);
    expect((await ledgerRefunds(t, store.org.id)).reduce((sum, amount) => sum + amount, 0)).toBe(
      cents(total),
    );
  });

  it('records a refund the processor refuses as failed, refunds nothing, and takes a retry', async () => {
    const { apiKey, orderId, total, store } = await paidOrder(t);
    processor.next = 'refuse';
    const key = newKey();
    const refused = await refund(t, apiKey, orderId, { amount: 5 }, key);
    expect(refused).toMatchObject({ status: 502, body: { code: 'refund_failed' } });
    expect(refused.body.message).toContain('The bank refused the refund.');
    expect(refused.body.message).toContain('Nothing was refunded');
    let detail = await orderDetail(t, apiKey, orderId);
    expect(detail).toMatchObject({ payment_status: 'paid', amount_refunded: 0 });
    expect(detail.refunds).toMatchObject([
      { status: 'failed', error: 'The bank refused the refund.', amount: 5 },
    ]);
    expect(await ledgerRefunds(t, store.org.id)).toEqual([]);

    // The same request again: a new refund, which the processor makes.
    const retried = await refund(t, apiKey, orderId, { amount: 5 }, key);
    expect(retried).toMatchObject({ status: 201, body: { status: 'succeeded', amount: 5 } });
    detail = await orderDetail(t, apiKey, orderId);
    expect(detail.refunds.map((r) => r.status)).toEqual(['failed', 'succeeded']);
    expect(detail.amount_refunded).toBe(5);
    expect(await ledgerRefunds(t, store.org.id)).toEqual([500]);
    expect(total).toBeGreaterThan(5);
  });

  it('asks again with the same processor key when the answer was lost, and refunds once', async () => {
    const { apiKey, orderId, store } = await paidOrder(t);
    processor.next = 'lose_answer';
    const key = newKey();
    const lost = await refund(t, apiKey, orderId, { amount: 2 }, key);
    expect(lost).toMatchObject({ status: 503, body: { code: 'refund_unconfirmed' } });
    expect(lost.headers['retry-after']).toBe('1');
    expect((await orderDetail(t, apiKey, orderId)).refunds).toMatchObject([{ status: 'pending', amount: 2 }]);
    expect(await ledgerRefunds(t, store.org.id)).toEqual([200]);

    const retried = await refund(t, apiKey, orderId, { amount: 2 }, key);
    expect(retried).toMatchObject({ status: 201, body: { status: 'succeeded', amount: 2 } });
    expect(await ledgerRefunds(t, store.org.id)).toEqual([200]);
    expect(await orderDetail(t, apiKey, orderId)).toMatchObject({ amount_refunded: 2 });
  });

  it('refuses a refund of an open order, of no order, of what is not money, and without a key', async () => {
    const { store, shopper } = await storeWithShopper(t.app, t.db);
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const started = await shopper.post(
      'orders',
      { cart_token: token, payment: { method: 'paypal' } },
      { 'idempotency-key': `start-${token}` },
    );
    expect(started.status).toBe(200);
    const open = await orderOfCart(t.db, token);
    const apiKey = store.org.apiKey;
    const refused = await refund(t, apiKey, open.orderId);
    expect(refused).toMatchObject({ status: 409, body: { code: 'order_not_complete' } });
    expect(refused.body.message).toContain('only a paid order can be refunded');
    expect(await refund(t, apiKey, 999_999_999)).toMatchObject({
      status: 404,
      body: { code: 'order_not_found' },
    });

    const { apiKey: key2, orderId } = await paidOrder(t);
    expect(await refund(t, key2, orderId, { amount: 0 })).toMatchObject({
      status: 422,
      body: { code: 'amount_not_positive' },
    });
    expect(await refund(t, key2, orderId, { amount: -1 })).toMatchObject({
      status: 422,
      body: { code: 'validation_failed', fields: { amount: expect.any(String) } },
    });
    expect(await refund(t, key2, orderId, { amount: 1.005 })).toMatchObject({
      status: 422,
      body: { fields: { amount: 'Use at most 2 decimal places for USD.' } },
    });
    expect(await refund(t, key2, orderId, { amount: '1' })).toMatchObject({ status: 422 });
    expect(await refund(t, key2, orderId, {}, null)).toMatchObject({
      status: 400,
      body: { code: 'idempotency_key_required' },
    });
    // Another organization's order is no order of this key's.
    expect(await refund(t, apiKey, orderId)).toMatchObject({ status: 404 });
    expect((await orderDetail(t, key2, orderId)).refunds).toEqual([]);
  });

  it('refunds an express (PayPal-style) payment through the provider that captured it', async () => {
    const { store, shopper } = await storeWithShopper(t.app, t.db);
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const started = await shopper.post(
      'orders',
      { cart_token: token, payment: { method: 'paypal' } },
      { 'idempotency-key': `express-${token}` },
    );
    const approval = new URL(started.body.action.url as string);
    const approved = await t.app.inject({
      method: 'POST',
      url: approval.pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ ...EXPRESS_PAYER_FORM, decision: 'approve' }).toString(),
    });
    const paymentTokenId = new URL(approved.headers.location as string).searchParams.get('payment_token_id');
    const orderId = started.body.order.order_id as number;
    const completed = await shopper.put(
      `orders/${orderId}`,
      orderBody(token, { payment: { method: 'paypal', payment_token_id: paymentTokenId } }),
    );
    expect(completed.body.order.status, JSON.stringify(completed.body)).toBe('complete');

    const answer = await refund(t, store.org.apiKey, orderId, { amount: 4.49 });
    expect(answer).toMatchObject({
      status: 201,
      body: { gateway: 'test', amount: 4.49, status: 'succeeded' },
    });
    expect(await orderDetail(t, store.org.apiKey, orderId)).toMatchObject({
      payment_status: 'partially_refunded',
      amount_refunded: 4.49,
      payment_attempts: [{ method: 'paypal', status: 'approved' }],
    });
    expect(await ledgerRefunds(t, store.org.id)).toEqual([449]);
  });

  it('is in the API reference with the other merchant routes', async () => {
    const docs = await injectJson(t.app, { method: 'GET', url: '/checkout/api/docs' });
    const route = docs.body.paths['/checkout/api/merchant/orders/{id}/refunds'];
    expect(route?.post?.tags).toEqual(['merchant: orders']);
    expect(Object.keys(route.post.responses)).toEqual(
      expect.arrayContaining(['201', '404', '409', '422', '502', '503']),
    );
  });
});

const VISA_PM = 'pm_1QvRtJ2eZvKYlo2Cw8aVisa';
const PAID = 'pi_3QvS0a2eZvKYlo2C1xPaid';

/** An order paid through Stripe (recorded answers): its PaymentIntent is PAID. */
async function stripeOrder() {
  s.stripe.expect('payment-method-visa', {
    method: 'POST',
    path: '/v1/payment_intents',
    answer: 'charge-succeeded',
  });
  return paidOrder(s, { method: 'card', card_token: VISA_PM });
}

describe('refunds through Stripe', () => {
  // A database each: the recorded answers' ids (re_…) are Stripe's, and Stripe never gives one to two refunds.
  beforeEach(async () => {
    s = await createStripeTestApp();
  });

  afterEach(async () => {
    await s.close();
  });

  it("refunds in full and in part with refunds.create, the PaymentIntent and the refund's own key", async () => {
    const { apiKey, orderId, store } = await stripeOrder();
    const partial = s.stripe.expect({ method: 'POST', path: '/v1/refunds', answer: 'refund-partial' });
    const first = await refund(s, apiKey, orderId, { amount: 15 });
    expect(first).toMatchObject({
      status: 201,
      body: {
        gateway: 'stripe',
        amount: 15,
        status: 'succeeded',
        processor_reference: 're_3QvS0a2eZvKYlo2C1PartRf',
      },
    });
    const sent = partial.sent[0];
    expect(Object.fromEntries(new URLSearchParams(sent?.body ?? ''))).toEqual({
      payment_intent: PAID,
      amount: '1500',
    });
    expect(sent?.headers['idempotency-key']).toBe(`refund_${store.org.id}_${orderId}_${first.body.id}`);

    const full = s.stripe.expect({ method: 'POST', path: '/v1/refunds', answer: 'refund-full' });
    const rest = await refund(s, apiKey, orderId);
    expect(rest).toMatchObject({ status: 201, body: { processor_reference: 're_3QvS0a2eZvKYlo2C1FullRf' } });
    const detail = await orderDetail(s, apiKey, orderId);
    expect(Object.fromEntries(new URLSearchParams(full.sent[0]?.body ?? ''))).toEqual({
      payment_intent: PAID,
      amount: String(cents(detail.total) - 1500),
    });
    expect(detail).toMatchObject({ payment_status: 'refunded', amount_refunded: detail.total });
  });

  it('records a refund Stripe refuses as failed, and nothing refunded', async () => {
    const { apiKey, orderId } = await stripeOrder();
    s.stripe.expect({ method: 'POST', path: '/v1/refunds', answer: 'refund-amount-too-large' });
    const refused = await refund(s, apiKey, orderId, { amount: 5 });
    expect(refused).toMatchObject({ status: 502, body: { code: 'refund_failed' } });
    expect(refused.body.message).toContain('larger than what is left');
    expect(await orderDetail(s, apiKey, orderId)).toMatchObject({
      payment_status: 'paid',
      amount_refunded: 0,
      refunds: [{ status: 'failed', processor_reference: null }],
    });
  });

  it("does not count a refund made here twice when Stripe's webhooks report it", async () => {
    const { apiKey, orderId, store } = await stripeOrder();
    s.stripe.expect({ method: 'POST', path: '/v1/refunds', answer: 'refund-partial' });
    expect(await refund(s, apiKey, orderId, { amount: 15 })).toMatchObject({ status: 201 });
    s.stripe.expect();
    const where = { organizationId: store.org.id, orderId };
    const charge = (extra: Record<string, unknown>) => ({
      id: 'ch_QvS0a2eZvKYlo2C1xPaid',
      object: 'charge',
      amount_refunded: 1500,
      refunded: false,
      currency: 'usd',
      payment_intent: PAID,
      metadata: { organization_id: String(where.organizationId), order_id: String(where.orderId) },
      ...extra,
    });
    // The event lists the charge's refunds: ours, by its id.
    const listed = stripeEvent(
      'charge.refunded',
      charge({ refunds: { object: 'list', data: [{ id: 're_3QvS0a2eZvKYlo2C1PartRf', object: 'refund' }] } }),
    );
    expect(await deliver(s.app, listed)).toMatchObject({
      status: 200,
      body: { outcome: 'refund_already_recorded' },
    });
    // Without the list (newer API versions): the running total is kept, and it counts our refund.
    expect(await deliver(s.app, stripeEvent('charge.refunded', charge({})))).toMatchObject({
      body: { outcome: 'refund_recorded' },
    });
    const updated = stripeEvent('refund.updated', recordedBody('refund-partial'));
    expect(await deliver(s.app, updated)).toMatchObject({ body: { outcome: 'refund_already_recorded' } });
    expect(await orderDetail(s, apiKey, orderId)).toMatchObject({
      payment_status: 'partially_refunded',
      amount_refunded: 15,
    });

    // A refund made in Stripe's dashboard afterwards: Stripe's total is what counts.
    expect(
      await deliver(s.app, stripeEvent('charge.refunded', charge({ amount_refunded: 2000 }))),
    ).toMatchObject({ body: { outcome: 'refund_recorded' } });
    expect(await orderDetail(s, apiKey, orderId)).toMatchObject({ amount_refunded: 20 });
  });

  it('fails our refund when Stripe reports it failed after all', async () => {
    const { apiKey, orderId } = await stripeOrder();
    s.stripe.expect({ method: 'POST', path: '/v1/refunds', answer: 'refund-partial' });
    await refund(s, apiKey, orderId, { amount: 15 });
    s.stripe.expect();
    const failed = stripeEvent('refund.updated', {
      ...recordedBody('refund-partial'),
      status: 'failed',
      failure_reason: 'expired_or_canceled_card',
    });
    expect(await deliver(s.app, failed)).toMatchObject({ body: { outcome: 'refund_failed_recorded' } });
    expect(await orderDetail(s, apiKey, orderId)).toMatchObject({
      payment_status: 'paid',
      amount_refunded: 0,
      refunds: [{ status: 'failed', error: expect.stringContaining('expired_or_canceled_card') }],
    });
  });
});
