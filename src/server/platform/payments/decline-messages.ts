import type { Message, MessageKey } from '../../../i18n/message-keys.js';
import type { DeclineCode } from './gateway.js';

/**
 * What the merchant's records say of each decline (the payment attempt, the webhook), whatever the processor's own
 * words were (docs/payments.md). The shopper reads declineMessage's, in their language.
 */
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

const DECLINE_KEYS: Record<DeclineCode, MessageKey> = {
  card_declined: 'payment.decline.card_declined',
  insufficient_funds: 'payment.decline.insufficient_funds',
  expired_card: 'payment.decline.expired_card',
  incorrect_cvc: 'payment.decline.incorrect_cvc',
  payment_declined: 'payment.decline.payment_declined',
  authentication_failed: 'payment.decline.authentication_failed',
  authentication_required: 'payment.decline.authentication_required',
};

/** What the shopper reads of a decline, said in their language (docs/languages.md); the code stays the answer's. */
export function declineMessage(code: DeclineCode): Message {
  // A code a processor adapter let through unmapped still reads as a decline.
  return { key: DECLINE_KEYS[code] ?? DECLINE_KEYS.payment_declined };
}

/** The processor did not decide: nothing was charged, and the same request may be sent again. */
export const PROCESSOR_UNAVAILABLE_MESSAGE =
  'The payment service did not answer. Nothing was charged; try again.';

/** PROCESSOR_UNAVAILABLE_MESSAGE, said in the shopper's language. */
export const PROCESSOR_UNAVAILABLE: Message = { key: 'payment.processor_unavailable' };
