import type { DeclineCode } from './gateway.js';

export interface StripeDecline {
  code: DeclineCode;
  /**
   * A hard decline will not go through on a retry of the same card (lost, stolen, closed, fraud); a soft one may
   * (funds, a bank that was busy, authentication). Rebills stop retrying a hard decline (docs/payments.md, "Stripe").
   */
  hard: boolean;
}

// Stripe's decline_code values (docs.stripe.com/declines/codes) that no retry of the same card will change.
const HARD_DECLINE_CODES = new Set([
  'card_not_supported',
  'card_velocity_exceeded',
  'currency_not_supported',
  'do_not_honor',
  'do_not_try_again',
  'expired_card',
  'fraudulent',
  'incorrect_number',
  'invalid_account',
  'invalid_number',
  'lost_card',
  'merchant_blacklist',
  'new_account_information_available',
  'no_action_taken',
  'not_permitted',
  'pickup_card',
  'restricted_card',
  'revocation_of_all_authorizations',
  'revocation_of_authorization',
  'security_violation',
  'service_not_allowed',
  'stolen_card',
  'stop_payment_order',
  'transaction_not_allowed',
]);

// Our code for a Stripe error code or decline code that has one of its own; every other decline is card_declined.
const OUR_CODES: Readonly<Record<string, DeclineCode>> = {
  insufficient_funds: 'insufficient_funds',
  expired_card: 'expired_card',
  incorrect_cvc: 'incorrect_cvc',
  invalid_cvc: 'incorrect_cvc',
  authentication_required: 'authentication_required',
  payment_intent_authentication_failure: 'authentication_failed',
};

/**
 * Our decline for a Stripe card error (its `code`, and `decline_code` when the issuer declined) or a PaymentIntent's
 * `last_payment_error`. The decline code is the more precise of the two, so it decides when it has a code of ours.
 */
export function stripeDecline(error: { code?: string | null; decline_code?: string | null }): StripeDecline {
  const declineCode = error.decline_code ?? null;
  const code =
    (declineCode !== null ? OUR_CODES[declineCode] : undefined) ??
    (error.code ? OUR_CODES[error.code] : undefined) ??
    'card_declined';
  const hard =
    code === 'expired_card' ||
    (declineCode !== null && HARD_DECLINE_CODES.has(declineCode)) ||
    (error.code !== undefined && error.code !== null && HARD_DECLINE_CODES.has(error.code));
  return { code, hard };
}

/** Stripe's card brands we accept, as our brand names (src/domain/card.ts); null for any other. */
export function ourCardBrand(
  stripeBrand: string | null | undefined,
): 'visa' | 'mastercard' | 'discover' | 'american-express' | null {
  switch (stripeBrand) {
    case 'visa':
    case 'mastercard':
    case 'discover':
      return stripeBrand;
    case 'amex':
      return 'american-express';
    default:
      return null;
  }
}
