import { describe, expect, it } from 'vitest';
import type { OrderDetail } from '../../../contract/merchant.js';
import {
  brandName,
  leftToRefund,
  newRefundKey,
  parseAmount,
  refundDestination,
  refundKeyFor,
} from './refund-rules.js';

const attempt = (overrides: Partial<OrderDetail['payment_attempts'][number]> = {}) => ({
  id: 1,
  method: 'card' as const,
  gateway: 'test',
  status: 'approved' as const,
  amount: 50,
  decline_code: null,
  message: null,
  card_brand: 'visa',
  card_last4: '4242',
  card_exp_month: 12,
  card_exp_year: 2030,
  gateway_reference: 'ch_1',
  is_test: false,
  created_at: '2026-11-26T09:00:00Z',
  ...overrides,
});

const refund = (amount: number, status: 'pending' | 'succeeded' | 'failed') => ({
  id: amount,
  order_id: 1,
  gateway: 'test',
  amount,
  currency: 'USD',
  reason: null,
  status,
  processor_reference: null,
  error: null,
  created_at: '2026-11-26T10:00:00Z',
  updated_at: '2026-11-26T10:00:00Z',
});

describe('leftToRefund', () => {
  it('is the payment less succeeded and pending refunds, failed ones not counted', () => {
    const order = {
      currency: 'USD',
      payment_attempts: [attempt({ status: 'declined', amount: 50 }), attempt({ id: 2, amount: 50 })],
      refunds: [refund(10.1, 'succeeded'), refund(5.2, 'pending'), refund(30, 'failed')],
      amount_refunded: 10.1,
    };
    expect(leftToRefund(order)).toBe(34.7);
  });

  it('takes what the processor reported when it is more than ours', () => {
    expect(
      leftToRefund({ currency: 'USD', payment_attempts: [attempt()], refunds: [], amount_refunded: 20 }),
    ).toBe(30);
  });

  it('is nothing for an order nothing was charged for', () => {
    expect(
      leftToRefund({
        currency: 'USD',
        payment_attempts: [attempt({ status: 'declined' }), attempt({ gateway_reference: null })],
        refunds: [],
        amount_refunded: 0,
      }),
    ).toBe(0);
  });
});

describe('parseAmount', () => {
  it('reads amounts as people type them and nothing else', () => {
    expect(parseAmount('25')).toBe(25);
    expect(parseAmount(' $1,250.50 ')).toBe(1250.5);
    expect(parseAmount('.5')).toBe(0.5);
    expect(parseAmount('')).toBeNull();
    expect(parseAmount('twenty')).toBeNull();
    expect(parseAmount('-5')).toBeNull();
    expect(parseAmount('1.2.3')).toBeNull();
  });
});

describe('refundDestination', () => {
  it('names the card by brand and last four, or the PayPal account', () => {
    expect(refundDestination({ payment_attempts: [attempt()] })).toBe('Visa ending 4242');
    expect(refundDestination({ payment_attempts: [attempt({ method: 'paypal', card_last4: null })] })).toBe(
      'the PayPal account',
    );
    expect(brandName('amex')).toBe('American Express');
    expect(brandName('elo')).toBe('Elo');
  });
});

describe('refundKeyFor', () => {
  const fresh = () => 'new-key';
  it('reuses the key when the same refund is sent again after no answer came', () => {
    const previous = { body: '{"amount":25}', key: 'first', failedStatus: 0 };
    expect(refundKeyFor(previous, '{"amount":25}', fresh)).toBe('first');
    expect(refundKeyFor({ ...previous, failedStatus: 503 }, '{"amount":25}', fresh)).toBe('first');
  });

  it('makes a new key for another refund, after a refusal, or after a success', () => {
    const previous = { body: '{"amount":25}', key: 'first', failedStatus: 0 };
    expect(refundKeyFor(previous, '{"amount":20}', fresh)).toBe('new-key');
    expect(refundKeyFor({ ...previous, failedStatus: 422 }, '{"amount":25}', fresh)).toBe('new-key');
    // 502 refund_failed: the processor refused it; trying again is a new refund.
    expect(refundKeyFor({ ...previous, failedStatus: 502 }, '{"amount":25}', fresh)).toBe('new-key');
    expect(refundKeyFor({ ...previous, failedStatus: null }, '{"amount":25}', fresh)).toBe('new-key');
    expect(refundKeyFor(null, '{"amount":25}', fresh)).toBe('new-key');
  });
});

describe('newRefundKey', () => {
  it('makes a new UUID each time, also where randomUUID is missing', () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(newRefundKey()).toMatch(uuid);
    const original = crypto.randomUUID;
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      const [a, b] = [newRefundKey(), newRefundKey()];
      expect(a).toMatch(uuid);
      expect(a).not.toBe(b);
    } finally {
      Object.defineProperty(crypto, 'randomUUID', { value: original, configurable: true });
    }
  });
});
