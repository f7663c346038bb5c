import { UNACCEPTED_BRAND_MESSAGE } from '../../../domain/card.js';
import type { FieldErrors } from '../../../domain/field-errors.js';
import { paymentChoiceFor } from '../../../domain/order-attempt.js';
import { CARD_FIELD, validateSection, type SectionContext } from '../section-rules.js';
import type { CardView } from './card-session.js';

export const CARD_MISSING = 'Enter your card number.';
export const CARD_INCOMPLETE = 'Enter the card number, expiry date and security code.';
export const CARD_LOADING = 'The card fields are still loading. Wait a moment, then try again.';
export const CARD_UNAVAILABLE = 'The card fields could not be loaded. Check your connection, then try again.';

/**
 * What the framed card fields lack before an order may be sent: the frame must be there, the brand one the store
 * takes, the frame's own error fixed, and every field filled in.
 */
export function cardFieldsError(card: CardView): string | null {
  if (card.status === 'failed') return CARD_UNAVAILABLE;
  if (card.status === 'loading') return CARD_LOADING;
  const { state } = card;
  if (state.brand === 'other') return UNACCEPTED_BRAND_MESSAGE;
  if (state.error) return state.error;
  if (state.empty) return CARD_MISSING;
  if (!state.complete) return CARD_INCOMPLETE;
  return null;
}

/**
 * The payment section's errors: the card fields when paying by card (what the processor's frame reports), and the
 * subscription terms box.
 */
export function validatePayment(context: SectionContext, card: CardView | null): FieldErrors {
  const errors = validateSection('PaymentInformation', context);
  const choice = paymentChoiceFor({
    total: context.cart.total,
    isRecurring: context.cart.order.is_recurring,
    expressPaymentTokenId: context.expressPaymentTokenId,
  });
  if (choice !== 'card') return errors;
  const problem = card ? cardFieldsError(card) : CARD_LOADING;
  return problem ? { [CARD_FIELD]: problem, ...errors } : errors;
}
