// Plurals on the pages without Intl.NumberFormat (docs/languages.md, "Counts"): Lingui's plural writes the count
// with it, and the first one a page makes loads ICU's number data (30-119 ms on two cores) before the first paint.
// The pages' compiled messages choose by, and show, what the page passes instead; the server keeps Lingui's own.
import type { CompiledMessage, CompiledMessageToken } from '@lingui/message-utils/compileMessage';
import type { MessageValues } from './message-keys.js';

/** The values a page passes beside a count `name`: the count as written, its exact match (`=1`), its category. */
export function shownCountName(name: string): string {
  return `${name}#`;
}
const exactName = (name: string) => `${name}#exact`;
const CATEGORIES = new Set(['zero', 'one', 'two', 'few', 'many', 'other']);
const categoryName = (name: string) => `${name}#category`;

type Compiled = CompiledMessage | string;

/**
 * A compiled message whose plurals (without an offset) are chosen by the values the page passes (an exact match,
 * else the category) and whose `#` reads the count the page wrote: Lingui's own plural writes the count with
 * Intl.NumberFormat even when the message does not show it. A `#` inside a nested select stays text, as in Lingui.
 */
export function readShownCounts(message: Compiled): Compiled {
  if (typeof message === 'string') return message;
  return message.map((token) => withShownCounts(token));
}

function withShownCounts(token: CompiledMessageToken): CompiledMessageToken {
  if (typeof token === 'string') return token;
  const [name, type, format] = token;
  if (!isChoices(format)) return token;
  if (type === 'select') return [name, type, branchesOf(format, (part) => withShownCounts(part))];
  if (type !== 'plural' || format.offset) return token;
  const countsShown = (part: CompiledMessageToken): CompiledMessageToken =>
    part === '#' ? [shownCountName(name)] : withShownCounts(part);
  const exact: Record<string, unknown> = {};
  const categories: Record<string, unknown> = {};
  for (const [choice, branch] of Object.entries(branchesOf(format, countsShown))) {
    if (!CATEGORIES.has(choice))
      exact[choice] = branch; // `=1` is compiled as the key 1
    else categories[choice] = branch;
  }
  const byCategory: CompiledMessageToken = [categoryName(name), 'select', categories];
  return [exactName(name), 'select', { ...exact, other: [byCategory] }];
}

function branchesOf(
  format: Record<string, unknown>,
  map: (part: CompiledMessageToken) => CompiledMessageToken,
): Record<string, unknown> {
  const branches: Record<string, unknown> = {};
  for (const [choice, branch] of Object.entries(format)) {
    if (choice === 'offset') continue;
    branches[choice] = Array.isArray(branch) ? branch.map((part: CompiledMessageToken) => map(part)) : branch;
  }
  return branches;
}

function isChoices(format: unknown): format is Record<string, unknown> & { offset?: number } {
  return typeof format === 'object' && format !== null;
}

// Digits and grouping as Intl writes them in every language the pages speak: Latin digits, no group below 1,000
// (Arabic is left to Intl, whose digits for it have changed between ICU versions).
const WRITTEN_PLAINLY = new Set(['en', 'en-US', 'es', 'fr', 'de', 'it', 'pt-BR', 'nl', 'ja']);
const numberFormats = new Map<string, Intl.NumberFormat>();

/** A count as `locale` writes it: plainly for a whole number under 1,000 in a Latin-digit language, else by Intl. */
export function writeCount(count: number, locale: string): string {
  if (WRITTEN_PLAINLY.has(locale) && Number.isInteger(count) && count >= 0 && count < 1000)
    return String(count);
  let format = numberFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale);
    numberFormats.set(locale, format);
  }
  return format.format(count);
}

const pluralRules = new Map<string, Intl.PluralRules>();

function categoryOf(count: number, locale: string): Intl.LDMLPluralRule {
  let rules = pluralRules.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(locale);
    pluralRules.set(locale, rules);
  }
  return rules.select(count);
}

/** The values with each count's written form, exact match and plural category beside it, for the pages' messages. */
export function withCountsShown(
  values: MessageValues | undefined,
  locale: string,
): MessageValues | undefined {
  if (!values) return values;
  let shown: MessageValues | undefined;
  for (const [name, value] of Object.entries(values)) {
    if (typeof value !== 'number') continue;
    shown ??= { ...values };
    shown[shownCountName(name)] = writeCount(value, locale);
    shown[exactName(name)] = String(value);
    shown[categoryName(name)] = categoryOf(value, locale);
  }
  return shown ?? values;
}
