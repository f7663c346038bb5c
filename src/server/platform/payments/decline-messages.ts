import type { DeclineCode } from './gateway.js';

/** What the shopper reads for each decline, whatever the processor's own words were (docs/payments.md). */
export const DECLINE_MESSAGES: Record<DeclineCode, string> = {
  card_declined: 'Your card was declined. Try another card or PayPal.',
  insufficient_funds: 'Your card has insufficient funds. Try another card or PayPal.',
  expired_card: 'Your card has expired. Try another card or PayPal.',
  incorrect_cvc: 'The security code is wrong. Check it and try again.',
  payment_declined: 'Your payment was declined. Try another way to pay.',
  authentication_failed:
    'Your bank could not confirm the payment. Nothing was charged; try again or use another card.',
  authentication_required:
    'Your bank wants you to confirm this payment. Update your card or pay again to confirm it.',
};

/** The processor did not decide: nothing was charged, and the same request may be sent again. */
export const PROCESSOR_UNAVAILABLE_MESSAGE =
  'The payment service did not answer. Nothing was charged; try again.';
