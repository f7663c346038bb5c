import { Suspense } from 'react';
import { paymentChoiceFor } from '../../../domain/order-attempt.js';
import { hasPricesByCycle } from '../../../domain/billing-plan.js';
import { preloadedLazy } from '../../ui/preloaded-lazy.js';
import { useBumpOffers } from '../bumps/bump-offers-slot.js';
import { Button } from '../../ui/button.js';
import { Checkbox } from '../../ui/checkbox.js';
import { fieldId } from '../../ui/field-ids.js';
import { useCheckout } from '../checkout-context.js';
import { money } from '../format.js';
import type { OrderAlert } from './use-place-order.js';
import { useT, type Translate } from '../../i18n/use-t.js';

// The words of plans priced by cycle: a chunk loaded only for a cart that has one.
const billingPlanNotes = preloadedLazy(() => import('../summary/billing-plan-notes.js'));

export interface PlaceOrderBlockProps {
  onPlaceOrder: () => void;
  alert: OrderAlert | null;
}

/** What the order button says: the amount, and what the press starts. */
export function orderButtonLabel(
  input: {
    total: number;
    currency: string;
    isRecurring: boolean;
    isGiftClaim: boolean;
    payment: 'none' | 'paypal' | 'card';
  },
  t: Translate,
  locale: string,
): string {
  const amount = money(input.total, input.currency, locale);
  if (input.payment === 'none') return t(input.isGiftClaim ? 'payment.claim_gift' : 'payment.place_order');
  const paypal = input.payment === 'paypal';
  if (input.isRecurring)
    return t(paypal ? 'payment.start_subscription_paypal' : 'payment.start_subscription', { amount });
  return t(paypal ? 'payment.pay_with_paypal_amount' : 'payment.pay', { amount });
}

/**
 * The order-bump boxes, the subscription-terms and email opt-in boxes, then the order button: the last thing before
 * paying.
 */
export function PlaceOrderBlock({ onPlaceOrder, alert }: PlaceOrderBlockProps) {
  const { cart, config, form, orderState, dispatchOrder, express } = useCheckout();
  const { t, locale } = useT();
  const payment = paymentChoiceFor({
    total: cart.total,
    isRecurring: cart.order.is_recurring,
    expressPaymentTokenId: express.status === 'active' ? express.paymentTokenId : null,
  });
  const bumpOffers = useBumpOffers();
  const terms = orderState.subscriptionTerms;
  const termsLink = config.legal.terms_url;
  return (
    <div className="place-order">
      {terms.display && hasPricesByCycle(cart.offers) ? (
        // The merchant's terms are theirs; what each plan charges is said beside them, in the server's words.
        <Suspense fallback={null}>
          <billingPlanNotes.Component cart={cart} place="terms" id="subscription_terms-plan" />
        </Suspense>
      ) : null}
      {cart.bumps.length > 0 ? <Suspense fallback={null}>{bumpOffers}</Suspense> : null}
      {terms.display ? (
        <Checkbox
          name="subscription_terms"
          checked={terms.value}
          onChange={() => dispatchOrder({ type: 'toggleSubscriptionTerms' })}
          error={form.errors.subscription_terms}
          label={
            <>
              {config.subscription_terms.text}
              {termsLink ? (
                <>
                  {' '}
                  <a href={termsLink} target="_blank" rel="noreferrer">
                    {t('payment.read_terms')}
                  </a>
                </>
              ) : null}
            </>
          }
        />
      ) : null}
      {orderState.emailOptIn.display ? (
        <Checkbox
          name="email_opt_in"
          checked={orderState.emailOptIn.value}
          onChange={() => dispatchOrder({ type: 'toggleEmailOptIn' })}
          label={t('payment.email_opt_in', { store: config.organization_name })}
        />
      ) : null}
      {alert?.place === 'order' ? (
        <div className="notice notice--error" role="alert" id={fieldId('order_error')} tabIndex={-1}>
          {alert.message}
        </div>
      ) : null}
      <Button
        type="submit"
        className="place-order__button"
        block
        disabled={orderState.disabled}
        aria-busy={orderState.loading}
        onClick={(event) => {
          event.preventDefault();
          onPlaceOrder();
        }}
      >
        {orderButtonLabel(
          {
            total: cart.total,
            currency: cart.currency_value,
            isRecurring: cart.order.is_recurring,
            isGiftClaim: cart.order.is_gift_claim,
            payment,
          },
          t,
          locale,
        )}
      </Button>
    </div>
  );
}
