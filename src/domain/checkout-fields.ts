import {
  cvvLength,
  detectBrand,
  digitsOnly,
  expectedCardLength,
  getCardType,
  luhnValid,
  UNACCEPTED_BRAND_MESSAGE,
} from './card.js';
import type { Message } from '../i18n/message-keys.js';

/** Field problems keyed by field name, each a sentence the shopper can act on. */
export type FieldProblems = Record<string, string>;

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** What is wrong with an email address, as a message each side says in its reader's language; null when fine. */
export function checkEmail(value: string | undefined): Message | null {
  const email = value?.trim() ?? '';
  if (email === '') return { key: 'fields.email_required' };
  if (email.length > 254 || !EMAIL.test(email)) return { key: 'fields.email_invalid' };
  return null;
}

/** Phone numbers are optional; when given they need 7 to 15 digits (E.164 allows 15). */
export function checkPhone(value: string | undefined): Message | null {
  const phone = value?.trim() ?? '';
  if (phone === '') return null;
  const digits = digitsOnly(phone);
  if (!/^\+?[0-9 ().-]+$/.test(phone) || digits.length < 7 || digits.length > 15) {
    return { key: 'fields.phone_invalid' };
  }
  return null;
}

/** An address as a form or order body gives it (checked by src/domain/address, its country's rules). */
export interface AddressInput {
  fname?: string | undefined;
  lname?: string | undefined;
  address1?: string | undefined;
  address2?: string | undefined;
  city?: string | undefined;
  state?: string | undefined;
  zipcode?: string | undefined;
  country?: string | undefined;
}

export interface CardInput {
  number: string;
  cvv: string;
  expMonth: number | string;
  expYear: number | string;
}

/** The year a two- or four-digit expiry year stands for ("28" → 2028). */
export function expiryYear(value: number | string): number | null {
  const text = String(value).trim();
  if (!/^\d{2}(\d{2})?$/.test(text)) return null;
  const year = Number(text);
  return text.length === 2 ? 2000 + year : year;
}

/** A card's problems keyed payment.card_*, each a message said in the reader's language (docs/languages.md). */
export type CardProblems = Partial<
  Record<
    'payment.card_number' | 'payment.card_exp_month' | 'payment.card_exp_year' | 'payment.card_cvv',
    Message
  >
>;

/**
 * Checks a card before any payment call: accepted brand, length, Luhn, expiry (valid through the end of its month)
 * and CVV length (4 for American Express). Problems are keyed payment.card_*.
 */
export function checkCard(
  card: CardInput,
  options: { now: Date; testCards?: readonly string[] },
): CardProblems {
  const problems: CardProblems = {};
  const number = digitsOnly(card.number);
  const type = getCardType(number, options.testCards ?? []);
  const brand = detectBrand(number);
  if (number === '') problems['payment.card_number'] = { key: 'card.number_missing' };
  else if (!type) problems['payment.card_number'] = UNACCEPTED_BRAND_MESSAGE;
  else if (type.brand !== 'testcard' && brand && !expectedCardLength(brand).includes(number.length)) {
    problems['payment.card_number'] = { key: 'card.number_length' };
  } else if (type.brand !== 'testcard' && !luhnValid(number)) {
    problems['payment.card_number'] = { key: 'card.number_invalid' };
  }

  const month = Number(String(card.expMonth).trim());
  const year = expiryYear(card.expYear);
  if (!Number.isInteger(month) || month < 1 || month > 12) {
    problems['payment.card_exp_month'] = { key: 'card.exp_month_invalid' };
  }
  if (year === null) problems['payment.card_exp_year'] = { key: 'card.exp_year_invalid' };
  if (problems['payment.card_exp_month'] === undefined && year !== null) {
    const endOfMonth = Date.UTC(year, month, 1);
    if (endOfMonth <= options.now.getTime()) problems['payment.card_exp_year'] = { key: 'card.expired' };
    else if (year > options.now.getUTCFullYear() + 20)
      problems['payment.card_exp_year'] = { key: 'card.exp_year_far' };
  }

  const cvv = card.cvv.trim();
  const digits = cvvLength(type?.brand ?? null);
  if (!new RegExp(`^\\d{${digits}}$`).test(cvv)) {
    // American Express prints its code on the front.
    const key = digits === 4 ? 'card.cvv_invalid_front' : 'card.cvv_invalid_back';
    problems['payment.card_cvv'] = { key, values: { digits } };
  }
  return problems;
}
