import { describe, expect, it } from 'vitest';
import {
  buildBillingPlan,
  describeBillingPlan,
  describeLaterCycles,
  describeRemainingCycles,
  hasPricesByCycle,
  hasSpecialCycles,
  mapPlanAmounts,
  parseStoredPlan,
  planCycle,
  planTotalCycles,
} from './billing-plan.js';
import { minor } from './money.js';
import { planWordsIn } from './testing/plan-words.js';

const english = planWordsIn('en');

const amounts = { first: minor(100), discounted: minor(1999), regular: minor(2999) };
const trial = { intervalDays: 30, trialDays: 14, discountedCycles: 2, totalCycles: 12 };

describe('buildBillingPlan', () => {
  it('makes a trial, its discounted cycles and the full price up to the total', () => {
    expect(buildBillingPlan(trial, amounts).phases).toEqual([
      { cycles: 1, amount: 100, days: 14 },
      { cycles: 2, amount: 1999, days: 30 },
      { cycles: 9, amount: 2999, days: 30 },
    ]);
  });

  it('makes a plain recurring line a first cycle and one phase that repeats', () => {
    const plain = { intervalDays: 30, trialDays: null, discountedCycles: null, totalCycles: null };
    const plan = buildBillingPlan(plain, amounts);
    expect(plan.phases).toEqual([
      { cycles: 1, amount: 100, days: 30 },
      { cycles: null, amount: 2999, days: 30 },
    ]);
    expect(hasSpecialCycles(plan)).toBe(false);
  });

  it('drops the full-price phase when the discounted cycles reach the total', () => {
    const plan = buildBillingPlan({ ...trial, discountedCycles: 3, totalCycles: 4 }, amounts);
    expect(plan.phases.map((phase) => phase.cycles)).toEqual([1, 3]);
    expect(planTotalCycles(plan)).toBe(4);
  });

  it('keeps no more discounted cycles than the total leaves', () => {
    const plan = buildBillingPlan({ ...trial, discountedCycles: 5, totalCycles: 3 }, amounts);
    expect(plan.phases.map((phase) => phase.cycles)).toEqual([1, 2]);
  });
});

describe('planCycle', () => {
  const plan = buildBillingPlan(trial, amounts);

  it('says the price and length of each cycle, and ends after the total', () => {
    expect(planCycle(plan, 1)).toEqual({ cycle: 1, amount: 100, days: 14, isLast: false });
    expect(planCycle(plan, 2)).toEqual({ cycle: 2, amount: 1999, days: 30, isLast: false });
    expect(planCycle(plan, 3)).toEqual({ cycle: 3, amount: 1999, days: 30, isLast: false });
    expect(planCycle(plan, 4)).toEqual({ cycle: 4, amount: 2999, days: 30, isLast: false });
    expect(planCycle(plan, 11)?.isLast).toBe(false);
    expect(planCycle(plan, 12)).toEqual({ cycle: 12, amount: 2999, days: 30, isLast: true });
    expect(planCycle(plan, 13)).toBeNull();
  });

  it('never ends a plan that repeats until cancelled', () => {
    const open = buildBillingPlan({ ...trial, totalCycles: null }, amounts);
    expect(planCycle(open, 500)).toEqual({ cycle: 500, amount: 2999, days: 30, isLast: false });
    expect(planTotalCycles(open)).toBeNull();
  });

  it('answers nothing for a cycle that is not a positive whole number', () => {
    expect(planCycle(plan, 0)).toBeNull();
    expect(planCycle(plan, 1.5)).toBeNull();
  });
});

describe('mapPlanAmounts', () => {
  it('turns unit prices into cycle totals phase by phase', () => {
    const plan = mapPlanAmounts(buildBillingPlan(trial, amounts), (unit) => minor(unit * 2 + 500));
    expect(plan.phases.map((phase) => phase.amount)).toEqual([700, 4498, 6498]);
  });
});

describe('describeBillingPlan', () => {
  it('says today, the trial length, the discounted cycles, the price after and the number of payments', () => {
    expect(describeBillingPlan(buildBillingPlan(trial, amounts), 'USD', english)).toBe(
      '$1.00 today for 14 days, then $19.99 every 30 days for 2 payments, then $29.99 every 30 days for 9 payments; 12 payments in all',
    );
  });

  it('says a free trial is free', () => {
    const plan = buildBillingPlan(
      { intervalDays: 30, trialDays: 7, discountedCycles: null, totalCycles: null },
      { ...amounts, first: minor(0) },
    );
    expect(describeBillingPlan(plan, 'USD', english)).toBe('Free for 7 days, then $29.99 every 30 days');
  });

  it('leaves out the first length when it is the interval', () => {
    const plan = buildBillingPlan(
      { ...trial, trialDays: null, discountedCycles: 1, totalCycles: null },
      amounts,
    );
    expect(describeBillingPlan(plan, 'USD', english)).toBe(
      '$1.00 today, then $19.99 once, then $29.99 every 30 days',
    );
    expect(hasSpecialCycles(plan)).toBe(true);
  });

  it('says a weekly plan every week', () => {
    const plan = buildBillingPlan(
      { intervalDays: 7, trialDays: null, discountedCycles: null, totalCycles: 4 },
      amounts,
    );
    expect(describeBillingPlan(plan, 'USD', english)).toBe(
      '$1.00 today, then $29.99 every week for 3 payments; 4 payments in all',
    );
  });
});

