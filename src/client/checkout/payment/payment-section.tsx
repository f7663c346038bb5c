import { paymentChoiceFor } from '../../../domain/order-attempt.js';
import { Button } from '../../ui/button.js';
import { fieldId } from '../../ui/field-ids.js';
import { useCheckout } from '../checkout-context.js';
import { SectionForm } from '../section-form.js';
import { PlaceOrderBlock } from '../place-order/place-order-block.js';
import type { OrderAlert } from '../place-order/use-place-order.js';
import { useSectionSubmit } from '../use-section-submit.js';
import { CardFrame } from './card-frame.js';
import type { CardSession } from './card-session.js';
import { compareWithApproved } from '../express/express-approval.js';
import { money } from '../format.js';
import { T, useT } from '../../i18n/use-t.js';

export interface PaymentSectionProps {
  onPlaceOrder: () => void;
  alert: OrderAlert | null;
  /** leaves the approved express payment and pays by card */
  onLeaveExpress: () => void;
  /** the processor's card fields, shared with placing the order */
  card: CardSession;
}

/**
 * The final total, with its shipping and tax, before the payer confirms, and how it compares with what they approved
 * at the provider (the total before their address priced shipping and tax): the order charges the final total.
 */
function ExpressTotal({ approved }: { approved: number | null }) {
  const { cart } = useCheckout();
  const { t, locale } = useT();
  const currency = cart.currency_value;
  const amount = (value: number) => money(value, currency, locale);
  const total = amount(cart.total);
  const shipping = amount(cart.total_offer_shipping + cart.total_campaign_shipping);
  const comparison = approved === null ? null : compareWithApproved(approved, cart.total, currency);
  return (
    <p className="express-active__total">
      <T
        id="payment.express_total"
        values={{ total, shipping, tax: amount(cart.total_tax) }}
        components={[<strong />]}
      />{' '}
      {comparison === null || approved === null
        ? t('payment.express_charges', { total })
        : comparison.kind === 'same'
          ? t('payment.express_same')
          : t(comparison.kind === 'more' ? 'payment.express_more' : 'payment.express_less', {
              difference: amount(comparison.difference),
              approved: amount(approved),
              total,
            })}
    </p>
  );
}

export function PaymentSection({ onPlaceOrder, alert, onLeaveExpress, card }: PaymentSectionProps) {
  const { cart, express } = useCheckout();
  const { t } = useT();
  const { summary, message } = useSectionSubmit('PaymentInformation', onPlaceOrder);
  const payment = paymentChoiceFor({
    total: cart.total,
    isRecurring: cart.order.is_recurring,
    expressPaymentTokenId: express.status === 'active' ? express.paymentTokenId : null,
  });
  return (
    <SectionForm onSubmit={onPlaceOrder} summary={summary} message={message} continueLabel={null}>
      {alert?.place === 'payment' ? (
        <div className="notice notice--error" role="alert" id={fieldId('payment_error')} tabIndex={-1}>
          {alert.message}
        </div>
      ) : null}
      {payment === 'paypal' ? (
        <div className="express-active">
          <p>
            {express.payerEmail ? (
              <T
                id="payment.paying_with_paypal_as"
                values={{ email: express.payerEmail }}
                components={[<strong />]}
              />
            ) : (
              <T id="payment.paying_with_paypal" components={[<strong />]} />
            )}
          </p>
          <ExpressTotal approved={express.approvedAmount} />
          <Button variant="link" onClick={onLeaveExpress}>
            {t('payment.pay_another_way')}
          </Button>
        </div>
      ) : (
        <CardFrame card={card} />
      )}
      <PlaceOrderBlock onPlaceOrder={onPlaceOrder} alert={alert} />
    </SectionForm>
  );
}
