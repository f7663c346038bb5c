import { describe, expect, it } from 'vitest';
import type { OrderDetail } from '../../../contract/merchant.js';
import { kindWords, orderTimeline } from './order-timeline.js';

const order = {
  order_id: 7,
  email: 'ada@example.com',
  currency: 'USD',
  total: 50,
  created_at: '2026-11-26T09:00:00Z',
  completed_at: '2026-11-26T09:01:00Z',
  payment_attempts: [
    {
      id: 1,
      method: 'card',
      gateway: 'test',
      status: 'declined',
      amount: 50,
      decline_code: 'card_declined',
      message: 'Your card was declined.',
      card_brand: 'visa',
      card_last4: '0002',
      card_exp_month: 12,
      card_exp_year: 2030,
      gateway_reference: null,
      is_test: false,
      created_at: '2026-11-26T09:00:30Z',
    },
    {
      id: 2,
      method: 'card',
      gateway: 'test',
      status: 'approved',
      amount: 50,
      decline_code: null,
      message: null,
      card_brand: 'visa',
      card_last4: '4242',
      card_exp_month: 12,
      card_exp_year: 2030,
      gateway_reference: 'ch_1',
      is_test: true,
      created_at: '2026-11-26T09:01:00Z',
    },
  ],
  refunds: [
    {
      id: 3,
      order_id: 7,
      gateway: 'test',
      amount: 25,
      currency: 'USD',
      reason: 'Damaged',
      status: 'succeeded',
      processor_reference: 'r_1',
      error: null,
      created_at: '2026-11-26T10:00:00Z',
      updated_at: '2026-11-26T10:00:00Z',
    },
  ],
} as unknown as OrderDetail;

describe('orderTimeline', () => {
  it('merges everything about the order, oldest first, each in words', () => {
    const entries = orderTimeline({
      order,
      emails: [
        {
          id: 9,
          kind: 'refund_confirmation',
          order_id: 7,
          to: 'ada@example.com',
          from: 'shop@example.com',
          subject: 'Your refund',
          status: 'sent',
          error: null,
          attempts: 1,
          next_attempt_at: null,
          message_id: null,
          created_at: '2026-11-26T10:00:01Z',
          sent_at: '2026-11-26T10:00:05Z',
        },
      ],
      deliveries: [
        {
          id: 4,
          message_id: 'msg_1',
          event_type: 'order.completed',
          status: 'failed',
          attempts: [
            { attempted_at: '2026-11-26T09:02:00Z', status_code: 500, response: '', duration_ms: 3 },
          ],
          next_attempt_at: null,
          payload: {},
          created_at: '2026-11-26T09:01:30Z',
          endpoint_id: 1,
          endpoint_url: 'https://hooks.example/orders',
        },
      ],
      changes: [
        {
          id: 5,
          action: 'POST /checkout/api/merchant/orders/:id/refunds',
          status_code: 201,
          object_type: 'order',
          object_id: '7',
          staff: { id: 1, email: 'sam@shop.example', name: 'Sam' },
          created_at: '2026-11-26T10:00:00Z',
        },
      ],
    });
    expect(entries.map((entry) => [entry.at, entry.text])).toEqual([
      ['2026-11-26T09:00:00Z', 'Order created for ada@example.com'],
      ['2026-11-26T09:00:30Z', 'Payment of $50.00 by Visa ending 0002 declined (Your card was declined.)'],
      ['2026-11-26T09:01:00Z', 'Payment of $50.00 by Visa ending 4242 approved, test'],
      ['2026-11-26T09:01:00Z', 'Order completed: $50.00'],
      [
        '2026-11-26T09:01:30Z',
        'Webhook order.completed to https://hooks.example/orders not delivered (1 attempt)',
      ],
      ['2026-11-26T10:00:00Z', 'Refund of $25.00 made, reason: Damaged'],
      ['2026-11-26T10:00:00Z', 'Refunded in the dashboard by Sam'],
      ['2026-11-26T10:00:05Z', 'Refund confirmation email to ada@example.com sent'],
    ]);
    expect(new Set(entries.map((entry) => entry.key)).size).toBe(entries.length);
  });

  it('has only the creation for an order nothing else happened to', () => {
    const open = { ...order, completed_at: null, payment_attempts: [], refunds: [] };
    expect(orderTimeline({ order: open, emails: [], deliveries: [], changes: [] })).toHaveLength(1);
  });
});

describe('kindWords', () => {
  it('writes a kind as words', () => {
    expect(kindWords('subscription_welcome')).toBe('Subscription welcome');
  });
});
