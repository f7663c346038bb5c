import { formatMoney, fromMajor, minor } from '../../domain/money.js';

/** An amount from the wire (major units) as the shopper reads it: $54.12. */
export function money(amount: number, currency: string): string {
  return formatMoney(fromMajor(amount, currency) ?? minor(Math.round(amount * 100)), currency);
}

let regionNames: Intl.DisplayNames | null = null;

/** A country's name in English from the platform (no country list ships with the page). */
export function countryName(code: string): string {
  try {
    regionNames ??= new Intl.DisplayNames(['en'], { type: 'region' });
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
}

/** "2026-12-24" → "December 24, 2026" */
export function longDate(isoDate: string): string {
  const [year, month, day] = isoDate.slice(0, 10).split('-').map(Number);
  if (!year || !month || !day) return isoDate;
  return new Date(year, month - 1, day).toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  });
}
