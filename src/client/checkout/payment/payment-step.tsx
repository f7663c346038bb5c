import type { SectionType } from '../../../contract/organization.js';
import { PlaceOrderBlock } from '../place-order/place-order-block.js';
import { usePlaceOrder } from '../place-order/use-place-order.js';
import { useCardSession } from './card-session.js';
import { PaymentSection } from './payment-section.js';

export interface PaymentStepProps {
  /** the payment section, or the review step of an order that needs no payment */
  mode: 'payment' | 'review';
  visibleComponents: readonly SectionType[];
  billingShown: boolean;
  openSection: (component: SectionType) => void;
  onLeaveExpress: () => void;
}

/**
 * The step that places the order; loaded once the shopper gets near it (the card fields' frame, the order button, the
 * answers). The processor's adapter is a chunk of its own, loaded when the frame mounts.
 */
export default function PaymentStep({ mode, onLeaveExpress, ...options }: PaymentStepProps) {
  const card = useCardSession();
  const { placeOrder, alert } = usePlaceOrder({ ...options, card: mode === 'payment' ? card : null });
  const onPlaceOrder = () => void placeOrder();
  return mode === 'payment' ? (
    <PaymentSection onPlaceOrder={onPlaceOrder} alert={alert} onLeaveExpress={onLeaveExpress} card={card} />
  ) : (
    <PlaceOrderBlock onPlaceOrder={onPlaceOrder} alert={alert} />
  );
}
