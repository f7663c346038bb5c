// What the test processor's POST /v1/tokens decides (docs/payments.md, "The built-in test processor"): whether the
// frame's card is one it tokenizes, with the checkout's own card rules, and what its number will mean when charged.
import { checkCard, expiryYear } from '../../../../domain/checkout-fields.js';
import { digitsOnly, getCardType } from '../../../../domain/card.js';
import type { Message } from '../../../../i18n/message-keys.js';
import { TEST_CARDS } from '../test-gateway.js';
import type { TokenBehaviour } from './test-processor-repository.js';

/** The 3-D Secure test card: the bank asks the shopper to authenticate (docs/payments.md, the card table). */
export const AUTHENTICATE_CARD = '4000002760003184';

/** Field messages keyed as the request names them (number, exp_month, exp_year, cvv), said in the frame's language. */
export type TokenFieldErrors = Partial<Record<'number' | 'exp_month' | 'exp_year' | 'cvv', Message>>;

export interface TokenRequest {
  number: string;
  cvv: string;
  exp_month: number | string;
  exp_year: number | string;
  test_cards: string[];
}

export interface TokenCard {
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  behaviour: TokenBehaviour;
  test_card: boolean;
}

const MAX_TEST_CARDS = 50;

const isText = (value: unknown, max: number): value is string =>
  typeof value === 'string' && value.length <= max;
const isMonthOrYear = (value: unknown): value is number | string =>
  (typeof value === 'number' && Number.isInteger(value)) || isText(value, 4);

/**
 * The body's shape (not yet its card rules): null when a field is missing or of the wrong type, which the frame
 * never sends; a shopper's mistakes are answered field by field by checkTokenCard.
 */
export function parseTokenRequest(body: unknown): TokenRequest | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const input = body as Record<string, unknown>;
  const testCards = input.test_cards ?? [];
  if (!isText(input.number, 40) || !isText(input.cvv, 8)) return null;
  if (!isMonthOrYear(input.exp_month) || !isMonthOrYear(input.exp_year)) return null;
  if (!Array.isArray(testCards) || testCards.length > MAX_TEST_CARDS) return null;
  if (!testCards.every((card) => isText(card, 40))) return null;
  return {
    number: input.number,
    cvv: input.cvv,
    exp_month: input.exp_month,
    exp_year: input.exp_year,
    test_cards: testCards.map((card: string) => digitsOnly(card)),
  };
}

/** The checkout's card rules (src/domain/checkout-fields.ts), keyed by the request's field names. */
export function checkTokenCard(request: TokenRequest, now: Date): TokenFieldErrors {
  const problems = checkCard(
    { number: request.number, cvv: request.cvv, expMonth: request.exp_month, expYear: request.exp_year },
    { now, testCards: request.test_cards },
  );
  const errors: TokenFieldErrors = {};
  if (problems['payment.card_number']) errors.number = problems['payment.card_number'];
  if (problems['payment.card_exp_month']) errors.exp_month = problems['payment.card_exp_month'];
  if (problems['payment.card_exp_year']) errors.exp_year = problems['payment.card_exp_year'];
  if (problems['payment.card_cvv']) errors.cvv = problems['payment.card_cvv'];
  return errors;
}

/** What charging the number will do: the documented test card table, everything else approves. */
export function tokenBehaviour(number: string): TokenBehaviour {
  const digits = digitsOnly(number);
  if (digits === TEST_CARDS.declined) return 'decline';
  if (digits === TEST_CARDS.insufficientFunds) return 'insufficient_funds';
  if (digits === TEST_CARDS.gatewayError) return 'processor_error';
  if (digits === AUTHENTICATE_CARD) return 'authenticate';
  return 'approve';
}

/** What the token keeps of a card that passed checkTokenCard: never the number or the security code. */
export function tokenCardOf(request: TokenRequest): TokenCard {
  const digits = digitsOnly(request.number);
  const type = getCardType(digits, request.test_cards);
  return {
    brand: type?.brand ?? 'other',
    last4: digits.slice(-4),
    exp_month: Number(String(request.exp_month).trim()),
    exp_year: expiryYear(request.exp_year) ?? 0,
    behaviour: tokenBehaviour(digits),
    test_card: request.test_cards.includes(digits),
  };
}
