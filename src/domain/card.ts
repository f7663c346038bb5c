import type { Message } from '../i18n/message-keys.js';

/** Card brands the checkout accepts, with their type ids (docs/checkout-rules.md#card-brands). */
export const CARD_TYPE_IDS = {
  mastercard: 1,
  visa: 2,
  discover: 3,
  'american-express': 4,
} as const;
export type CardBrand = keyof typeof CARD_TYPE_IDS;

export interface CardType {
  brand: CardBrand | 'testcard';
  typeId: number;
  icon: string;
  label: string;
}

export const TEST_CARD_TYPE: CardType = {
  brand: 'testcard',
  typeId: 2,
  icon: 'testcard',
  label: 'Test card',
};

const LABELS: Record<CardBrand, string> = {
  mastercard: 'Mastercard',
  visa: 'Visa',
  discover: 'Discover',
  'american-express': 'American Express',
};

export const ACCEPTED_BRANDS_TEXT = 'Visa, Mastercard, Discover and American Express';

/** What a card of any other brand is refused with, on the page and by the server (docs/checkout-rules.md#card-brands). */
export const UNACCEPTED_BRAND_MESSAGE: Message = { key: 'card.brand_not_accepted' };

/** The type shown and sent for a brand the processor's frame reported. */
export function cardTypeOf(brand: CardBrand | 'testcard'): CardType {
  if (brand === 'testcard') return TEST_CARD_TYPE;
  return { brand, typeId: CARD_TYPE_IDS[brand], icon: brand, label: LABELS[brand] };
}

export function digitsOnly(value: string): string {
  return value.replace(/\D/g, '');
}

/** The brand from the first 4 digits (IIN ranges); null for any other brand or fewer than 4 digits. */
export function detectBrand(cardNumber: string): CardBrand | null {
  const digits = digitsOnly(cardNumber);
  if (digits.length < 4) return null;
  const first4 = Number(digits.slice(0, 4));
  const first2 = Math.floor(first4 / 100);
  const first3 = Math.floor(first4 / 10);
  const first1 = Math.floor(first4 / 1000);
  if (first1 === 4) return 'visa';
  if ((first2 >= 51 && first2 <= 55) || (first4 >= 2221 && first4 <= 2720)) return 'mastercard';
  if (first2 === 34 || first2 === 37) return 'american-express';
  if (first4 === 6011 || first2 === 65 || (first3 >= 644 && first3 <= 649)) return 'discover';
  return null;
}

/**
 * The card type shown and sent: a number in the organization's test cards is type 2 with the 'testcard' icon;
 * otherwise the detected brand; null when the brand is not accepted.
 */
export function getCardType(cardNumber: string, testCards: readonly string[] = []): CardType | null {
  const digits = digitsOnly(cardNumber);
  if (digits.length > 0 && testCards.includes(digits)) return TEST_CARD_TYPE;
  const brand = detectBrand(digits);
  return brand === null ? null : cardTypeOf(brand);
}

export function luhnValid(cardNumber: string): boolean {
  const digits = digitsOnly(cardNumber);
  if (digits.length < 12 || digits.length > 19) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export function expectedCardLength(brand: CardBrand): readonly number[] {
  if (brand === 'american-express') return [15];
  if (brand === 'visa') return [13, 16, 19];
  if (brand === 'discover') return [16, 19];
  return [16];
}

export function cvvLength(brand: CardBrand | 'testcard' | null): number {
  return brand === 'american-express' ? 4 : 3;
}

/** "4111111111111111" → "4111 1111 1111 1111"; American Express groups 4-6-5. */
export function formatCardNumber(cardNumber: string): string {
  const digits = digitsOnly(cardNumber).slice(0, 19);
  const groups = detectBrand(digits) === 'american-express' ? [4, 6, 5] : [4, 4, 4, 4, 3];
  const parts: string[] = [];
  let index = 0;
  for (const size of groups) {
    if (index >= digits.length) break;
    parts.push(digits.slice(index, index + size));
    index += size;
  }
  return parts.join(' ');
}

/**
 * Whether a run of digits is a card number: 13-19 digits, starting as the cards of payment networks do (2221-2720,
 * or 3, 4, 5, 6: ISO/IEC 7812's banking and travel issuers), and passing Luhn. The start keeps ordinary long numbers
 * apart (order numbers, timestamps, tracking numbers), a tenth of which pass Luhn by chance.
 */
export function looksLikeCardNumber(digits: string): boolean {
  if (!/^\d{13,19}$/.test(digits)) return false;
  const first = digits.charCodeAt(0) - 48;
  const first4 = Number(digits.slice(0, 4));
  const startsLikeCard = (first >= 3 && first <= 6) || (first4 >= 2221 && first4 <= 2720);
  return startsLikeCard && luhnValid(digits);
}

// What people put between the groups of a card number: spaces (runs of them, tabs, line breaks, no-break spaces),
// dashes (also typographic ones), dots, underscores, and the same in a URL or form post ("%20", "+").
const SEPARATOR = String.raw`(?:[\s._+\-\u2010-\u2015]|%20|%09)+`;
// A digit right after "%" or "%2" belongs to an escape ("%20"), not to a number.
const GROUP = String.raw`(?<!%[0-9A-Fa-f]?)\d+`;
const DIGIT_GROUPS = new RegExp(`${GROUP}(?:${SEPARATOR}${GROUP})*`, 'g');
const ONE_GROUP = new RegExp(GROUP, 'g');

/**
 * Masks every card number in a text, keeping the last 4 digits: plain, or in groups as people write them
 * ("4111 1111 1111 1111", "4111.1111.1111.1111", "3782-822463-10005", "4111%201111%201111%201111"). A number may sit
 * next to other digit groups ("ref 7 4111 1111 1111 1111 x"), so every run of whole groups is checked; in a run,
 * every group but the last has at least 4 digits, as a card's groups do and phone numbers, dates, times and amounts
 * do not ("512-555-0100", "25.11.2026 14.30"). A CVV written next to its label is masked too ("cvv: 123").
 */
export function scrubCardNumbers(text: string): string {
  return scrubCvvs(maskCardNumbers(text));
}

/** Fewer digits than the shortest card number: most texts, answered without a regular expression. */
function hasTooFewDigits(text: string): boolean {
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57 && ++digits >= 13) return false;
  }
  return true;
}

