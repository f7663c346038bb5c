import type { FieldErrors } from '../../../domain/field-errors.js';
import { EXPIRY_MALFORMED, EXPIRY_MISSING, parseCardExpiry } from '../../../domain/card-expiry.js';
import { checkCard } from '../../../domain/checkout-fields.js';
import { paymentChoiceFor } from '../../../domain/order-attempt.js';
import { formFieldOfOrderPath, validateSection, type SectionContext } from '../section-rules.js';

/**
 * The payment section's errors: the card (with the server's own rules) when paying by card, and the subscription
 * terms box. One expiry field stands for the month and the year.
 */
export function validatePayment(context: SectionContext): FieldErrors {
  const errors = validateSection('PaymentInformation', context);
  const choice = paymentChoiceFor({
    total: context.cart.total,
    isRecurring: context.cart.order.is_recurring,
    expressPaymentTokenId: context.expressPaymentTokenId,
  });
  if (choice !== 'card') return errors;
  const text = (name: string) => context.form.text[name] ?? '';
  const expiryText = text('card_expiry');
  const expiry = parseCardExpiry(expiryText);
  const problems = checkCard(
    {
      number: text('card_number'),
      cvv: text('card_cvv'),
      expMonth: expiry?.month ?? 1,
      expYear: expiry?.year ?? 2000,
    },
    { now: context.now, testCards: context.testCards },
  );
  const cardErrors: FieldErrors = {};
  for (const [path, message] of Object.entries(problems)) cardErrors[formFieldOfOrderPath(path)] ??= message;
  if (expiryText.trim() === '') cardErrors.card_expiry = EXPIRY_MISSING;
  else if (!expiry) cardErrors.card_expiry = EXPIRY_MALFORMED;
  return { ...cardErrors, ...errors };
}
