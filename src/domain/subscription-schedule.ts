import { formattingLocaleOf } from '../i18n/languages.js';
import type { PlanWords } from './billing-plan.js';
import { formatMoney, fromMajor, minor, toMajor, type Minor } from './money.js';

/** The part of an order line the schedule needs (amounts in major units, as on the wire). */
export interface ScheduleLine {
  is_recurring: boolean;
  /** a gifted subscription's later cycles are the recipient's, started by their claim: not the buyer's */
  is_gift?: boolean;
  billing_interval_days: number | null;
  next_cycle_total: number | null;
}

export interface LaterCharge {
  intervalDays: number;
  /** major units */
  amount: number;
}

/** What later cycles charge the buyer, summed per billing interval (shortest first). */
export function laterCycleCharges(lines: readonly ScheduleLine[], currency: string): LaterCharge[] {
  const byInterval = new Map<number, Minor>();
  for (const line of lines) {
    if (
      !line.is_recurring ||
      line.is_gift ||
      line.billing_interval_days === null ||
      line.next_cycle_total === null
    ) {
      continue;
    }
    const amount = fromMajor(line.next_cycle_total, currency) ?? minor(0);
    byInterval.set(
      line.billing_interval_days,
      minor((byInterval.get(line.billing_interval_days) ?? 0) + amount),
    );
  }
  return [...byInterval.entries()]
    .sort(([a], [b]) => a - b)
    .map(([intervalDays, amount]) => ({ intervalDays, amount: toMajor(amount, currency) }));
}

/**
 * "Today $29.00, then $25.00 every 30 days" (and "$9.99 every week" for each other interval) in the reader's
 * language (docs/languages.md); null when nothing recurs.
 */
export function subscriptionScheduleText(
  totalToday: number,
  lines: readonly ScheduleLine[],
  currency: string,
  words: PlanWords,
): string | null {
  const later = laterCycleCharges(lines, currency);
  if (later.length === 0) return null;
  const locale = formattingLocaleOf(words.language);
  const money = (amount: number) => formatMoney(fromMajor(amount, currency) ?? minor(0), currency, locale);
  const charges = later.map((charge) =>
    words.t('plan.every', { amount: money(charge.amount), days: charge.intervalDays }),
  );
  // One interval is the usual cart: it needs no list, and the page's first render no Intl list formatter.
  const then =
    charges.length === 1
      ? (charges[0] ?? '')
      : new Intl.ListFormat(locale, { type: 'conjunction' }).format(charges);
  return words.t('plan.schedule', { amount: money(totalToday), later: then });
}