function maskCardNumbers(text: string): string {
  if (hasTooFewDigits(text)) return text;
  let out = '';
  let last = 0;
  for (const match of text.matchAll(DIGIT_GROUPS)) {
    const groups = Array.from(match[0].matchAll(ONE_GROUP), (group) => ({
      start: match.index + group.index,
      end: match.index + group.index + group[0].length,
      digits: group[0],
    }));
    for (let i = 0; i < groups.length; i++) {
      let digits = '';
      let found = -1;
      for (let j = i; j < groups.length; j++) {
        if (j > i && (groups[j - 1]?.digits.length ?? 0) < 4) break;
        digits += groups[j]?.digits ?? '';
        if (digits.length > 19) break;
        if (digits.length >= 13 && looksLikeCardNumber(digits)) found = j;
      }
      const first = groups[i];
      const lastGroup = groups[found];
      if (found < 0 || !first || !lastGroup) continue;
      const pan = groups
        .slice(i, found + 1)
        .map((group) => group.digits)
        .join('');
      out += `${text.slice(last, first.start)}[card ••••${pan.slice(-4)}]`;
      last = lastGroup.end;
      i = found;
    }
  }
  return out + text.slice(last);
}

// A CVV's label ("cvv", "CVC2", "card_cvv", "myCardCvv", "security code", "CID"), what people put between it and the
// value (spaces, quotes, ":", "=", "is", JSON's escaped quotes, their URL escapes), then 3 or 4 digits.
const CVV_IN_TEXT =
  /((?:cvv2?|cvc2?|cvn|csc|(?<![a-z])cid(?![a-z])|security[\s_-]?code|verification[\s_-]?(?:code|value))(?:[\s"'`:=#()[\]\\-]|%2[02]|%3[ad]|is\b)*)\d{3,4}(?!\d)/gi;

function scrubCvvs(text: string): string {
  return text.replace(CVV_IN_TEXT, '$1[redacted]');
}

/** Whether a free-text value holds a card number (someone typed it in the wrong field). */
export function containsCardNumber(text: string): boolean {
  return maskCardNumbers(text) !== text;
}

/** Whether a value sent holds a card number: a text with one in it, or a JSON number that is one (either sign). */
export function isCardNumberValue(value: unknown): boolean {
  if (typeof value === 'string') return containsCardNumber(value);
  return (
    typeof value === 'number' && Number.isSafeInteger(value) && looksLikeCardNumber(String(Math.abs(value)))
  );
}

/** A text field that holds a card number: said in the reader's language, the number never echoed (docs/languages.md). */
export const CARD_NUMBER_IN_TEXT_MESSAGE = {
  key: 'errors.field_card_number_in_text',
} as const satisfies Message;

const SENSITIVE_KEY =
  /^(?:(?:card|cc)[_-]?(?:number|num|no|cvv2?|cvc2?|csc|security[_-]?code)|cvv2?|cvc2?|cvn|csc|security[_-]?code|pan)$/i;

export function isSensitiveCardKey(key: string): boolean {
  return SENSITIVE_KEY.test(key);
}

/**
 * A deep copy with card number and CVV fields replaced, card numbers and CVVs in strings masked and card numbers
 * sent as JSON numbers replaced: what may leave the process in an error report or a log line.
 */
export function scrubCardData<T>(value: T, depth = 0): T {
  if (depth > 8) return '[truncated]' as T;
  if (typeof value === 'string') return scrubCardNumbers(value) as T;
  if (typeof value === 'number' && isCardNumberValue(value)) return '[redacted]' as T;
  if (Array.isArray(value)) return value.map((item: unknown) => scrubCardData(item, depth + 1)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      out[key] = isSensitiveCardKey(key) ? '[redacted]' : scrubCardData(item, depth + 1);
    }
    return out as T;
  }
  return value;
}
