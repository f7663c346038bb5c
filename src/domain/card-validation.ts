import {
  ACCEPTED_BRANDS_TEXT,
  cvvLength,
  detectBrand,
  digitsOnly,
  expectedCardLength,
  getCardType,
  luhnValid,
} from './card.js';
import type { FieldErrors } from './field-errors.js';

export interface CardValues {
  card_number: string;
  /** "MM / YY" as typed */
  card_expiry: string;
  card_cvv: string;
}

export interface CardExpiry {
  month: number;
  /** four digits */
  year: number;
}

/** "04 / 28", "04/28", "0428", "4/2028" → { month: 4, year: 2028 }; null when it is not a month and a year. */
export function parseCardExpiry(text: string): CardExpiry | null {
  const match = /^\s*(\d{1,2})\s*[/-]?\s*(\d{2}|\d{4})\s*$/.exec(text);
  if (!match) return null;
  const month = Number(match[1]);
  const yearText = match[2] ?? '';
  const year = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
  if (month < 1 || month > 12) return null;
  return { month, year };
}

/** "4" → "04 / ", "042" → "04 / 2": what the expiry field shows as the shopper types digits. */
export function formatCardExpiry(text: string): string {
  let digits = digitsOnly(text).slice(0, 4);
  if (digits.length === 1 && Number(digits) > 1) digits = `0${digits}`;
  if (digits.length <= 2) return digits;
  return `${digits.slice(0, 2)} / ${digits.slice(2)}`;
}

export function validateCard(
  values: CardValues,
  context: { testCards: readonly string[]; now: Date },
): FieldErrors {
  const errors: FieldErrors = {};
  const digits = digitsOnly(values.card_number);
  const type = getCardType(digits, context.testCards);
  if (digits === '') errors.card_number = 'Enter your card number.';
  else if (type?.brand !== 'testcard') {
    const brand = detectBrand(digits);
    if (brand === null) errors.card_number = `We accept ${ACCEPTED_BRANDS_TEXT}.`;
    else if (!expectedCardLength(brand).includes(digits.length) || !luhnValid(digits)) {
      errors.card_number = 'Check the card number: it is incomplete or has a typo.';
    }
  }

  const expiry = parseCardExpiry(values.card_expiry);
  const nowMonths = context.now.getFullYear() * 12 + context.now.getMonth();
  if (values.card_expiry.trim() === '') errors.card_expiry = 'Enter the expiry date as MM / YY.';
  else if (!expiry || expiry.year * 12 + expiry.month - 1 > nowMonths + 12 * 20) {
    errors.card_expiry = 'Enter the expiry date as MM / YY, like 04 / 28.';
  } else if (expiry.year * 12 + expiry.month - 1 < nowMonths) {
    errors.card_expiry = 'This card has expired. Use another card.';
  }

  const cvv = values.card_cvv.trim();
  const length = cvvLength(type?.brand ?? null);
  if (cvv === '') errors.card_cvv = 'Enter the security code (CVV).';
  else if (!/^\d+$/.test(cvv) || cvv.length !== length) {
    errors.card_cvv = `Enter the ${length}-digit security code.`;
  }
  return errors;
}
