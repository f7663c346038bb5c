import { describe, expect, it } from 'vitest';
import { laterCycleCharges, subscriptionScheduleText } from './subscription-schedule.js';

const club = { is_recurring: true, billing_interval_days: 30, next_cycle_total: 25 };
const mug = { is_recurring: false, billing_interval_days: null, next_cycle_total: null };

describe('subscriptionScheduleText', () => {
  it('says what is charged today and what later cycles charge', () => {
    expect(subscriptionScheduleText(54.12, [club, mug], 'USD')).toBe(
      'Today $54.12, then $25.00 every 30 days',
    );
  });

  it("leaves out a gifted subscription: its later cycles are the recipient's", () => {
    expect(subscriptionScheduleText(29, [{ ...club, is_gift: true }], 'USD')).toBeNull();
  });

  it('is null for a one-off order', () => {
    expect(subscriptionScheduleText(14, [mug], 'USD')).toBeNull();
  });

  it('lists each interval, shortest first', () => {
    const weekly = { is_recurring: true, billing_interval_days: 7, next_cycle_total: 9.99 };
    expect(subscriptionScheduleText(0, [club, weekly], 'USD')).toBe(
      'Today $0.00, then $9.99 every week and $25.00 every 30 days',
    );
  });
});

describe('laterCycleCharges', () => {
  it('sums lines of the same interval in minor units', () => {
    const a = { is_recurring: true, billing_interval_days: 30, next_cycle_total: 0.1 };
    const b = { is_recurring: true, billing_interval_days: 30, next_cycle_total: 0.2 };
    expect(laterCycleCharges([a, b], 'USD')).toEqual([{ intervalDays: 30, amount: 0.3 }]);
  });
});
