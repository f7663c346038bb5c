// A subscription's prices by cycle (docs/subscriptions.md, "Prices by cycle"): the plan it keeps from its order line,
// and what the merchant API, the cart and webhooks say of it.
import type { BillingPlan as WireBillingPlan } from '../../../contract/cart.js';
import {
  buildBillingPlan,
  describeBillingPlan,
  describeRemainingCycles,
  hasSpecialCycles,
  parseStoredPlan,
  planCycle,
  planTotalCycles,
  type BillingPlan,
  type PlanCycle,
  type PlanWords,
} from '../../../domain/billing-plan.js';
import { minor } from '../../../domain/money.js';
import { prepaidStep } from '../../../domain/prepaid-plan.js';
import type { Subscription } from '../../../contract/merchant.js';

type WirePrepaid = NonNullable<Subscription['prepaid']>;
import { major } from '../../platform/http/money-input.js';

/** The part of an order line its subscription's plan comes from. */
export interface RecurringLine {
  total: number;
  billing_interval_days: number | null;
  next_cycle_total: number | null;
  /** the plan priced with the order, when the line has one */
  billing_plan?: unknown;
}

/**
 * The plan a subscription keeps from its line: the one priced with the order, or (a line with no prices by cycle,
 * or written before them) its total today, then its next-cycle total every interval until cancelled. Callable for
 * any recurring line, whatever made it recurring.
 */
export function subscriptionPlanOf(line: RecurringLine): BillingPlan {
  const stored = parseStoredPlan(line.billing_plan ?? null);
  if (stored) return stored;
  const intervalDays = line.billing_interval_days ?? 30;
  return buildBillingPlan(
    { intervalDays, trialDays: null, discountedCycles: null, totalCycles: null },
    {
      first: minor(line.total),
      discounted: minor(line.next_cycle_total ?? 0),
      regular: minor(line.next_cycle_total ?? 0),
    },
  );
}

/** The cycle a subscription charges next (its last paid cycle + 1), or null when its plan has ended. */
export function nextPlanCycle(plan: BillingPlan, paidCycle: number): PlanCycle | null {
  return planCycle(plan, paidCycle + 1);
}

/**
 * What a subscription priced by cycle has left to charge, in words (the merchant's English, the subscriber's page's
 * language); null when it has ended or its charges are all alike (its cycle amount and interval say it then).
 */
export function remainingPlanWords(
  row: { billing_plan: unknown; cycle: number; status: string; currency: string },
  words: PlanWords,
): string | null {
  if (row.status === 'cancelled') return null;
  const plan = parseStoredPlan(row.billing_plan);
  if (!plan || !hasSpecialCycles(plan)) return null;
  return describeRemainingCycles(plan, row.cycle, row.currency, words) || null;
}

/**
 * The plan as the merchant API, the cart and webhooks show it: major units, and in words (the cart's in its language,
 * the merchant's in English).
 */
export function presentBillingPlan(plan: BillingPlan, currency: string, words: PlanWords): WireBillingPlan {
  return {
    phases: plan.phases.map((phase) => ({
      cycles: phase.cycles,
      amount: major(phase.amount, currency),
      interval_days: phase.days,
    })),
    total_cycles: planTotalCycles(plan),
    has_special_cycles: hasSpecialCycles(plan),
    description: describeBillingPlan(plan, currency, words),
    prepaid: plan.prepaid
      ? {
          cycles: plan.prepaid.cycles,
          renewal: plan.prepaid.renewal,
          interval_days: plan.prepaid.intervalDays,
        }
      : null,
  };
}

/**
 * What the confirmation says of a subscription's next charge (docs/subscriptions.md, "Prepaid plans"): a prepaid
 * plan's comes at the start of its next period, then every period; null when a prepaid plan charges nothing more.
 * Any other subscription's notice is as it is.
 */
export function nextChargeNotice<
  T extends { cycle_amount: number; interval_days: number; next_charge_at: Date },
>(notice: T, kept: { billing_plan: unknown; prepaid_shipped_cycle: number | null }): T | null {
  const period = prepaidPeriodEnd({ ...kept, next_charge_at: notice.next_charge_at });
  if (period === null) return notice;
  if (!period.renews) return null;
  return { ...notice, next_charge_at: period.endsAt, interval_days: period.days };
}

/**
 * When a prepaid subscription's paid period ends (the date of its next charge, when it renews), how long a period
 * lasts and whether it renews; null for any other subscription. `next_charge_at` is the date of its next cycle.
 */
export function prepaidPeriodEnd(row: {
  billing_plan: unknown;
  prepaid_shipped_cycle: number | null;
  next_charge_at: Date;
}): { endsAt: Date; days: number; renews: boolean } | null {
  const plan = parseStoredPlan(row.billing_plan);
  const shipped = row.prepaid_shipped_cycle;
  if (!plan?.prepaid || shipped === null) return null;
  const { cycles, intervalDays } = plan.prepaid;
  const periodsPaid = Math.ceil(shipped / cycles);
  // The period ends where the first cycle of the next one would start.
  const cyclesLeft = periodsPaid * cycles - shipped;
  return {
    endsAt: new Date(row.next_charge_at.getTime() + cyclesLeft * intervalDays * 86_400_000),
    days: cycles * intervalDays,
    renews: planCycle(plan, periodsPaid + 1) !== null,
  };
}

/**
 * A prepaid subscription as the merchant API shows it (docs/subscriptions.md, "Prepaid plans"): its terms, the last
 * cycle it had and what its next date does (ship a $0 fulfilment or charge the next period); null for other plans.
 */
export function presentPrepaid(row: {
  billing_plan: unknown;
  prepaid_shipped_cycle: number | null;
  status: string;
  next_charge_at: Date;
  currency: string;
}): WirePrepaid | null {
  const plan = parseStoredPlan(row.billing_plan);
  if (!plan?.prepaid || row.prepaid_shipped_cycle === null) return null;
  const step =
    row.status === 'cancelled'
      ? null
      : prepaidStep({ ...plan, prepaid: plan.prepaid }, row.prepaid_shipped_cycle);
  const at = row.next_charge_at.toISOString();
  let next: WirePrepaid['next'] = null;
  if (step?.kind === 'fulfil') next = { kind: 'fulfilment', cycle: step.cycle, amount: 0, at };
  if (step?.kind === 'charge') {
    const amount = planCycle(plan, step.payment)?.amount ?? 0;
    next = { kind: 'charge', cycle: step.cycle, amount: major(amount, row.currency), at };
  }
  return {
    cycles: plan.prepaid.cycles,
    renewal: plan.prepaid.renewal,
    shipped_cycle: row.prepaid_shipped_cycle,
    next,
  };
}
