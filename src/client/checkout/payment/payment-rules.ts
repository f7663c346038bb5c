import type { FieldErrors } from '../../../domain/field-errors.js';
import { paymentChoiceFor } from '../../../domain/order-attempt.js';
import { CARD_FIELD, validateSection, type SectionContext } from '../section-rules.js';
import type { Translate } from '../../i18n/use-t.js';
import type { CardView } from './card-session.js';

/**
 * What the framed card fields lack before an order may be sent: the frame must be there, the brand one the store
 * takes, the frame's own error fixed, and every field filled in.
 */
export function cardFieldsError(card: CardView, t: Translate): string | null {
  if (card.status === 'failed') return t('payment.card_unavailable');
  if (card.status === 'loading') return t('payment.card_loading');
  const { state } = card;
  if (state.brand === 'other') return t('payment.card_brand_refused');
  if (state.error) return state.error;
  if (state.empty) return t('payment.card_missing');
  if (!state.complete) return t('payment.card_incomplete');
  return null;
}

/**
 * The payment section's errors: the card fields when paying by card (what the processor's frame reports), and the
 * subscription terms box.
 */
export function validatePayment(context: SectionContext, card: CardView | null, t: Translate): FieldErrors {
  const errors = validateSection('PaymentInformation', context);
  const choice = paymentChoiceFor({
    total: context.cart.total,
    isRecurring: context.cart.order.is_recurring,
    expressPaymentTokenId: context.expressPaymentTokenId,
  });
  if (choice !== 'card') return errors;
  const problem = card ? cardFieldsError(card, t) : t('payment.card_loading');
  return problem ? { [CARD_FIELD]: problem, ...errors } : errors;
}
