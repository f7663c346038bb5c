// Prepaid plans (docs/subscriptions.md, "Prepaid plans"): one payment covers several cycles; the others are shipped
// as $0 fulfilment orders, then the plan renews with the next whole period or ends.
import { planCycle, type BillingPlan, type PlanPhase, type PrepaidTerms } from './billing-plan.js';
import type { Minor } from './money.js';

/**
 * A prepaid plan in payments: the first period (paid with the order), then, when it renews, the next period every
 * period until cancelled. Each payment's cycle lasts the whole period (cycles × interval).
 */
export function buildPrepaidPlan(
  terms: PrepaidTerms,
  amounts: { first: Minor; renewal: Minor },
): BillingPlan {
  const days = terms.cycles * terms.intervalDays;
  const phases: PlanPhase[] = [{ cycles: 1, amount: amounts.first, days }];
  if (terms.renewal === 'renew') phases.push({ cycles: null, amount: amounts.renewal, days });
  return { phases, prepaid: terms };
}

export type PrepaidStep =
  /** ship `cycle` as a $0 order; `endsPlan` when it is the plan's last cycle (renewal `end`) */
  | { kind: 'fulfil'; cycle: number; endsPlan: boolean }
  /** charge payment `payment` of the plan, which covers cycles `cycle` to `cycle` + cycles - 1 */
  | { kind: 'charge'; cycle: number; payment: number }
  /** nothing is left: the plan ended with its last shipped cycle */
  | { kind: 'end' };

/**
 * What a prepaid subscription does at its next date, after its cycle `shippedCycle` (1 = the order's): a cycle
 * inside a paid period is fulfilled; the first cycle of the next period is charged (one payment for the period)
 * when the plan renews; past the last period nothing is charged.
 */
export function prepaidStep(
  plan: BillingPlan & { prepaid: PrepaidTerms },
  shippedCycle: number,
): PrepaidStep {
  const cycle = shippedCycle + 1;
  const { cycles } = plan.prepaid;
  const payment = Math.floor((cycle - 1) / cycles) + 1;
  const startsPeriod = (cycle - 1) % cycles === 0;
  if (!startsPeriod) {
    const lastOfPeriod = cycle % cycles === 0;
    return { kind: 'fulfil', cycle, endsPlan: lastOfPeriod && planCycle(plan, payment + 1) === null };
  }
  if (planCycle(plan, payment) === null) return { kind: 'end' };
  return { kind: 'charge', cycle, payment };
}
