import type { DeclineCode } from './gateway.js';

/**
 * What the shopper reads for each decline, whatever the processor said: adapters map their codes onto ours and never
 * pass the processor's text on (docs/payments.md, "The server adapter").
 */
export const DECLINE_MESSAGES: Record<DeclineCode, string> = {
  card_declined: 'Your card was declined. Try another card or PayPal.',
  insufficient_funds: 'Your card has insufficient funds. Try another card or PayPal.',
  expired_card: 'Your card has expired. Try another card or PayPal.',
  incorrect_cvc: 'The security code is wrong. Check it and try again.',
  payment_declined: 'Your payment was declined. Try another way to pay.',
  authentication_failed: 'Your bank could not confirm the payment. Try again, or use another card or PayPal.',
  authentication_required:
    'Your bank wants the cardholder to confirm this payment, so it could not be charged automatically.',
};
