// The language an email speaks (docs/emails.md, "Languages"): the one the shopper used on the cart the order came
// from, else the store's default; and the words, amounts and dates of a template in it.
import { formatMoney, minor } from '../../../domain/money.js';
import { DEFAULT_LANGUAGE, directionOf, isLanguage, type Language } from '../../../i18n/languages.js';
import type { MessageKey, MessageValues } from '../../../i18n/message-keys.js';
import type { Queryable } from '../../platform/db/database.js';
import { translatorFor, type Translate } from '../../i18n/translator.js';
import { escapeHtml } from '../page/page-shell.js';

/**
 * The email's language: the cart's (carts.language, what the shopper chose), else the store's default. The store's
 * default is the lead's `languages.default` of the organization's settings once it is there (DEFAULT_LANGUAGE until).
 */
export function emailLanguageOf(
  cartLanguage: string | null | undefined,
  storeDefault: Language = DEFAULT_LANGUAGE,
): Language {
  return cartLanguage && isLanguage(cartLanguage) ? cartLanguage : storeDefault;
}

/** What a template says in one language: its messages, amounts in a currency, dates in UTC. */
export interface EmailSpeech {
  language: Language;
  t: Translate;
  /** the message with every value escaped for HTML, and `html` values put in as they are (links, <strong>) */
  html: (key: MessageKey, values?: MessageValues, html?: Record<string, string>) => string;
  /** minor units of `currency`, written as the language writes amounts */
  money: (amount: number, currency: string) => string;
  /** "December 21, 2026", "2026年12月21日": dates are told in UTC, the zone the charges are scheduled in */
  date: (date: Date) => string;
  /** a country by its name in the language ("US" → "United States", "アメリカ合衆国"); the code when it has none */
  countryName: (code: string) => string;
  /** `<html lang dir>`, so a mail client sets Arabic right to left */
  htmlOpen: string;
}

const speeches = new Map<Language, EmailSpeech>();

// A placeholder no message or merchant's text holds, so markup goes in after the words are escaped.
const MARK = '\u0000';

export function speechFor(language: Language): EmailSpeech {
  const known = speeches.get(language);
  if (known) return known;
  const t = translatorFor(language);
  // English as the checkout always wrote it (formatMoney's default, the formats it is given).
  const locale = language === 'en' ? 'en-US' : language;
  const dates = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' });
  const regions = new Intl.DisplayNames([locale], { type: 'region', fallback: 'code' });
  const speech: EmailSpeech = {
    language,
    t,
    html(key, values = {}, html = {}) {
      const marked = {
        ...values,
        ...Object.fromEntries(Object.keys(html).map((name) => [name, MARK + name + MARK])),
      };
      return escapeHtml(t(key, marked)).replace(
        new RegExp(`${MARK}([^${MARK}]+)${MARK}`, 'g'),
        (_all, name: string) => html[name] ?? '',
      );
    },
    money: (amount, currency) => formatMoney(minor(amount), currency, locale),
    date: (date) => dates.format(date),
    countryName(code) {
      try {
        return regions.of(code) ?? code;
      } catch {
        // Not a region code DisplayNames takes (a stored value from before the country list): as it was stored.
        return code;
      }
    },
    htmlOpen: `<html lang="${language}" dir="${directionOf(language)}">`,
  };
  speeches.set(language, speech);
  return speech;
}

/** English: what a template speaks when it is not told (tests, and emails with no cart behind them). */
export function englishSpeech(): EmailSpeech {
  return speechFor(DEFAULT_LANGUAGE);
}

/** The language kept on the cart an order came from (null when the shopper chose none, or there is no order). */
export async function cartLanguageOfOrder(
  db: Queryable,
  organizationId: number,
  orderId: number,
): Promise<string | null> {
  const { rows } = await db.query<{ language: string | null }>(
    `SELECT c.language FROM orders o
       JOIN carts c ON c.organization_id = o.organization_id AND c.id = o.cart_id
      WHERE o.organization_id = $1 AND o.id = $2`,
    [organizationId, orderId],
  );
  return rows[0]?.language ?? null;
}

/** The language kept on a cart. */
export async function cartLanguageOf(
  db: Queryable,
  organizationId: number,
  cartId: number,
): Promise<string | null> {
  const { rows } = await db.query<{ language: string | null }>(
    'SELECT language FROM carts WHERE organization_id = $1 AND id = $2',
    [organizationId, cartId],
  );
  return rows[0]?.language ?? null;
}

/** The language an order's emails speak (its cart's, else the store's default). */
export async function orderEmailSpeech(
  db: Queryable,
  organizationId: number,
  orderId: number,
): Promise<EmailSpeech> {
  return speechFor(emailLanguageOf(await cartLanguageOfOrder(db, organizationId, orderId)));
}
