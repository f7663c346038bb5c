import { buildPrepaidPlan } from '../../../domain/prepaid-plan.js';
import { describe, expect, it } from 'vitest';
import { minor } from '../../../domain/money.js';
import { wordsFor } from '../../i18n/translator.js';
import {
  nextPlanCycle,
  prepaidPeriodEnd,
  presentBillingPlan,
  presentPrepaid,
  subscriptionPlanOf,
} from './subscription-plan.js';

describe('subscriptionPlanOf', () => {
  it('keeps the plan priced with the order', () => {
    const stored = {
      phases: [
        { cycles: 1, amount: 554, days: 14 },
        { cycles: 2, amount: 2664, days: 30 },
        { cycles: 9, amount: 3746, days: 30 },
      ],
    };
    const plan = subscriptionPlanOf({
      total: 554,
      billing_interval_days: 30,
      next_cycle_total: 2664,
      billing_plan: stored,
    });
    expect(plan).toEqual(stored);
    expect(nextPlanCycle(plan, 1)).toEqual({ cycle: 2, amount: 2664, days: 30, isLast: false });
    expect(nextPlanCycle(plan, 12)).toBeNull();
  });

  it('makes a line with no prices by cycle its total, then its next-cycle total every interval', () => {
    const plan = subscriptionPlanOf({ total: 3139, billing_interval_days: 30, next_cycle_total: 2706 });
    expect(plan.phases).toEqual([
      { cycles: 1, amount: minor(3139), days: 30 },
      { cycles: null, amount: minor(2706), days: 30 },
    ]);
  });
});

describe('presentBillingPlan', () => {
  it('answers major units, the number of cycles and the words', () => {
    const plan = subscriptionPlanOf({ total: 100, billing_interval_days: 30, next_cycle_total: 2999 });
    expect(presentBillingPlan(plan, 'USD', wordsFor('en'))).toEqual({
      phases: [
        { cycles: 1, amount: 1, interval_days: 30 },
        { cycles: null, amount: 29.99, interval_days: 30 },
      ],
      total_cycles: null,
      has_special_cycles: false,
      description: '$1.00 today, then $29.99 every 30 days',
      prepaid: null,
    });
  });
});

describe('presentPrepaid', () => {
  const plan = buildPrepaidPlan(
    { cycles: 3, renewal: 'renew', intervalDays: 30 },
    { first: minor(9939), renewal: minor(9293) },
  );
  const row = {
    billing_plan: plan,
    prepaid_shipped_cycle: 1,
    status: 'active',
    next_charge_at: new Date('2026-02-01T00:00:00Z'),
    currency: 'USD',
  };

  it('says a fulfilment comes next inside the period, a charge of the whole period at its end', () => {
    expect(presentPrepaid(row)).toEqual({
      cycles: 3,
      renewal: 'renew',
      shipped_cycle: 1,
      next: { kind: 'fulfilment', cycle: 2, amount: 0, at: '2026-02-01T00:00:00.000Z' },
    });
    expect(presentPrepaid({ ...row, prepaid_shipped_cycle: 3 })?.next).toEqual({
      kind: 'charge',
      cycle: 4,
      amount: 92.93,
      at: '2026-02-01T00:00:00.000Z',
    });
  });

  it('says nothing comes next once it has ended, and nothing of a plan that is not prepaid', () => {
    expect(presentPrepaid({ ...row, status: 'cancelled' })?.next).toBeNull();
    expect(presentPrepaid({ ...row, billing_plan: { phases: plan.phases } })).toBeNull();
  });
});

describe('prepaidPeriodEnd', () => {
  const plan = buildPrepaidPlan(
    { cycles: 3, renewal: 'end', intervalDays: 30 },
    { first: minor(9939), renewal: minor(9293) },
  );
  const next = new Date('2026-02-01T00:00:00Z');

  it('ends the paid period where the next one would start, and says a plan that ends does not renew', () => {
    expect(prepaidPeriodEnd({ billing_plan: plan, prepaid_shipped_cycle: 1, next_charge_at: next })).toEqual({
      endsAt: new Date('2026-04-02T00:00:00Z'),
      days: 90,
      renews: false,
    });
    expect(
      prepaidPeriodEnd({ billing_plan: plan, prepaid_shipped_cycle: 3, next_charge_at: next })?.endsAt,
    ).toEqual(next);
    expect(
      prepaidPeriodEnd({ billing_plan: plan.phases, prepaid_shipped_cycle: null, next_charge_at: next }),
    ).toBeNull();
  });
});
