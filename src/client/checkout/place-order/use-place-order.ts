import { useRef, useState } from 'react';
import { navigateTo } from '../../boot/navigate-to.js';
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
  formFieldOfOrderPath,
  giftsMatchCart,
  orderedErrors,
  sectionFields,
  sectionOfField,
  validateSection,
} from '../section-rules.js';
import { validatePayment } from '../payment/payment-rules.js';
import { buildOrderBody } from './order-body.js';

export interface PlaceOrderOptions {
  /** the shown sections, in order */
  visibleComponents: readonly SectionType[];
  billingShown: boolean;
  /** opens a section (navigation move-to) */
  openSection: (component: SectionType) => void;
}

export interface OrderAlert {
  /** where it shows: next to the payment fields (a decline) or by the order button */
  place: 'payment' | 'order';
  message: string;
}

const RETRY_MESSAGE =
  'We could not confirm your order because the connection or the store had a problem. ' +
  'Press the button again: you will not be charged twice.';

/**
 * Placing the order: every shown section is checked first (the first invalid one opens); then one request per attempt
 * with its own Idempotency-Key. A second press while an attempt is in flight does nothing; a retryable failure is
 * retried with the same key; a decline keeps the order for a retry through PUT orders/{order_id} with a new key.
 */
export function usePlaceOrder(options: PlaceOrderOptions) {
  const checkout = useCheckout();
  const attemptKey = useRef<string | null>(null);
  const inFlight = useRef(false);
  const [alert, setAlert] = useState<OrderAlert | null>(null);

  const showAlert = (next: OrderAlert) => {
    setAlert(next);
    checkout.requestFocus(next.place === 'payment' ? 'payment_error' : 'order_error');
  };

  /** Checks every shown section; opens the first invalid one with its errors. */
  function validateAll(): boolean {
    const { cart, dispatchForm, sectionContext, setSectionAlert, requestFocus, dispatchOrder } = checkout;
    dispatchOrder({ type: 'triggerValidation' });
    let firstInvalid: { component: SectionType; field: string } | null = null;
    for (const component of options.visibleComponents) {
      const errors =
        component === 'PaymentInformation'
          ? validatePayment(sectionContext())
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
      dispatchOrder({ type: 'submit' });
      let orderCart = cart;
      if (options.visibleComponents.includes('GiftInformation') && !giftsMatchCart(cart, form.text)) {
        const { saveGifts, withSavedGifts } = await import('../gifts/save-gifts.js');
        const saved = await saveGifts(api, token, cart, form.text);
        checkout.updateCart((latest) => withSavedGifts(latest, saved.saved));
        orderCart = withSavedGifts(cart, saved.saved);
        if (saved.failure) {
          checkout.setSectionAlert('GiftInformation', { message: saved.failure.message });
          options.openSection('GiftInformation');
          return;
        }
      }
      const expressTokenId = express.status === 'active' ? express.paymentTokenId : null;
      const orderId = orderCart.order.order_id;
      const body = buildOrderBody({
        cart: orderCart,
        token,
        form,
        orderState,
        payment: paymentChoiceFor({
          total: orderCart.total,
          isRecurring: orderCart.order.is_recurring,
          expressPaymentTokenId: expressTokenId,
        }),
        expressPaymentTokenId: expressTokenId,
        testCards: checkout.testCards,
        billingShown: options.billingShown,
        isUpdate: orderId !== null,
      });
      attemptKey.current ??= newIdempotencyKey();
      try {
        const answer = await api.placeOrder(orderId, body, attemptKey.current);
        attemptKey.current = null;
        const { action, ...next } = answer;
        if (action?.type === 'redirect') {
          // The overlay stays up while the browser goes to the payment provider.
          leaving = true;
          navigateTo(action.url);
          return;
        }
        if (next.order.status === 'complete') {
          clearStoredForm(sessionStore(), token);
          dispatchForm({ type: 'clearSensitive' });
        }
        setCart(next);
      } catch (error) {
        const failure = failureOf(error);
        const kind = classifyOrderFailure(failure);
        if (!shouldKeepIdempotencyKey(kind)) attemptKey.current = null;
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
            showAlert({ place: 'payment', message: rateLimitedMessage(failure) });
            break;
          case 'retryable':
            showAlert({ place: 'order', message: RETRY_MESSAGE });
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
