/**
 * Money in integer minor units (cents for USD, yen for JPY). Every amount the server computes is a Minor; the wire
 * speaks major units (49.99) rounded to the currency's minor unit, converted only at the edges.
 */
export type Minor = number & { readonly __brand: 'Minor' };

export function minor(value: number): Minor {
  if (!Number.isSafeInteger(value))
    throw new RangeError(`Money must be a whole number of minor units: ${value}`);
  return value as Minor;
}

export const ZERO = 0 as Minor;

export function addMinor(...amounts: readonly Minor[]): Minor {
  let sum = 0;
  for (const amount of amounts) sum += amount;
  return minor(sum);
}

export function sumMinor(amounts: readonly Minor[]): Minor {
  return addMinor(...amounts);
}

const digitsCache = new Map<string, number>();

/**
 * How many decimals the currency's minor unit has (USD 2, JPY 0, BHD 3), from the platform's ISO 4217 data (or from
 * a format the page was given, see adoptMoneyFormat).
 */
export function currencyDigits(currency: string): number {
  const cached = digitsCache.get(currency);
  if (cached !== undefined) return cached;
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
    .maximumFractionDigits;
  const value = digits ?? 2;
  digitsCache.set(currency, value);
  return value;
}

export function isKnownCurrency(currency: string): boolean {
  if (!/^[A-Z]{3}$/.test(currency)) return false;
  try {
    return (Intl.supportedValuesOf('currency') as readonly string[]).includes(currency);
  } catch {
    return false;
  }
}

/** 4999 (USD) → 49.99 */
export function toMajor(amount: Minor, currency: string): number {
  const digits = currencyDigits(currency);
  return Number((amount / 10 ** digits).toFixed(digits));
}

/** 49.99 (USD) → 4999; null when the value has more decimals than the currency allows or is not finite. */
export function fromMajor(value: number, currency: string): Minor | null {
  if (!Number.isFinite(value)) return null;
  const scaled = value * 10 ** currencyDigits(currency);
  const rounded = Math.round(scaled);
  // Binary floating point: 0.29 * 100 is 28.999999999999996, which is still exactly 29 cents.
  if (Math.abs(scaled - rounded) > 1e-6 || !Number.isSafeInteger(rounded)) return null;
  return rounded as Minor;
}

// Making a formatter costs about 25 times what formatting with one does (53 against 2 µs here): the order summary
// formats a few dozen amounts on every render, so each locale and currency gets one, kept.
const formatters = new Map<string, Intl.NumberFormat>();

/**
 * How one locale writes amounts of one currency, as plain text around the digits: en-US writes USD as "$1,234.56"
 * and "-$1,234.56", EUR as "€1,234.56", JPY as "¥1,235" (digits 0). Read off Intl where Intl is cheap (the server),
 * it lets the page format amounts without Intl: a page's first Intl formatter loads ICU's data, 20 to 60 ms of main
 * thread here, on the checkout's first render.
 */
export interface MoneyFormat {
  locale: string;
  currency: string;
  /** decimals of the minor unit */
  digits: number;
  prefix: string;
  suffix: string;
  negative_prefix: string;
  negative_suffix: string;
  /** between groups of three digits */
  group: string;
  decimal: string;
}

const givenFormats = new Map<string, MoneyFormat>();

/** Writes an amount with a format: grouping by threes, the currency's decimals, exact for every safe integer. */
export function formatWith(format: MoneyFormat, amount: Minor): string {
  const negative = amount < 0;
  const digits = String(Math.abs(amount)).padStart(format.digits + 1, '0');
  const whole = digits.slice(0, digits.length - format.digits);
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, format.group);
  const text = format.digits > 0 ? `${grouped}${format.decimal}${digits.slice(-format.digits)}` : grouped;
  return negative
    ? `${format.negative_prefix}${text}${format.negative_suffix}`
    : `${format.prefix}${text}${format.suffix}`;
}

// Amounts a format must write exactly as Intl does before it is handed out: both signs, every grouping length.
const FORMAT_PROBES = [
  0, 1, 9, 10, 99, 100, 1234, 12_345, 123_456, 1_234_567, 123_456_789_012, -1, -5, -123_456,
];

const NUMBER_PARTS = new Set(['integer', 'group', 'decimal', 'fraction']);

/** The text before and after the digits of a formatted amount, and its separators. */
function textAround(parts: Intl.NumberFormatPart[]) {
  const first = parts.findIndex((part) => NUMBER_PARTS.has(part.type));
  const last = parts.findLastIndex((part) => NUMBER_PARTS.has(part.type));
  const join = (some: Intl.NumberFormatPart[]) => some.map((part) => part.value).join('');
  return {
    before: join(parts.slice(0, first)),
    after: join(parts.slice(last + 1)),
    group: parts.find((part) => part.type === 'group')?.value ?? ',',
    decimal: parts.find((part) => part.type === 'decimal')?.value ?? '.',
  };
}

