// Amounts, dates and countries as the page's language writes them (docs/languages.md): Intl with the page's
// formatting locale (useT's `locale`: English as en-US), never hand-built.
import { formatMoney, fromMajor, minor } from '../../domain/money.js';

/**
 * An amount from the wire (major units) as the shopper reads it in the page's language: $54.12 in English,
 * 54,12 $ in German. A format the server described for this language and currency (PageConfig.money_format,
 * adopted at boot) writes it without Intl; after the shopper switches language, Intl writes it for the new one.
 */
export function money(amount: number, currency: string, locale: string): string {
  return formatMoney(fromMajor(amount, currency) ?? minor(Math.round(amount * 100)), currency, locale);
}

const regionNames = new Map<string, Intl.DisplayNames>();

/** A country's name in the page's language, from the platform (no country list ships with the page). */
export function countryName(code: string, locale: string): string {
  try {
    let names = regionNames.get(locale);
    if (!names) {
      names = new Intl.DisplayNames([locale], { type: 'region' });
      regionNames.set(locale, names);
    }
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** "2026-12-24" → "December 24, 2026" in English, "2026年12月24日" in Japanese. */
export function longDate(isoDate: string, locale: string): string {
  const [year, month, day] = isoDate.slice(0, 10).split('-').map(Number);
  if (!year || !month || !day) return isoDate;
  let format = dateFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'long', day: 'numeric' });
    dateFormats.set(locale, format);
  }
  return format.format(new Date(year, month - 1, day));
}
