import { formatMoney, type Minor } from './money.js';

/**
 * A recurring line's prices by cycle (docs/subscriptions.md, "Prices by cycle"): its phases in order from cycle 1
 * (charged with the order). Each phase charges `amount` for each of its `cycles`, each cycle lasting `days`; only the
 * last phase may have `cycles: null` (it repeats until cancelled). When the last phase has a count, the subscription
 * ends after it. A line with no special cycles is a first cycle, then one phase that repeats.
 */
export interface PlanPhase {
  cycles: number | null;
  amount: Minor;
  days: number;
}

export interface BillingPlan {
  phases: readonly PlanPhase[];
  /**
   * A prepaid plan (docs/subscriptions.md, "Prepaid plans"): each phase's cycle is one payment covering `cycles`
   * cycles of `intervalDays`, the later ones shipped as $0 fulfilment orders. Absent for any other plan.
   */
  prepaid?: PrepaidTerms;
}

export interface PrepaidTerms {
  /** cycles one payment covers */
  cycles: number;
  /** renew: the next period is charged when one ends; end: the subscription ends after its last shipped cycle */
  renewal: 'renew' | 'end';
  /** each shipped cycle's length */
  intervalDays: number;
}

/** The offer's cycle terms (the fields of a recurring offer, docs/api.md "Offers"). */
export interface CycleTerms {
  intervalDays: number;
  /** the first cycle's length when it differs from the interval; null = the interval */
  trialDays: number | null;
  /** how many cycles after the first charge the discounted amount; null or 0 = none */
  discountedCycles: number | null;
  /** cycles in all, the first included; null = until cancelled */
  totalCycles: number | null;
}

/** What each kind of cycle charges: unit prices, or (for a subscription) whole cycle totals. */
export interface CycleAmounts {
  first: Minor;
  discounted: Minor;
  regular: Minor;
}

/** A plan from an offer's terms and the amounts its cycles charge. */
export function buildBillingPlan(terms: CycleTerms, amounts: CycleAmounts): BillingPlan {
  const phases: PlanPhase[] = [
    { cycles: 1, amount: amounts.first, days: terms.trialDays ?? terms.intervalDays },
  ];
  const after = terms.totalCycles === null ? null : Math.max(terms.totalCycles - 1, 0);
  const discounted = Math.min(terms.discountedCycles ?? 0, after ?? Infinity);
  if (discounted > 0)
    phases.push({ cycles: discounted, amount: amounts.discounted, days: terms.intervalDays });
  const regular = after === null ? null : after - discounted;
  if (regular === null || regular > 0) {
    phases.push({ cycles: regular, amount: amounts.regular, days: terms.intervalDays });
  }
  return { phases };
}

/** The same plan with each phase's amount mapped (unit prices to cycle totals). */
export function mapPlanAmounts(
  plan: BillingPlan,
  amountOf: (unitAmount: Minor, index: number) => Minor,
): BillingPlan {
  return {
    ...plan,
    phases: plan.phases.map((phase, index) => ({ ...phase, amount: amountOf(phase.amount, index) })),
  };
}

/** Cycles in all, or null when the plan repeats until cancelled. */
export function planTotalCycles(plan: BillingPlan): number | null {
  let total = 0;
  for (const phase of plan.phases) {
    if (phase.cycles === null) return null;
    total += phase.cycles;
  }
  return total;
}

export interface PlanCycle {
  cycle: number;
  amount: Minor;
  /** how long this cycle lasts: the next charge comes this many days after this one */
  days: number;
  /** the subscription ends after this cycle: no later charge */
  isLast: boolean;
}

/** What cycle `cycle` (1 = the order's) charges, how long it lasts and whether it is the last; null past the end. */
export function planCycle(plan: BillingPlan, cycle: number): PlanCycle | null {
  if (!Number.isInteger(cycle) || cycle < 1) return null;
  let start = 1;
  for (const [index, phase] of plan.phases.entries()) {
    const end = phase.cycles === null ? Infinity : start + phase.cycles - 1;
    if (cycle <= end) {
      const isLastPhase = index === plan.phases.length - 1;
      return { cycle, amount: phase.amount, days: phase.days, isLast: isLastPhase && cycle === end };
    }
    start = end + 1;
  }
  return null;
}

