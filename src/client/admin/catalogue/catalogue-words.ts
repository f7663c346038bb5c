// How the catalogue's lists say a code's discount, its use and a subscription's interval (docs/dashboard.md).
import { formatMoney } from '../kit/format.js';

/** "20 %" or "$5.00 off". */
export function discountText(
  code: { kind: 'percent' | 'fixed'; percent_off: number | null; amount_off: number | null },
  currency: string,
): string {
  if (code.kind === 'percent') return `${code.percent_off ?? 0} %`;
  return `${formatMoney(code.amount_off ?? 0, currency)} off`;
}

/** "12 of 100" with a limit, "12 uses" without ("1 use"). */
export function usesText(code: { usage_count: number; usage_limit: number | null }): string {
  if (code.usage_limit !== null) return `${code.usage_count} of ${code.usage_limit}`;
  return `${code.usage_count} ${code.usage_count === 1 ? 'use' : 'uses'}`;
}

/** "every day", "every 30 days". */
export function intervalText(days: number): string {
  return days === 1 ? 'every day' : `every ${days} days`;
}
