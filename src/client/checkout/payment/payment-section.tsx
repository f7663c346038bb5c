import { paymentChoiceFor } from '../../../domain/order-attempt.js';
import { Button } from '../../ui/button.js';
import { fieldId } from '../../ui/field-ids.js';
import { useCheckout } from '../checkout-context.js';
import { SectionForm } from '../section-form.js';
import { PlaceOrderBlock } from '../place-order/place-order-block.js';
import type { OrderAlert } from '../place-order/use-place-order.js';
import { useSectionSubmit } from '../use-section-submit.js';
import { CardFields } from './card-fields.js';

export interface PaymentSectionProps {
  onPlaceOrder: () => void;
  alert: OrderAlert | null;
  /** leaves the approved express payment and pays by card */
  onLeaveExpress: () => void;
}

export function PaymentSection({ onPlaceOrder, alert, onLeaveExpress }: PaymentSectionProps) {
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
            {express.payerEmail ? ` as ${express.payerEmail}` : ''}. You approved this payment; it is charged
            when you place the order.
          </p>
          <Button variant="link" onClick={onLeaveExpress}>
            Pay another way
          </Button>
        </div>
      ) : (
        <CardFields />
      )}
      <PlaceOrderBlock onPlaceOrder={onPlaceOrder} alert={alert} />
    </SectionForm>
  );
}
