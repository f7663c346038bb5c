import { formattingLocaleOf, type Language } from '../i18n/languages.js';
import type { MessageKey, MessageValues } from '../i18n/message-keys.js';
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

/**
 * What a plan's words need (docs/languages.md, "Messages"): the catalogue's `plan` messages (the server's
 * translatorFor, the page's useT) and the reader's language, which writes the amounts and joins the phrases.
 */
export interface PlanWords {
  t: (key: MessageKey, values?: MessageValues) => string;
  language: Language;
}

function moneyIn(words: PlanWords, currency: string): (amount: Minor) => string {
  return (amount) => formatMoney(amount, currency, formattingLocaleOf(words.language));
}

// "A, then B, then C": each phrase says its own "then"; the list is joined as the reader's language lists measures.
// A lone phrase (a plan with one later price) needs no list, nor the Intl list data a page loads for one.
function joined(phrases: readonly string[], words: PlanWords): string {
  if (phrases.length === 1) return phrases[0] ?? '';
  return new Intl.ListFormat(formattingLocaleOf(words.language), { type: 'unit', style: 'long' }).format(
    phrases,
  );
}

/** One phase after the first: "then $29.99 every 30 days for 2 payments"; `lead` drops the "then". */
function phasePhrase(
  phase: { amount: string; days: number; payments: number | null },
  words: PlanWords,
  options: { lead: boolean; untilCancel: boolean },
): string {
  const { amount, days, payments } = phase;
  if (payments === 1) return words.t(options.lead ? 'plan.once' : 'plan.then_once', { amount });
  if (payments !== null) {
    return words.t(options.lead ? 'plan.every_for' : 'plan.then_every_for', { amount, days, payments });
  }
  if (options.untilCancel) {
    return words.t(options.lead ? 'plan.every_until_cancel' : 'plan.then_every_until_cancel', {
      amount,
      days,
    });
  }
  return words.t(options.lead ? 'plan.every' : 'plan.then_every', { amount, days });
}

/**
 * The plan in words, for the page and the terms box: "$1.00 today for 14 days, then $19.99 every 30 days for 2
 * payments, then $29.99 every 30 days; 12 payments in all". The first cycle's length is said only when it differs
 * from the next one's.
 */
export function describeBillingPlan(plan: BillingPlan, currency: string, words: PlanWords): string {
  if (plan.prepaid) return describePrepaidPlan(plan, plan.prepaid, currency, words);
  const money = moneyIn(words, currency);
  const [first, ...later] = plan.phases;
  if (!first) return '';
  const sayDays = !(later[0] && later[0].days === first.days);
  const days = first.days;
  const phrases = [
    first.amount === 0
      ? sayDays
        ? words.t('plan.free_for', { days })
        : words.t('plan.free_today')
      : words.t(sayDays ? 'plan.today_for' : 'plan.today', { amount: money(first.amount), days }),
    ...later.map((phase) =>
      phasePhrase({ amount: money(phase.amount), days: phase.days, payments: phase.cycles }, words, {
        lead: false,
        untilCancel: false,
      }),
    ),
  ];
  const total = planTotalCycles(plan);
  const list = joined(phrases, words);
  return total === null ? list : words.t('plan.in_all', { plan: list, payments: total });
}

/**
 * What a plan charges after its first cycle, for a subscriber already past it (the welcome email): "$19.99 every 30
 * days for 2 payments, then $29.99 every 30 days for 9 payments; 12 payments in all, the first included".
 */
export function describeLaterCycles(plan: BillingPlan, currency: string, words: PlanWords): string {
  if (plan.prepaid) return describePrepaidPlan(plan, plan.prepaid, currency, words);
  const money = moneyIn(words, currency);
  const phrases = plan.phases.slice(1).map((phase, index) =>
    phasePhrase({ amount: money(phase.amount), days: phase.days, payments: phase.cycles }, words, {
      lead: index === 0,
      untilCancel: true,
    }),
  );
  const total = planTotalCycles(plan);
  const list = joined(phrases, words);
  return total === null ? list : words.t('plan.in_all_first_included', { plan: list, payments: total });
}

/**
 * What a subscription whose plan has special cycles charges from its next cycle on, after `paidCycle`: "$23.64 once,
 * then $34.46 every 30 days for 2 payments, the last one"; "" when nothing is left.
 */
export function describeRemainingCycles(
  plan: BillingPlan,
  paidCycle: number,
  currency: string,
  words: PlanWords,
): string {
  if (plan.prepaid) return describePrepaidPlan(plan, plan.prepaid, currency, words);
  const money = moneyIn(words, currency);
  const phrases: string[] = [];
  let start = 1;
  for (const phase of plan.phases) {
    const end = phase.cycles === null ? Infinity : start + phase.cycles - 1;
    const from = Math.max(start, paidCycle + 1);
    if (from <= end) {
      const left = end === Infinity ? null : end - from + 1;
      phrases.push(
        phasePhrase({ amount: money(phase.amount), days: phase.days, payments: left }, words, {
          lead: phrases.length === 0,
          untilCancel: true,
        }),
      );
    }
    start = end + 1;
  }
  if (phrases.length === 0) return '';
  const list = joined(phrases, words);
  return planTotalCycles(plan) === null ? list : words.t('plan.last_one', { plan: list });
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

/** A prepaid plan's period and how often it ships, as its messages take them: "3 months", "monthly". */
function prepaidValues(terms: PrepaidTerms, words: PlanWords): { period: string; shipped: string } {
  const unit = terms.intervalDays === 30 ? 'month' : terms.intervalDays === 7 ? 'week' : 'delivery';
  return {
    period: words.t('plan.prepaid.period', { unit, cycles: terms.cycles }),
    shipped: words.t('plan.prepaid.shipped', { days: terms.intervalDays }),
  };
}

/**
 * What a prepaid plan charges after the order, for the welcome email: "$92.93 for each next 3 months, shipped
 * monthly" (said before "starting on <date>"), or null when it ends after its period (nothing more is charged).
 */
export function describePrepaidRenewal(plan: BillingPlan, currency: string, words: PlanWords): string | null {
  const terms = plan.prepaid;
  const next = plan.phases[1];
  if (!terms || terms.renewal !== 'renew' || !next) return null;
  return words.t('plan.prepaid.renewal', {
    ...prepaidValues(terms, words),
    next: moneyIn(words, currency)(next.amount),
  });
}

/** A prepaid plan that ends, for the welcome email: "Your 3 months are paid for, shipped monthly." */
export function describePrepaidPaidFor(terms: PrepaidTerms, words: PlanWords): string {
  return words.t('plan.prepaid.paid_for', prepaidValues(terms, words));
}

/**
 * A prepaid plan in words, for the page, the terms box and the merchant: "3 months for $89.97, shipped monthly;
 * renews every 3 months at $89.97", or "...; ends after the last delivery, nothing more charged".
 */
export function describePrepaidPlan(
  plan: BillingPlan,
  terms: PrepaidTerms,
  currency: string,
  words: PlanWords,
): string {
  const [first, next] = plan.phases;
  if (!first) return '';
  const money = moneyIn(words, currency);
  const values = { ...prepaidValues(terms, words), amount: money(first.amount) };
  if (terms.renewal === 'renew' && next) {
    return words.t('plan.prepaid.renews', { ...values, next: money(next.amount) });
  }
  return words.t('plan.prepaid.ends', values);
}
