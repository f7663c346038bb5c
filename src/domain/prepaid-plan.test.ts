import { describe, expect, it } from 'vitest';
import {
  describeBillingPlan,
  describePrepaidPaidFor,
  describePrepaidRenewal,
  parseStoredPlan,
  planCycle,
  type BillingPlan,
} from './billing-plan.js';
import { minor } from './money.js';
import { buildPrepaidPlan, prepaidStep } from './prepaid-plan.js';
import { planWordsIn } from './testing/plan-words.js';

const english = planWordsIn('en');

type Prepaid = BillingPlan & { prepaid: NonNullable<BillingPlan['prepaid']> };
const renewing = buildPrepaidPlan(
  { cycles: 3, renewal: 'renew', intervalDays: 30 },
  { first: minor(9897), renewal: minor(8997) },
) as Prepaid;
const ending = buildPrepaidPlan(
  { cycles: 3, renewal: 'end', intervalDays: 30 },
  { first: minor(9897), renewal: minor(8997) },
) as Prepaid;

describe('buildPrepaidPlan', () => {
  it('makes one payment per period, each lasting the whole period', () => {
    expect(renewing.phases).toEqual([
      { cycles: 1, amount: 9897, days: 90 },
      { cycles: null, amount: 8997, days: 90 },
    ]);
    expect(ending.phases).toEqual([{ cycles: 1, amount: 9897, days: 90 }]);
  });

  it('survives being stored', () => {
    expect(parseStoredPlan(JSON.parse(JSON.stringify(renewing)))).toEqual(renewing);
    expect(
      parseStoredPlan({ ...renewing, prepaid: { cycles: 1, renewal: 'renew', intervalDays: 30 } }),
    ).toBeNull();
  });

  it('says the plan in words', () => {
    expect(describeBillingPlan(renewing, 'USD', english)).toBe(
      '3 months for $98.97, shipped monthly; renews every 3 months at $89.97',
    );
    expect(describeBillingPlan(ending, 'USD', english)).toBe(
      '3 months for $98.97, shipped monthly; ends after the last delivery, nothing more charged',
    );
  });
});

describe('prepaidStep', () => {
  it('fulfils cycles 2 and 3, then charges the next period at cycle 4', () => {
    expect(prepaidStep(renewing, 1)).toEqual({ kind: 'fulfil', cycle: 2, endsPlan: false });
    expect(prepaidStep(renewing, 2)).toEqual({ kind: 'fulfil', cycle: 3, endsPlan: false });
    expect(prepaidStep(renewing, 3)).toEqual({ kind: 'charge', cycle: 4, payment: 2 });
    expect(planCycle(renewing, 2)?.amount).toBe(8997);
    expect(prepaidStep(renewing, 4)).toEqual({ kind: 'fulfil', cycle: 5, endsPlan: false });
    expect(prepaidStep(renewing, 6)).toEqual({ kind: 'charge', cycle: 7, payment: 3 });
  });

  it('ends a plan that does not renew with its last shipped cycle', () => {
    expect(prepaidStep(ending, 1)).toEqual({ kind: 'fulfil', cycle: 2, endsPlan: false });
    expect(prepaidStep(ending, 2)).toEqual({ kind: 'fulfil', cycle: 3, endsPlan: true });
    expect(prepaidStep(ending, 3)).toEqual({ kind: 'end' });
  });
});

describe('the welcome words', () => {
  it('names the renewal of a plan that renews, and says a plan that ends is paid for', () => {
    expect(describePrepaidRenewal(renewing, 'USD', english)).toBe(
      '$89.97 for each next 3 months, shipped monthly',
    );
    expect(describePrepaidRenewal(ending, 'USD', english)).toBeNull();
    expect(describePrepaidPaidFor(ending.prepaid, english)).toBe(
      'Your 3 months are paid for, shipped monthly.',
    );
  });
});

/** Intl writes a no-break space between an amount and its currency; the expectations are written with spaces. */
const spaced = (text: string | null) => text?.replace(/[\u00a0\u202f]/g, ' ');

describe('a prepaid plan in the reader’s language', () => {
  it('names the period by its unit and counts it as the language counts', () => {
    const weekly = buildPrepaidPlan(
      { cycles: 3, renewal: 'end', intervalDays: 7 },
      { first: minor(9897), renewal: minor(8997) },
    ) as Prepaid;
    expect(spaced(describeBillingPlan(renewing, 'USD', planWordsIn('es')))).toBe(
      '3 meses por 98,97 US$, con envío cada mes; se renueva cada 3 meses por 89,97 US$',
    );
    expect(spaced(describePrepaidPaidFor(weekly.prepaid, planWordsIn('ja')))).toBe(
      '3週間分のお支払いは完了しています。毎週お届けします。',
    );
    expect(spaced(describePrepaidRenewal(renewing, 'USD', planWordsIn('ar')))).toBe(
      '‏89.97 US$ عن كل فترة تالية مدتها 3 أشهر، تُشحن شهريًا',
    );
  });
});
