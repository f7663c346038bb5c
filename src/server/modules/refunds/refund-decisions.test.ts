import { describe, expect, it } from 'vitest';
import {
  amountLeft,
  amountRefunded,
  decideRefund,
  paidPayment,
  paymentStatus,
  processorRefundKey,
  type RefundState,
} from './refund-decisions.js';

const NOW = new Date('2026-11-26T05:00:00Z');
const LATER = new Date(NOW.getTime() + 60_000);
const EARLIER = new Date(NOW.getTime() - 1);
const PAYMENT = { gateway: 'test', reference: 'ch_test_1', amount: 5000 };

let ids = 0;
const refund = (
  amount: number,
  status: RefundState['status'],
  extra: Partial<RefundState> = {},
): RefundState => ({
  id: ++ids,
  amount,
  status,
  idempotency_key_hash: `key-${ids}`,
  lease_until: status === 'pending' ? LATER : null,
  ...extra,
});

const decide = (overrides: Partial<Parameters<typeof decideRefund>[0]> = {}) =>
  decideRefund({
    order: { status: 'complete' },
    payment: PAYMENT,
    refunds: [],
    reported: 0,
    keyHash: 'mine',
    requested: undefined,
    now: NOW,
    ...overrides,
  });

describe('amountLeft', () => {
  it('takes succeeded and pending refunds off the payment, not failed ones', () => {
    expect(amountLeft(5000, [], 0)).toBe(5000);
    expect(
      amountLeft(5000, [refund(1000, 'succeeded'), refund(500, 'pending'), refund(3000, 'failed')], 0),
    ).toBe(3500);
  });

  it("counts the processor's running total instead when it is more (a refund made in its dashboard)", () => {
    expect(amountLeft(5000, [refund(1000, 'succeeded')], 1000)).toBe(4000);
    expect(amountLeft(5000, [refund(1000, 'succeeded')], 2500)).toBe(2500);
    expect(amountLeft(5000, [], 6000)).toBe(0);
  });
});

describe('amountRefunded and paymentStatus', () => {
  it('never counts our refund twice when the processor reports it too', () => {
    expect(amountRefunded([refund(1500, 'succeeded'), refund(700, 'pending')], 1500)).toBe(1500);
    expect(amountRefunded([refund(1500, 'succeeded')], 2000)).toBe(2000);
    expect(amountRefunded([refund(1500, 'failed')], 0)).toBe(0);
  });

  it('says paid, partially refunded or refunded, and null without a payment', () => {
    expect(paymentStatus(null, 0)).toBeNull();
    expect(paymentStatus(0, 0)).toBeNull();
    expect(paymentStatus(5000, 0)).toBe('paid');
    expect(paymentStatus(5000, 1)).toBe('partially_refunded');
    expect(paymentStatus(5000, 5000)).toBe('refunded');
  });
});

describe('paidPayment', () => {
  it('is the first approved attempt that charged at a processor', () => {
    const attempts = [
      { status: 'declined', gateway: 'test', gateway_reference: 'ch_d', amount: 5000 },
      { status: 'approved', gateway: 'none', gateway_reference: null, amount: 0 },
      { status: 'approved', gateway: 'stripe', gateway_reference: 'pi_1', amount: 5000 },
      { status: 'approved', gateway: 'stripe', gateway_reference: 'pi_twice', amount: 5000 },
    ];
    expect(paidPayment(attempts)).toEqual({ gateway: 'stripe', reference: 'pi_1', amount: 5000 });
    expect(paidPayment(attempts.slice(0, 2))).toBeNull();
  });
});

describe('decideRefund', () => {
  it('refunds all that is left without an amount, or the amount asked', () => {
    expect(decide({ refunds: [refund(1000, 'succeeded')] })).toEqual({
      action: 'create',
      amount: 4000,
      payment: PAYMENT,
    });
    expect(decide({ requested: 1200 })).toEqual({ action: 'create', amount: 1200, payment: PAYMENT });
  });

  it('refuses what is not refundable, saying how much is left', () => {
    expect(decide({ order: null })).toMatchObject({ refusal: { status: 404, code: 'order_not_found' } });
    expect(decide({ requested: 0 })).toMatchObject({ refusal: { status: 422, code: 'amount_not_positive' } });
    expect(decide({ order: { status: 'awaiting_payment' } })).toMatchObject({
      refusal: { status: 409, code: 'order_not_complete' },
    });
    expect(decide({ payment: null })).toMatchObject({ refusal: { status: 409, code: 'order_not_paid' } });
    expect(decide({ requested: 4001, refunds: [refund(1000, 'succeeded')] })).toMatchObject({
      refusal: { status: 422, code: 'amount_exceeds_refundable', left: 4000 },
    });
    expect(decide({ refunds: [refund(5000, 'succeeded')] })).toMatchObject({
      refusal: { status: 422, code: 'nothing_left_to_refund', left: 0 },
    });
  });

  it('refuses while another refund is being asked of the processor, and takes over one whose answer was lost', () => {
    const busy = refund(1000, 'pending');
    expect(decide({ refunds: [busy] })).toMatchObject({
      refusal: { status: 409, code: 'refund_in_progress', retry: true },
    });
    const lost = refund(1000, 'pending', { lease_until: EARLIER });
    expect(decide({ refunds: [lost] })).toEqual({ action: 'resume', refund: lost.id, own: false });
  });

  it("answers this key's refund again, resumes it when its answer was lost, and retries it anew once failed", () => {
    const done = refund(1000, 'succeeded', { idempotency_key_hash: 'mine' });
    expect(decide({ refunds: [done] })).toEqual({ action: 'answer', refund: done.id });
    const lost = refund(1000, 'pending', { idempotency_key_hash: 'mine', lease_until: EARLIER });
    expect(decide({ refunds: [lost] })).toEqual({ action: 'resume', refund: lost.id, own: true });
    const running = refund(1000, 'pending', { idempotency_key_hash: 'mine' });
    expect(decide({ refunds: [running] })).toMatchObject({ refusal: { code: 'refund_in_progress' } });
    const failed = refund(1000, 'failed', { idempotency_key_hash: 'mine' });
    expect(decide({ refunds: [failed], requested: 1000 })).toEqual({
      action: 'create',
      amount: 1000,
      payment: PAYMENT,
    });
  });

  it('gives each refund row its own processor key', () => {
    expect(processorRefundKey({ organization_id: 3, order_id: 41, id: 7 })).toBe('refund_3_41_7');
  });
});
