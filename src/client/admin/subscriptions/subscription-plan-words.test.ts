import { describe, expect, it } from 'vitest';
import type { Subscription } from '../../../contract/merchant.js';
import {
  chargeIntervalOf,
  cycleOfPlan,
  planBadge,
  planStage,
  prepaidState,
} from './subscription-plan-words.js';

const prepaid = {
  status: 'active',
  cancel_at: null,
  interval_days: 30,
  cycle_amount: 92.93,
  next_charge_at: '2026-02-01T12:00:00.000Z',
  billing_plan: {
    phases: [
      { cycles: 1, amount: 99.39, interval_days: 90 },
      { cycles: null, amount: 92.93, interval_days: 90 },
    ],
    total_cycles: null,
    has_special_cycles: true,
    description: '3 months for $99.39, shipped monthly; renews every 3 months at $92.93',
    prepaid: { cycles: 3, renewal: 'renew', interval_days: 30 },
  },
  prepaid: {
    cycles: 3,
    renewal: 'renew',
    shipped_cycle: 1,
    next: { kind: 'fulfilment', cycle: 2, amount: 0, at: '2026-02-01T12:00:00.000Z' },
  },
} as unknown as Subscription;

describe('a prepaid subscription’s state', () => {
  it('counts cycles paid and shipped, the next delivery and the next period’s charge', () => {
    expect(prepaidState(prepaid)).toEqual({
      cyclesPerPeriod: 3,
      intervalDays: 30,
      cyclesPaid: 3,
      cyclesShipped: 1,
      period: 1,
      cycleInPeriod: 1,
      renews: true,
      nextDelivery: { cycle: 2, at: '2026-02-01T12:00:00.000Z' },
      // cycle 4 starts two intervals after cycle 2
      nextCharge: { cycle: 4, at: '2026-04-02T12:00:00.000Z', amount: 92.93 },
    });
  });

  it('takes the API’s own charge when the next date charges the next period', () => {
    const due = {
      ...prepaid,
      prepaid: {
        ...prepaid.prepaid!,
        shipped_cycle: 3,
        next: { kind: 'charge', cycle: 4, amount: 92.93, at: '2026-04-02T12:00:00.000Z' },
      },
    } as Subscription;
    expect(prepaidState(due)).toMatchObject({
      cyclesPaid: 3,
      cycleInPeriod: 3,
      nextDelivery: null,
      nextCharge: { cycle: 4, at: '2026-04-02T12:00:00.000Z', amount: 92.93 },
    });
  });

  it('has no next charge for a plan that ends with its period, nor while paused', () => {
    const ending = { ...prepaid, prepaid: { ...prepaid.prepaid!, renewal: 'end' } } as Subscription;
    expect(prepaidState(ending)).toMatchObject({
      renews: false,
      nextCharge: null,
      nextDelivery: { cycle: 2 },
    });
    expect(prepaidState({ ...prepaid, status: 'paused' })?.nextCharge).toBeNull();
  });

  it('charges once a period: every cycles × interval days', () => {
    expect(chargeIntervalOf(prepaid)).toBe(90);
    expect(chargeIntervalOf({ ...prepaid, prepaid: null })).toBe(30);
  });

  it('is null for a subscription that is not prepaid', () => {
    expect(prepaidState({ ...prepaid, prepaid: null })).toBeNull();
  });
});

describe('a plan priced by cycle', () => {
  const plan = {
    phases: [
      { cycles: 1, amount: 1, interval_days: 14 },
      { cycles: 2, amount: 19.99, interval_days: 30 },
      { cycles: 9, amount: 29.99, interval_days: 30 },
    ],
    total_cycles: 12,
    has_special_cycles: true,
    description: '$1.00 today for 14 days, then …',
    prepaid: null,
  };

  it('names the stage a cycle is in', () => {
    expect(planStage(plan, 1)).toBe('Trial (the first cycle)');
    expect(planStage(plan, 2)).toBe('Discounted cycle 1 of 2');
    expect(planStage(plan, 3)).toBe('Discounted cycle 2 of 2');
    expect(planStage(plan, 4)).toBe('Regular price');
    expect(planStage({ ...plan, phases: [{ ...plan.phases[0]!, amount: 0 }, plan.phases[2]!] }, 1)).toBe(
      'Free trial (the first cycle)',
    );
  });

  it('says the cycle of all, or until cancelled', () => {
    expect(cycleOfPlan(2, 12)).toBe('2 of 12');
    expect(cycleOfPlan(2, null)).toBe('2, until cancelled');
  });

  it('marks prepaid and priced-by-cycle subscriptions in the list, and nothing else', () => {
    expect(planBadge(prepaid)).toBe('Prepaid: 3 cycles a payment');
    expect(planBadge({ prepaid: null, billing_plan: plan })).toBe('Priced by cycle');
    expect(planBadge({ prepaid: null, billing_plan: { ...plan, has_special_cycles: false } })).toBeNull();
    expect(planBadge({ prepaid: null, billing_plan: null })).toBeNull();
  });
});