/** Whether the plan is more than "a first charge, then the same every interval until cancelled". */
export function hasSpecialCycles(plan: BillingPlan): boolean {
  if (plan.prepaid) return true;
  const [first, rest, ...more] = plan.phases;
  if (!first || !rest || more.length > 0) return true;
  return rest.cycles !== null || first.days !== rest.days;
}

function every(days: number): string {
  if (days === 1) return 'every day';
  if (days === 7) return 'every week';
  return `every ${days} days`;
}

function lasting(days: number): string {
  return days === 1 ? '1 day' : `${days} days`;
}

function payments(count: number): string {
  return count === 1 ? '1 payment' : `${count} payments`;
}

/**
 * The plan in words, for the page and the terms box: "$1.00 today for 14 days, then $19.99 every 30 days for 2
 * payments, then $29.99 every 30 days; 12 payments in all". The first cycle's length is said only when it differs
 * from the next one's.
 */
export function describeBillingPlan(plan: BillingPlan, currency: string): string {
  if (plan.prepaid) return describePrepaidPlan(plan, plan.prepaid, currency);
  const money = (amount: Minor) => formatMoney(amount, currency);
  const [first, ...later] = plan.phases;
  if (!first) return '';
  const parts: string[] = [];
  const firstDays = later[0] && later[0].days === first.days ? '' : ` for ${lasting(first.days)}`;
  parts.push(
    first.amount === 0 ? `Free${firstDays || ' today'}` : `${money(first.amount)} today${firstDays}`,
  );
  for (const phase of later) {
    if (phase.cycles === 1) parts.push(`then ${money(phase.amount)} once`);
    else {
      const count = phase.cycles === null ? '' : ` for ${payments(phase.cycles)}`;
      parts.push(`then ${money(phase.amount)} ${every(phase.days)}${count}`);
    }
  }
  const total = planTotalCycles(plan);
  const end = total === null ? '' : `; ${payments(total)} in all`;
  return `${parts.join(', ')}${end}`;
}

/**
 * What a plan charges after its first cycle, for a subscriber already past it (the welcome email): "$19.99 every 30
 * days for 2 payments, then $29.99 every 30 days for 9 payments; 12 payments in all, the first included".
 */
export function describeLaterCycles(plan: BillingPlan, currency: string): string {
  if (plan.prepaid) return describePrepaidPlan(plan, plan.prepaid, currency);
  const later = plan.phases.slice(1);
  const parts = later.map((phase) => {
    const amount = formatMoney(phase.amount, currency);
    if (phase.cycles === 1) return `${amount} once`;
    const count = phase.cycles === null ? ' until you cancel' : ` for ${payments(phase.cycles)}`;
    return `${amount} ${every(phase.days)}${count}`;
  });
  const total = planTotalCycles(plan);
  const end = total === null ? '' : `; ${payments(total)} in all, the first included`;
  return `${parts.join(', then ')}${end}`;
}

/**
 * What a subscription whose plan has special cycles charges from its next cycle on, after `paidCycle`: "$23.64 once,
 * then $34.46 every 30 days for 2 payments, the last one"; "" when nothing is left.
 */
export function describeRemainingCycles(plan: BillingPlan, paidCycle: number, currency: string): string {
  if (plan.prepaid) return describePrepaidPlan(plan, plan.prepaid, currency);
  const parts: string[] = [];
  let start = 1;
  for (const phase of plan.phases) {
    const end = phase.cycles === null ? Infinity : start + phase.cycles - 1;
    const from = Math.max(start, paidCycle + 1);
    if (from <= end) {
      const amount = formatMoney(phase.amount, currency);
      const left = end === Infinity ? null : end - from + 1;
      if (left === 1) parts.push(`${amount} once`);
      else
        parts.push(
          `${amount} ${every(phase.days)}${left === null ? ' until cancelled' : ` for ${payments(left)}`}`,
        );
    }
    start = end + 1;
  }
  if (parts.length === 0) return '';
  return `${parts.join(', then ')}${planTotalCycles(plan) === null ? '' : ', the last one'}`;
}

/**
 * A plan as stored (order_lines.billing_plan, subscriptions.billing_plan: the same shape in minor units), or null when
 * there is none or it is not a plan.
 */
