import type { DeclineCode } from './gateway.js';

export interface Decline {
  code: DeclineCode;
  message: string;
}

/** What paid: a card (entered or vaulted) or a PayPal wallet (express or vaulted). */
export type PaypalFunding = 'card' | 'paypal';

const CARD_DECLINED: Decline = {
  code: 'card_declined',
  message: 'Your card was declined. Try another card or PayPal.',
};
const WALLET_DECLINED: Decline = {
  code: 'payment_declined',
  message: 'PayPal declined this payment. Choose another way to pay in PayPal, or pay by card.',
};

/** processor_response.response_code values, from PayPal's processor response code table. */
const INSUFFICIENT_FUNDS_CODES = new Set(['5120']);
const EXPIRED_CARD_CODES = new Set(['5400', '1380', 'PPEX', 'PPEF']);
const BAD_CVV_CODES = new Set(['00N7', '5110', '1382', 'PCVV', 'PPC2']);

/** A card capture PayPal answered DECLINED or FAILED, by the issuer's response code. */
export function declineForProcessorCode(responseCode: string | undefined): Decline {
  if (responseCode !== undefined && INSUFFICIENT_FUNDS_CODES.has(responseCode)) {
    return {
      code: 'insufficient_funds',
      message: 'Your card has insufficient funds. Try another card or PayPal.',
    };
  }
  if (responseCode !== undefined && EXPIRED_CARD_CODES.has(responseCode)) {
    return { code: 'expired_card', message: 'Your card has expired. Try another card or PayPal.' };
  }
  if (responseCode !== undefined && BAD_CVV_CODES.has(responseCode)) {
    return {
      code: 'incorrect_cvc',
      message: 'The security code (CVV) does not match your card. Check it and try again.',
    };
  }
  return CARD_DECLINED;
}

/** Error issues that mean the payer's money or instrument was refused (not a fault of ours or of PayPal's). */
const REFUSED_ISSUES = new Set([
  'INSTRUMENT_DECLINED',
  'TRANSACTION_REFUSED',
  'PAYER_CANNOT_PAY',
  'PAYEE_BLOCKED_TRANSACTION',
  'TRANSACTION_BLOCKED_BY_PAYEE',
  'MAX_NUMBER_OF_PAYMENT_ATTEMPTS_EXCEEDED',
  'COMPLIANCE_VIOLATION',
  'REDIRECT_PAYER_FOR_ALTERNATE_FUNDING',
  'PAYER_ACCOUNT_LOCKED_OR_CLOSED',
  'PAYER_ACCOUNT_RESTRICTED',
  'TRANSACTION_LIMIT_EXCEEDED',
  'CARD_CLOSED',
  'CARD_TYPE_NOT_SUPPORTED',
  'AGREEMENT_ALREADY_CANCELLED',
  'BILLING_AGREEMENT_NOT_FOUND',
  'PAYMENT_SOURCE_DECLINED_BY_PROCESSOR',
]);

/**
 * A 4xx answer, by its issue codes and field paths, as the decline the shopper sees; null when the answer is not
 * about the payer (our request, our account or PayPal itself), which the caller reports as a problem instead.
 */
export function declineForIssues(
  issues: readonly string[],
  fields: readonly string[],
  funding: PaypalFunding,
): Decline | null {
  const has = (issue: string) => issues.includes(issue);
  if (has('CARD_EXPIRED')) {
    return { code: 'expired_card', message: 'Your card has expired. Try another card or PayPal.' };
  }
  if (has('PAYER_ACTION_REQUIRED')) {
    return funding === 'card'
      ? {
          code: 'card_declined',
          message:
            'Your card asks for a verification step this checkout cannot offer. Try another card or PayPal.',
        }
      : {
          code: 'payment_declined',
          message: 'PayPal needs you to finish this payment at PayPal. Choose PayPal again to continue.',
        };
  }
  if (has('ORDER_NOT_APPROVED')) {
    return {
      code: 'payment_declined',
      message: 'This payment was not approved at PayPal. Choose PayPal again to continue.',
    };
  }
  if (
    funding === 'paypal' &&
    (has('ORDER_EXPIRED') || has('RESOURCE_NOT_FOUND') || has('INVALID_RESOURCE_ID'))
  ) {
    return {
      code: 'payment_declined',
      message: 'This PayPal payment has expired. Choose PayPal again to continue.',
    };
  }
  if (issues.some((issue) => REFUSED_ISSUES.has(issue))) {
    return funding === 'card' ? CARD_DECLINED : WALLET_DECLINED;
  }
  if (funding === 'card' && fields.some((field) => field.startsWith('/payment_source/card/'))) {
    return {
      code: 'card_declined',
      message: 'The card details were not accepted. Check the card number, expiry date and security code.',
    };
  }
  return null;
}

/** A decline for an answer that is not about the payer: the shopper can only pay another way. */
export function unprocessableDecline(funding: PaypalFunding): Decline {
  return funding === 'card'
    ? {
        code: 'card_declined',
        message: 'This card payment could not be processed. Try another card or PayPal.',
      }
    : {
        code: 'payment_declined',
        message: 'PayPal could not process this payment. Try again later or pay by card.',
      };
}

/** Decline for a wallet capture PayPal answered DECLINED or FAILED. */
export const WALLET_CAPTURE_DECLINED = WALLET_DECLINED;
