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
  const currency = cart.currency_value;
  const total = money(cart.total, currency);
  const shipping = money(cart.total_offer_shipping + cart.total_campaign_shipping, currency);
  const comparison = approved === null ? null : compareWithApproved(approved, cart.total, currency);
  return (
    <p className="express-active__total">
      The total is <strong>{total}</strong>, including {shipping} shipping and{' '}
      {money(cart.total_tax, currency)} tax.{' '}
      {comparison === null || approved === null
        ? `PayPal charges ${total} when you place the order.`
        : comparison.kind === 'same'
          ? `This is the amount you approved at PayPal; it is charged when you place the order.`
          : `That is ${money(comparison.difference, currency)} ${comparison.kind} than the ${money(approved, currency)} you approved at PayPal: PayPal charges ${total} when you place the order.`}
    </p>
  );
}

export function PaymentSection({ onPlaceOrder, alert, onLeaveExpress, card }: PaymentSectionProps) {
  const { cart, express } = useCheckout();
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
            <strong>Paying with PayPal</strong>
            {express.payerEmail ? ` as ${express.payerEmail}` : ''}.
          </p>
          <ExpressTotal approved={express.approvedAmount} />
          <Button variant="link" onClick={onLeaveExpress}>
            Pay another way
          </Button>
        </div>
      ) : (
        <CardFrame card={card} />
      )}
      <PlaceOrderBlock onPlaceOrder={onPlaceOrder} alert={alert} />
    </SectionForm>
  );
}