export function parseStoredPlan(value: unknown): BillingPlan | null {
  if (typeof value !== 'object' || value === null) return null;
  const phases = (value as { phases?: unknown }).phases;
  if (!Array.isArray(phases) || phases.length === 0) return null;
  const parsed: PlanPhase[] = [];
  for (const [index, phase] of phases.entries()) {
    const { cycles, amount, days } = (phase ?? {}) as Record<string, unknown>;
    const lastPhase = index === phases.length - 1;
    const cyclesOk =
      (cycles === null && lastPhase) || (Number.isSafeInteger(cycles) && (cycles as number) >= 1);
    if (!cyclesOk || !Number.isSafeInteger(amount) || (amount as number) < 0) return null;
    if (!Number.isSafeInteger(days) || (days as number) < 1) return null;
    parsed.push({ cycles: cycles as number | null, amount: amount as Minor, days: days as number });
  }
  const prepaid = parsePrepaidTerms((value as { prepaid?: unknown }).prepaid);
  if (prepaid === undefined) return null;
  return prepaid === null ? { phases: parsed } : { phases: parsed, prepaid };
}

/** A stored plan's prepaid part: null when it has none, undefined when it is not one. */
function parsePrepaidTerms(value: unknown): PrepaidTerms | null | undefined {
  if (value === undefined || value === null) return null;
  const { cycles, renewal, intervalDays } = value as Record<string, unknown>;
  if (!Number.isSafeInteger(cycles) || (cycles as number) < 2) return undefined;
  if (renewal !== 'renew' && renewal !== 'end') return undefined;
  if (!Number.isSafeInteger(intervalDays) || (intervalDays as number) < 1) return undefined;
  return { cycles: cycles as number, renewal, intervalDays: intervalDays as number };
}

/**
 * Whether a cart has a subscription of the shopper's own priced by cycle (a trial, discounted cycles, an end), as the
 * server says in each line's billing_plan: only then does the page load the plan's words.
 */
export function hasPricesByCycle(
  offers: readonly {
    is_recurring: boolean;
    is_gift: boolean;
    billing_plan: { has_special_cycles: boolean } | null;
  }[],
): boolean {
  return offers.some(
    (offer) => offer.is_recurring && !offer.is_gift && offer.billing_plan?.has_special_cycles === true,
  );
}

/** "monthly", "weekly", "every 10 days": how often a prepaid plan ships. */
function shipped(days: number): string {
  if (days === 30) return 'monthly';
  if (days === 7) return 'weekly';
  if (days === 1) return 'daily';
  return `every ${days} days`;
}

/** "3 months", "3 weeks", "3 deliveries": the period one prepaid payment covers. */
function period(cycles: number, days: number): string {
  if (days === 30) return `${cycles} months`;
  if (days === 7) return `${cycles} weeks`;
  return `${cycles} deliveries`;
}

/**
 * What a prepaid plan charges after the order, for the welcome email: "$92.93 for each next 3 months, shipped
 * monthly" (said before "starting on <date>"), or null when it ends after its period (nothing more is charged).
 */
export function describePrepaidRenewal(plan: BillingPlan, currency: string): string | null {
  const terms = plan.prepaid;
  const next = plan.phases[1];
  if (!terms || terms.renewal !== 'renew' || !next) return null;
  const covers = period(terms.cycles, terms.intervalDays);
  return `${formatMoney(next.amount, currency)} for each next ${covers}, shipped ${shipped(terms.intervalDays)}`;
}

/** A prepaid plan that ends, for the welcome email: "Your 3 months are paid for, shipped monthly." */
export function describePrepaidPaidFor(terms: PrepaidTerms): string {
  return `Your ${period(terms.cycles, terms.intervalDays)} are paid for, shipped ${shipped(terms.intervalDays)}.`;
}

/**
 * A prepaid plan in words, for the page, the terms box and the merchant: "3 months for $89.97, shipped monthly;
 * renews every 3 months at $89.97", or "...; ends after the 3rd delivery, nothing more charged".
 */
export function describePrepaidPlan(plan: BillingPlan, terms: PrepaidTerms, currency: string): string {
  const [first, next] = plan.phases;
  if (!first) return '';
  const covers = period(terms.cycles, terms.intervalDays);
  const head = `${covers} for ${formatMoney(first.amount, currency)}, shipped ${shipped(terms.intervalDays)}`;
  if (terms.renewal === 'renew' && next) {
    return `${head}; renews every ${covers} at ${formatMoney(next.amount, currency)}`;
  }
  return `${head}; ends after the last delivery, nothing more charged`;
}
