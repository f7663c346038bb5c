import { describe, expect, it } from 'vitest';
import { cycleInPeriod, fulfilmentWords, orderBadges } from './order-funnel.js';

describe('a prepaid fulfilment order in words', () => {
  it('places a shipped cycle in its paid period', () => {
    expect(cycleInPeriod(2, 3)).toEqual({ cycle: 2, period: 1 });
    expect(cycleInPeriod(3, 3)).toEqual({ cycle: 3, period: 1 });
    expect(cycleInPeriod(5, 3)).toEqual({ cycle: 2, period: 2 });
    expect(cycleInPeriod(7, 3)).toEqual({ cycle: 1, period: 3 });
  });

  it('names the cycle of the period, the subscription and the order that paid for it', () => {
    const words = fulfilmentWords({ subscriptionId: 12, orderId: 40, cycle: 2, cyclesPerPeriod: 3 });
    expect(words.title).toBe('Prepaid fulfilment — cycle 2 of 3 of subscription 12');
    expect(words.paidBy).toBe('paid by order 40');
    expect(words.total).toBe(
      'Nothing is charged for this order: order 40 paid once for all 3 cycles of the period, and this order ships cycle 2.',
    );
  });

  it('says a later period was paid by the subscription’s renewal charge, not by the first order', () => {
    const words = fulfilmentWords({ subscriptionId: 12, orderId: 40, cycle: 5, cyclesPerPeriod: 3 });
    expect(words.title).toBe('Prepaid fulfilment — cycle 2 of 3 of subscription 12');
    expect(words.paidBy).toBe('paid by the renewal charge of subscription 12 for period 2');
  });

  it('still explains the $0 total before the subscription is read', () => {
    const words = fulfilmentWords({ subscriptionId: 12, orderId: 40, cycle: 5, cyclesPerPeriod: null });
    expect(words.title).toBe('Prepaid fulfilment — cycle 5 of subscription 12');
    expect(words.total).toMatch(/^Nothing is charged for this order: its cycle was paid for in advance/);
  });
});

describe('the order list’s badges', () => {
  it('marks a fulfilment order and an upsell’s linked order in words', () => {
    expect(
      orderBadges({ kind: 'prepaid_fulfilment', fulfilment_of_subscription_id: 12, parent_order_id: null }),
    ).toEqual([{ key: 'fulfilment', text: 'Prepaid fulfilment of subscription 12' }]);
    expect(orderBadges({ kind: 'order', fulfilment_of_subscription_id: null, parent_order_id: 40 })).toEqual([
      { key: 'upsell', text: 'Upsell of order 40' },
    ]);
  });

  it('marks nothing on an ordinary order', () => {
    expect(
      orderBadges({ kind: 'order', fulfilment_of_subscription_id: null, parent_order_id: null }),
    ).toEqual([]);
  });
});
