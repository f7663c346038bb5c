// The card frame's decisions (docs/payments.md, "The built-in test processor"): the checkout's own card rules and
// messages (src/domain), so the framed fields say what the page's fields said before they moved into the frame.
import {
  EXPIRY_MALFORMED,
  EXPIRY_MISSING,
  formatCardExpiry,
  parseCardExpiry,
} from '../domain/card-expiry.js';
import { cvvLength, digitsOnly, formatCardNumber, getCardType } from '../domain/card.js';
import { checkCard } from '../domain/checkout-fields.js';
import type { FrameCardBrand, FrameCardState } from '../domain/card-frame-messages.js';
import { sayFieldMessage, type FieldMessage } from '../domain/field-errors.js';
import type { MessageKey, MessageValues } from '../i18n/message-keys.js';

export type FieldName = 'number' | 'expiry' | 'cvv';
export const FIELD_NAMES: readonly FieldName[] = ['number', 'expiry', 'cvv'];
export type FieldValues = Record<FieldName, string>;
/**
 * Each field's problem: a rule's message, said in the frame's current language when shown (so a switch says it again),
 * or the text the card service answered with (already in the language the frame asked it in).
 */
export type FieldErrors = Partial<Record<FieldName, FieldMessage>>;
export type Say = (key: MessageKey, values?: MessageValues) => string;

/** What each field shows as the shopper types: the number grouped, the expiry as MM / YY, the CVV digits only. */
export function formatField(name: FieldName, raw: string): string {
  if (name === 'number') return formatCardNumber(raw);
  if (name === 'expiry') return formatCardExpiry(raw);
  return digitsOnly(raw).slice(0, 4);
}

/** The brand: from the first 4 digits, 'testcard' for a given test card, 'other' for 4 digits of no accepted one. */
export function brandOf(number: string, testCards: readonly string[]): FrameCardBrand {
  const digits = digitsOnly(number);
  const type = getCardType(digits, testCards);
  if (type) return type.brand;
  return digits.length >= 4 ? 'other' : null;
}

/** Every field's problem, with the checkout's card rules' messages (src/domain/checkout-fields.ts). */
export function cardFieldErrors(
  values: FieldValues,
  options: { now: Date; testCards: readonly string[] },
): FieldErrors {
  const expiry = parseCardExpiry(values.expiry);
  const problems = checkCard(
    { number: values.number, cvv: values.cvv, expMonth: expiry?.month ?? 1, expYear: expiry?.year ?? 2000 },
    options,
  );
  const errors: FieldErrors = {};
  if (problems['payment.card_number']) errors.number = problems['payment.card_number'];
  const expiryProblem = problems['payment.card_exp_month'] ?? problems['payment.card_exp_year'];
  if (values.expiry.trim() === '') errors.expiry = EXPIRY_MISSING;
  else if (!expiry) errors.expiry = EXPIRY_MALFORMED;
  else if (expiryProblem) errors.expiry = expiryProblem;
  if (problems['payment.card_cvv']) errors.cvv = problems['payment.card_cvv'];
  return errors;
}

/** The message under a field after it lost focus: none for a field left empty that shows nothing yet. */
export function errorAfterBlur(
  name: FieldName,
  values: FieldValues,
  shown: FieldErrors,
  errors: FieldErrors,
): FieldMessage | undefined {
  if (values[name] === '' && !shown[name]) return undefined;
  return errors[name];
}

/** As the shopper types, a message already shown follows the value (cleared once fixed); none appears early. */
export function errorAfterInput(
  name: FieldName,
  shown: FieldErrors,
  errors: FieldErrors,
): FieldMessage | undefined {
  return shown[name] ? errors[name] : undefined;
}

/**
 * What the page hears: the first message shown (number, expiry, CVV), said in the frame's language, never one the
 * shopper was not shown.
 */
export function frameState(
  values: FieldValues,
  shown: FieldErrors,
  errors: FieldErrors,
  testCards: readonly string[],
  say: Say,
): FrameCardState {
  const first = FIELD_NAMES.map((name) => shown[name]).find((message) => message !== undefined);
  return {
    brand: brandOf(values.number, testCards),
    complete: FIELD_NAMES.every((name) => errors[name] === undefined),
    empty: FIELD_NAMES.every((name) => values[name] === ''),
    error: first === undefined ? null : sayFieldMessage(first, say),
  };
}

/** The CVV's hint, as the page's field gave it: 4 digits on the front of an American Express card, else 3. */
export function cvvHint(
  number: string,
  testCards: readonly string[],
  t: (key: 'card.cvv_front' | 'card.cvv_back', values: { digits: number }) => string,
): string {
  const digits = cvvLength(getCardType(number, testCards)?.brand ?? null);
  return t(digits === 4 ? 'card.cvv_front' : 'card.cvv_back', { digits });
}

/** The token call's field messages (keyed as the request names them) on the frame's three fields. */
export function fieldErrorsOfTokenAnswer(fields: Record<string, unknown>): FieldErrors {
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const errors: FieldErrors = {};
  const number = text(fields.number);
  const expiry = text(fields.exp_month) ?? text(fields.exp_year);
  const cvv = text(fields.cvv);
  if (number) errors.number = number;
  if (expiry) errors.expiry = expiry;
  if (cvv) errors.cvv = cvv;
  return errors;
}

/** What POST /v1/tokens is sent: digits, and the expiry as a month and a four-digit year. */
export function tokenRequestBody(values: FieldValues, testCards: readonly string[]) {
  const expiry = parseCardExpiry(values.expiry);
  return {
    number: digitsOnly(values.number),
    cvv: values.cvv,
    exp_month: expiry?.month ?? 0,
    exp_year: expiry?.year ?? 0,
    test_cards: testCards.map(digitsOnly),
  };
}