describe('parseStoredPlan', () => {
  it('reads back a plan as stored', () => {
    const plan = buildBillingPlan(trial, amounts);
    expect(parseStoredPlan(JSON.parse(JSON.stringify(plan)))).toEqual(plan);
  });

  it('refuses what is not a plan', () => {
    expect(parseStoredPlan(null)).toBeNull();
    expect(parseStoredPlan({ phases: [] })).toBeNull();
    expect(
      parseStoredPlan({
        phases: [
          { cycles: null, amount: 100, days: 30 },
          { cycles: 1, amount: 1, days: 1 },
        ],
      }),
    ).toBeNull();
    expect(parseStoredPlan({ phases: [{ cycles: 1, amount: 1.5, days: 30 }] })).toBeNull();
  });
});

describe('hasPricesByCycle', () => {
  const line = { is_recurring: true, is_gift: false, billing_plan: { has_special_cycles: true } };

  it('is true only for a recurring line of the buyer with special cycles', () => {
    expect(hasPricesByCycle([line])).toBe(true);
    expect(hasPricesByCycle([{ ...line, is_gift: true }])).toBe(false);
    expect(hasPricesByCycle([{ ...line, billing_plan: { has_special_cycles: false } }])).toBe(false);
    expect(hasPricesByCycle([{ ...line, is_recurring: false, billing_plan: null }])).toBe(false);
  });
});

describe('describeLaterCycles', () => {
  it('says what comes after the first cycle, and how many payments in all', () => {
    expect(describeLaterCycles(buildBillingPlan(trial, amounts), 'USD', english)).toBe(
      '$19.99 every 30 days for 2 payments, then $29.99 every 30 days for 9 payments; 12 payments in all, the first included',
    );
    const open = buildBillingPlan({ ...trial, discountedCycles: null, totalCycles: null }, amounts);
    expect(describeLaterCycles(open, 'USD', english)).toBe('$29.99 every 30 days until you cancel');
  });
});

describe('describeRemainingCycles', () => {
  const plan = buildBillingPlan({ ...trial, totalCycles: 5 }, amounts);

  it('says what is left to charge after the paid cycle', () => {
    expect(describeRemainingCycles(plan, 1, 'USD', english)).toBe(
      '$19.99 every 30 days for 2 payments, then $29.99 every 30 days for 2 payments, the last one',
    );
    expect(describeRemainingCycles(plan, 2, 'USD', english)).toBe(
      '$19.99 once, then $29.99 every 30 days for 2 payments, the last one',
    );
    expect(describeRemainingCycles(plan, 4, 'USD', english)).toBe('$29.99 once, the last one');
    expect(describeRemainingCycles(plan, 5, 'USD', english)).toBe('');
  });

  it('says until you cancel for a plan without an end', () => {
    const open = buildBillingPlan({ ...trial, totalCycles: null }, amounts);
    expect(describeRemainingCycles(open, 3, 'USD', english)).toBe('$29.99 every 30 days until you cancel');
  });
});

/** Intl writes a no-break space between an amount and its currency; the expectations are written with spaces. */
const spaced = (text: string | null) => text?.replace(/[\u00a0\u202f]/g, ' ');

describe('the plan in the reader’s language', () => {
  const plan = buildBillingPlan(trial, amounts);
  const free = buildBillingPlan(
    { intervalDays: 30, trialDays: 7, discountedCycles: null, totalCycles: null },
    { first: minor(0), discounted: minor(2999), regular: minor(2999) },
  );

  it('says it in Spanish, amounts and list as Spanish writes them', () => {
    const spanish = planWordsIn('es');
    expect(spaced(describeBillingPlan(plan, 'USD', spanish))).toBe(
      '1,00 US$ hoy durante 14 días, luego 19,99 US$ cada 30 días durante 2 pagos y luego 29,99 US$ cada 30 días durante 9 pagos; 12 pagos en total',
    );
    expect(spaced(describeBillingPlan(free, 'EUR', spanish))).toBe(
      'Gratis durante 7 días y luego 29,99 € cada 30 días',
    );
    expect(spaced(describeRemainingCycles(plan, 2, 'USD', spanish))).toBe(
      '19,99 US$ una sola vez y luego 29,99 US$ cada 30 días durante 9 pagos, el último',
    );
  });

  it('says it in Japanese, which counts with one form', () => {
    const japanese = planWordsIn('ja');
    expect(spaced(describeBillingPlan(plan, 'USD', japanese))).toBe(
      '本日$1.00（14日間） その後30日ごとに$19.99（2回） その後30日ごとに$29.99（9回）、お支払いは合計12回',
    );
    expect(spaced(describeLaterCycles(free, 'JPY', japanese))).toBe('解約まで30日ごとに￥2,999');
  });

  it('says it in Arabic, each count in its plural category', () => {
    const arabic = planWordsIn('ar');
    const daily = buildBillingPlan(
      { intervalDays: 1, trialDays: 2, discountedCycles: null, totalCycles: 3 },
      amounts,
    );
    // two (2 days, 2 payments), few (3 payments), many (11 to 99 days), other (12 payments), one (every day)
    expect(spaced(describeBillingPlan(daily, 'USD', arabic))).toBe(
      '‏1.00 US$ اليوم لمدة يومين وبعد ذلك ‏29.99 US$ كل يوم على دفعتين؛ 3 دفعات في المجموع',
    );
    expect(spaced(describeLaterCycles(plan, 'USD', arabic))).toBe(
      '‏19.99 US$ كل 30 يومًا على دفعتين وبعد ذلك ‏29.99 US$ كل 30 يومًا على 9 دفعات؛ 12 دفعة في المجموع، بما فيها الأولى',
    );
  });
});