/**
 * The format of a currency in a locale, read off Intl and checked against it; null when the currency cannot be
 * written as text around grouped digits (another grouping, a sign inside the digits...) or Intl does not know it.
 */
export function describeMoneyFormat(currency: string, locale = 'en-US'): Readonly<MoneyFormat> | null {
  const key = `${locale} ${currency}`;
  let format = describedFormats.get(key);
  if (format === undefined) {
    format = readMoneyFormat(currency, locale);
    describedFormats.set(key, format);
  }
  return format;
}

// Described once per locale and currency (an Intl formatter and 14 probes: 0.23 ms here, 0.15 µs once kept);
// shared, so frozen.
const describedFormats = new Map<string, Readonly<MoneyFormat> | null>();

function readMoneyFormat(currency: string, locale: string): Readonly<MoneyFormat> | null {
  let formatter: Intl.NumberFormat;
  try {
    formatter = new Intl.NumberFormat(locale, { style: 'currency', currency });
  } catch {
    return null;
  }
  // An amount with groups and decimals shows every part: the sign, the symbol, both separators.
  const positive = textAround(formatter.formatToParts(1234567.5));
  const negative = textAround(formatter.formatToParts(-1234567.5));
  const format: MoneyFormat = {
    locale,
    currency,
    digits: currencyDigits(currency),
    prefix: positive.before,
    suffix: positive.after,
    negative_prefix: negative.before,
    negative_suffix: negative.after,
    group: negative.group,
    decimal: negative.decimal,
  };
  const faithful = FORMAT_PROBES.every(
    (amount) => formatWith(format, minor(amount)) === formatter.format(toMajor(minor(amount), currency)),
  );
  return faithful ? Object.freeze(format) : null;
}

/**
 * Hands the page a format the server described: formatMoney and currencyDigits answer that locale and currency
 * from it, without Intl. A format that does not hold together (digits out of range) is ignored.
 */
export function adoptMoneyFormat(format: MoneyFormat): void {
  if (!Number.isInteger(format.digits) || format.digits < 0 || format.digits > 4) return;
  givenFormats.set(`${format.locale} ${format.currency}`, format);
  digitsCache.set(format.currency, format.digits);
}

export function formatMoney(amount: Minor, currency: string, locale = 'en-US'): string {
  const key = `${locale} ${currency}`;
  const given = givenFormats.get(key);
  if (given) return formatWith(given, amount);
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, { style: 'currency', currency });
    formatters.set(key, formatter);
  }
  return formatter.format(toMajor(amount, currency));
}

/** amount × numerator / denominator, rounded half away from zero, exact for every safe integer input. */
export function mulDivRound(amount: number, numerator: number, denominator: number): Minor {
  if (denominator <= 0) throw new RangeError('denominator must be positive');
  const product = BigInt(amount) * BigInt(numerator);
  const d = BigInt(denominator);
  const negative = product < 0n;
  const absolute = negative ? -product : product;
  const rounded = (absolute * 2n + d) / (2n * d);
  return minor(Number(negative ? -rounded : rounded));
}

/**
 * Splits total into parts proportional to weights by the largest-remainder method: the parts are whole minor units,
 * each within one unit of its exact share, and they always sum to total. Ties go to the earlier weight.
 * Zero total weight splits nothing (all parts 0) unless total is 0 as well.
 */
export function allocate(total: Minor, weights: readonly number[]): Minor[] {
  if (weights.some((weight) => weight < 0 || !Number.isSafeInteger(weight))) {
    throw new RangeError('weights must be non-negative whole numbers');
  }
  if (total < 0) throw new RangeError('total must not be negative');
  const weightSum = weights.reduce((sum, weight) => sum + weight, 0);
  if (weightSum === 0) {
    if (total !== 0) throw new RangeError('cannot allocate a non-zero total over zero weights');
    return weights.map(() => ZERO);
  }
  const big = BigInt(total);
  const bigSum = BigInt(weightSum);
  const parts = weights.map((weight) => (big * BigInt(weight)) / bigSum);
  const remainders = weights.map((weight, index) => ({ index, rest: (big * BigInt(weight)) % bigSum }));
  let left = Number(big - parts.reduce((sum, part) => sum + part, 0n));
  remainders.sort((a, b) => (a.rest === b.rest ? a.index - b.index : a.rest > b.rest ? -1 : 1));
  for (const { index } of remainders) {
    if (left === 0) break;
    parts[index] = (parts[index] ?? 0n) + 1n;
    left--;
  }
  return parts.map((part) => minor(Number(part)));
}
