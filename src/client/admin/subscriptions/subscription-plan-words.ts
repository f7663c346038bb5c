// What a subscription's plan says on the dashboard (docs/dashboard.md, "Subscriptions"): a prepaid plan's periods
// (docs/subscriptions.md, "Prepaid plans") and a plan priced by cycle, worked out from the API's answer alone.
import type { Subscription } from '../../../contract/merchant.js';

const DAY = 86_400_000;

type PrepaidFacts = Pick<
  Subscription,
  'prepaid' | 'billing_plan' | 'interval_days' | 'next_charge_at' | 'cycle_amount' | 'status' | 'cancel_at'
>;

export interface PrepaidState {
  cyclesPerPeriod: number;
  /** days between two shipped cycles */
  intervalDays: number;
  /** cycles paid for so far (whole periods) */
  cyclesPaid: number;
  /** cycles shipped so far (1 = the order's) */
  cyclesShipped: number;
  /** the period the last shipped cycle is in, and its place there */
  period: number;
  cycleInPeriod: number;
  renews: boolean;
  /** the next cycle shipped as a $0 fulfilment order; null when the next date charges, or nothing is next */
  nextDelivery: { cycle: number; at: string } | null;
  /** the next period's charge, covering cycles `cycle` onwards; null when none will come */
  nextCharge: { cycle: number; at: string; amount: number } | null;
}

/** A prepaid subscription's periods and what comes next; null for any other subscription. */
export function prepaidState(s: PrepaidFacts): PrepaidState | null {
  if (!s.prepaid) return null;
  const { cycles, renewal, shipped_cycle: shipped, next } = s.prepaid;
  const intervalDays = s.billing_plan?.prepaid?.interval_days ?? s.interval_days;
  const periodsPaid = Math.ceil(shipped / cycles);
  const cyclesPaid = periodsPaid * cycles;
  const renews = renewal === 'renew';
  const running = s.status !== 'cancelled' && s.status !== 'paused' && s.cancel_at === null;
  let nextCharge: PrepaidState['nextCharge'] = null;
  if (running && next?.kind === 'charge')
    nextCharge = { cycle: next.cycle, at: next.at, amount: next.amount };
  else if (running && renews && next?.kind === 'fulfilment') {
    // The next date ships cycle shipped + 1; the period's charge comes where its first cycle would start.
    const at = new Date(Date.parse(next.at) + (cyclesPaid - shipped) * intervalDays * DAY).toISOString();
    nextCharge = { cycle: cyclesPaid + 1, at, amount: s.cycle_amount };
  }
  return {
    cyclesPerPeriod: cycles,
    intervalDays,
    cyclesPaid,
    cyclesShipped: shipped,
    period: periodsPaid,
    cycleInPeriod: ((shipped - 1) % cycles) + 1,
    renews,
    nextDelivery:
      next?.kind === 'fulfilment' && s.status !== 'cancelled' ? { cycle: next.cycle, at: next.at } : null,
    nextCharge,
  };
}

/** Where a cycle sits in a plan priced by cycle: its phase, in words. */
export function planStage(plan: NonNullable<Subscription['billing_plan']>, cycle: number): string {
  const { phases } = plan;
  let start = 1;
  for (const [index, phase] of phases.entries()) {
    const end = phase.cycles === null ? Infinity : start + phase.cycles - 1;
    if (cycle <= end) {
      const last = index === phases.length - 1;
      const laterPhase = phases[index + 1];
      if (index === 0 && laterPhase) {
        if (phase.amount === 0) return 'Free trial (the first cycle)';
        return phase.interval_days !== laterPhase.interval_days
          ? 'Trial (the first cycle)'
          : 'The first cycle';
      }
      if (!last && phase.cycles !== null) {
        return `Discounted cycle ${cycle - start + 1} of ${phase.cycles}`;
      }
      return 'Regular price';
    }
    start = end + 1;
  }
  return 'Past the plan’s last cycle';
}

/** "2 of 12" or "2, until cancelled". */
export function cycleOfPlan(cycle: number, totalCycles: number | null): string {
  return totalCycles === null ? `${cycle}, until cancelled` : `${cycle} of ${totalCycles}`;
}

/** The list's compact mark of a subscription's plan, in words; null for a plain one. */
export function planBadge(s: Pick<Subscription, 'prepaid' | 'billing_plan'>): string | null {
  if (s.prepaid) return `Prepaid: ${s.prepaid.cycles} cycles a payment`;
  if (s.billing_plan?.has_special_cycles) return 'Priced by cycle';
  return null;
}

/** Days between two charges: a prepaid plan charges once a period of several cycles. */
export function chargeIntervalOf(
  s: Pick<Subscription, 'prepaid' | 'billing_plan' | 'interval_days'>,
): number {
  if (!s.prepaid) return s.interval_days;
  return s.prepaid.cycles * (s.billing_plan?.prepaid?.interval_days ?? s.interval_days);
}
