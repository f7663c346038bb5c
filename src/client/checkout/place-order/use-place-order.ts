import { useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { navigateTo } from '../../boot/navigate-to.js';
import type { CardPayment } from '../../../contract/order.js';
import type { SectionType } from '../../../contract/organization.js';
import {
  classifyOrderFailure,
  rateLimitedMessage,
  paymentChoiceFor,
  shouldKeepIdempotencyKey,
} from '../../../domain/order-attempt.js';
import { failureOf } from '../../api/http-client.js';
import { useCheckout } from '../checkout-context.js';
import { clearStoredForm, sessionStore } from '../form/checkout-form.js';
import { newIdempotencyKey } from '../idempotency-key.js';
import {
  CARD_FIELD,
  formFieldOfOrderPath,
  giftsMatchCart,
  orderedErrors,
  sectionFields,
  sectionOfField,
  validateSection,
} from '../section-rules.js';
import type { CardSession } from '../payment/card-session.js';
import { validatePayment } from '../payment/payment-rules.js';
import { useT } from '../../i18n/use-t.js';
import { buildOrderBody } from './order-body.js';

export interface PlaceOrderOptions {
  /** the shown sections, in order */
  visibleComponents: readonly SectionType[];
  billingShown: boolean;
  /** opens a section (navigation move-to) */
  openSection: (component: SectionType) => void;
  /** the processor's card fields while the payment section shows them; null on the review step */
  card: CardSession | null;
}

/** What an order pays by card: the frame's single-use token, or the payment the shopper authenticated. */
type CardPart = Omit<CardPayment, 'method'>;

/** One order attempt: its Idempotency-Key, and the card part it sent (sent again as it was when retried). */
interface Attempt {
  key: string;
  card: CardPart | null;
}

export interface OrderAlert {
  /** where it shows: next to the payment fields (a decline) or by the order button */
  place: 'payment' | 'order';
  message: string;
}

/**
 * Placing the order: every shown section is checked first (the first invalid one opens); the processor's frame makes
 * the card's single-use token; then one request per attempt with its own Idempotency-Key. A second press while an
 * attempt is in flight does nothing; a retryable failure is retried with the same key and the same token; a decline
 * keeps the order for a retry through PUT orders/{order_id} with a new key and a new token. When the bank asks the
 * shopper to authenticate (3-D Secure), the adapter shows its challenge and the order is sent again, as a new attempt,
 * with the authenticated payment (docs/payments.md, docs/checkout-rules.md#order-button).
 */
export function usePlaceOrder(options: PlaceOrderOptions) {
  const checkout = useCheckout();
  const { t } = useT();
  const attempt = useRef<Attempt | null>(null);
  const inFlight = useRef(false);
  const [alert, setAlert] = useState<OrderAlert | null>(null);

  const showAlert = (next: OrderAlert) => {
    setAlert(next);
    checkout.requestFocus(next.place === 'payment' ? 'payment_error' : 'order_error');
  };

  /** A message about the card fields (the frame could not make a token): shown and focused as a field's error. */
  const showCardError = (message: string) => {
    checkout.dispatchForm({ type: 'setErrors', names: [CARD_FIELD], errors: { [CARD_FIELD]: message } });
    checkout.setSectionAlert('PaymentInformation', { message: null });
    checkout.requestFocus(CARD_FIELD);
  };

  /** Checks every shown section; opens the first invalid one with its errors. */
  function validateAll(): boolean {
    const { cart, dispatchForm, sectionContext, setSectionAlert, requestFocus, dispatchOrder } = checkout;
    dispatchOrder({ type: 'triggerValidation' });
    let firstInvalid: { component: SectionType; field: string } | null = null;
    for (const component of options.visibleComponents) {
      const errors =
        component === 'PaymentInformation'
          ? validatePayment(sectionContext(), options.card?.view ?? null, t)
          : validateSection(component, sectionContext());
      dispatchForm({ type: 'setErrors', names: sectionFields(component, cart), errors });
      const first = orderedErrors(component, cart, errors)[0];
      if (first) setSectionAlert(component, { message: null });
      if (first && !firstInvalid) firstInvalid = { component, field: first[0] };
    }
    dispatchOrder({ type: 'resetValidation' });
    if (!firstInvalid) return true;
    options.openSection(firstInvalid.component);
    requestFocus(firstInvalid.field);
    return false;
  }

  async function placeOrder() {
    if (inFlight.current) return;
    inFlight.current = true;
    let leaving = false;
    const { api, token, cart, form, orderState, express, dispatchOrder, dispatchForm, setCart } = checkout;
    try {
      if (!validateAll()) return;
      setAlert(null);
      const expressTokenId = express.status === 'active' ? express.paymentTokenId : null;
      const payment = paymentChoiceFor({
        total: cart.total,
        isRecurring: cart.order.is_recurring,
        expressPaymentTokenId: expressTokenId,
      });
      dispatchOrder({ type: 'submit' });
      // The card's token first, in the shopper's click (a wallet's sheet opens only then). An attempt kept for a
      // retry sends the token it sent before: the same key with another token would be another request.
      let card: CardPart | null = attempt.current ? attempt.current.card : null;
      if (payment === 'card' && !attempt.current) {
        const fields = options.card?.fields.current;
        if (!fields) {
          showCardError(t('payment.card_loading'));
          return;
        }
        const tokenized = await fields
          .tokenize()
          .catch(() => ({ ok: false as const, message: t('payment.card_unreadable') }));
        if (!tokenized.ok) {
          showCardError(tokenized.message);
          return;
        }
        card = { card_token: tokenized.token };
      }
      let orderCart = cart;
      if (options.visibleComponents.includes('GiftInformation') && !giftsMatchCart(cart, form.text)) {
        const { saveGifts, withSavedGifts } = await import('../gifts/save-gifts.js');
        const saved = await saveGifts(api, token, cart, form.text, t);
        checkout.updateCart((latest) => withSavedGifts(latest, saved.saved));
        orderCart = withSavedGifts(cart, saved.saved);
        if (saved.failure) {
          checkout.setSectionAlert('GiftInformation', { message: saved.failure.message });
          options.openSection('GiftInformation');
          return;
        }
      }
      const bodyFor = (forCart: typeof cart, cardPart: CardPart | null) =>
        buildOrderBody({
          cart: forCart,
          token,
          form,
          orderState,
          payment: paymentChoiceFor({
            total: forCart.total,
            isRecurring: forCart.order.is_recurring,
            expressPaymentTokenId: expressTokenId,
          }),
          expressPaymentTokenId: expressTokenId,
          card: cardPart,
          billingShown: options.billingShown,
          isUpdate: forCart.order.order_id !== null,
        });
      let request = { orderId: orderCart.order.order_id, body: bodyFor(orderCart, card), card };
      try {
        for (;;) {
          attempt.current ??= { key: newIdempotencyKey(), card: request.card };
          const answer = await api.placeOrder(request.orderId, request.body, attempt.current.key);
          attempt.current = null;
          const { action, ...next } = answer;
          if (action?.type === 'redirect') {
            // The overlay stays up while the browser goes to the payment provider.
            leaving = true;
            navigateTo(action.url);
            return;
          }
          if (action?.type === 'authenticate') {
            // The order waits for the shopper's bank: the cart now names it, and is shown as the server has it.
            setCart(next);
            const fields = options.card?.fields.current;
            // The bank's challenge is the shopper's to answer: the overlay gives way to it meanwhile.
            flushSync(() => dispatchOrder({ type: 'finish' }));
            const authenticated = fields
              ? await fields
                  .authenticate(action.payment_action)
                  .catch(() => ({ ok: false as const, message: t('payment.bank_not_confirmed') }))
              : { ok: false as const, message: t('payment.bank_fields_gone') };
            if (!authenticated.ok) {
              // Nothing was charged; the order stays open for another try, with this card or another.
              showAlert({ place: 'payment', message: authenticated.message });
              return;
            }
            dispatchOrder({ type: 'submit' });
            const authenticatedCard = { authenticated_payment: action.reference };
            request = {
              orderId: next.order.order_id,
              body: bodyFor(next, authenticatedCard),
              card: authenticatedCard,
            };
            continue;
          }
          // Only the server's word that the order is complete shows the confirmation (checkout-app.tsx).
          if (next.order.status === 'complete') clearStoredForm(sessionStore(), token);
          setCart(next);
          return;
        }
      } catch (error) {
        const failure = failureOf(error, t);
        const kind = classifyOrderFailure(failure);
        if (!shouldKeepIdempotencyKey(kind)) attempt.current = null;
        switch (kind) {
          case 'declined':
            // The order is kept: the cart now names it, and the retry updates it.
            await checkout.refetchCart();
            showAlert({ place: 'payment', message: failure.message });
            break;
          case 'invalid': {
            const fields: Record<string, string> = {};
            for (const [path, message] of Object.entries(failure.fields ?? {})) {
              fields[formFieldOfOrderPath(path)] = message;
            }
            const names = Object.keys(fields);
            dispatchForm({ type: 'setErrors', names, errors: fields });
            const section = options.visibleComponents.find((component) =>
              names.some((name) => sectionOfField(name) === component),
            );
            if (section) {
              checkout.setSectionAlert(section, { message: failure.message });
              options.openSection(section);
              const first = orderedErrors(section, orderCart, fields)[0];
              checkout.requestFocus(first ? first[0] : 'order_error');
            } else {
              // Not about a field (a discount code that stopped applying): the fresh cart shows why.
              await checkout.refetchCart();
              showAlert({ place: 'order', message: failure.message });
            }
            break;
          }
          case 'already_complete':
            // Placed meanwhile (the fresh cart shows the confirmation), or a payment still in progress: say so.
            await checkout.refetchCart();
            showAlert({ place: 'order', message: failure.message });
            break;
          case 'rate_limited':
            showAlert({ place: 'payment', message: rateLimitedMessage(failure, t) });
            break;
          case 'retryable':
            showAlert({ place: 'order', message: t('payment.order_retry') });
            break;
          default:
            showAlert({ place: 'order', message: failure.message });
        }
      }
    } finally {
      inFlight.current = false;
      if (!leaving) checkout.dispatchOrder({ type: 'finish' });
    }
  }

  return { placeOrder, alert };
}
