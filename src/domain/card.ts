/** Card brands the checkout accepts, with the specification's type ids. */
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
  if (brand === null) return null;
  return { brand, typeId: CARD_TYPE_IDS[brand], icon: brand, label: LABELS[brand] };
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

// Digit groups joined by single spaces or dashes: "4111 1111 1111 1111", "3782-822463-10005", "0020100000007".
const DIGIT_GROUPS = /\d+(?:[ -]\d+)*/g;

/**
 * Masks every Luhn-valid 13-19 digit card number in a text, keeping the last 4 digits. A number may be written in
 * groups and may sit next to other digit groups ("ref 7 4111 1111 1111 1111 x"), so every contiguous run of whole
 * groups is checked, not just the longest one.
 */
export function scrubCardNumbers(text: string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(DIGIT_GROUPS)) {
    const start = match.index;
    const groups: { start: number; end: number; digits: string }[] = [];
    for (const group of match[0].matchAll(/\d+/g)) {
      groups.push({
        start: start + group.index,
        end: start + group.index + group[0].length,
        digits: group[0],
      });
    }
    for (let i = 0; i < groups.length; i++) {
      let digits = '';
      let found = -1;
      for (let j = i; j < groups.length; j++) {
        digits += groups[j]?.digits ?? '';
        if (digits.length > 19) break;
        if (digits.length >= 13 && luhnValid(digits)) found = j;
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

/** Whether a free-text value holds a card number (someone typed it in the wrong field). */
export function containsCardNumber(text: string): boolean {
  return scrubCardNumbers(text) !== text;
}

export const CARD_NUMBER_IN_TEXT_MESSAGE =
  'This looks like a card number. Enter card details only in the payment fields.';

const SENSITIVE_KEY = /^(card_?number|card_?cvv|cvv|cvc|cc_?number|cc_?csc|security_?code|pan)$/i;

export function isSensitiveCardKey(key: string): boolean {
  return SENSITIVE_KEY.test(key);
}

/**
 * A deep copy with card number and CVV fields replaced and card numbers in strings masked: what may leave the
 * process in an error report or a log line.
 */
export function scrubCardData<T>(value: T, depth = 0): T {
  if (depth > 8) return '[truncated]' as T;
  if (typeof value === 'string') return scrubCardNumbers(value) as T;
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
