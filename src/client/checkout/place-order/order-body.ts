import { ADDRESS_FIELDS } from '../../../contract/address-fields.js';
import type { Cart } from '../../../contract/cart.js';
import type { CardPayment, CreateOrder, PaymentInput } from '../../../contract/order.js';
import type { PaymentChoice } from '../../../domain/order-attempt.js';
import type { ProcessOrderState } from '../../../domain/process-order-state.js';
import { effectiveSameAddress } from '../../../domain/same-address.js';
import type { CheckoutForm } from '../form/checkout-form.js';

export type OrderBody = Omit<CreateOrder, '_is_vrio_checkout' | 'ip_address'>;

export interface OrderBodyInput {
  cart: Cart;
  token: string;
  form: CheckoutForm;
  orderState: ProcessOrderState;
  payment: PaymentChoice;
  expressPaymentTokenId: string | null;
  /**
   * what pays by card: the single-use token the processor's frame made, or the payment the shopper authenticated
   * (docs/payments.md); null when the order is not paid by card
   */
  card: Omit<CardPayment, 'method'> | null;
  /** the billing section is shown, so its fields are the billing address */
  billingShown: boolean;
  /** PUT orders/{order_id} leaves out offers and gift cards */
  isUpdate: boolean;
}

function paymentOf(input: OrderBodyInput): PaymentInput {
  if (input.payment === 'none') return { method: 'none' };
  if (input.payment === 'paypal') {
    return input.expressPaymentTokenId
      ? { method: 'paypal', payment_token_id: input.expressPaymentTokenId }
      : { method: 'paypal' };
  }
  return { method: 'card', ...input.card };
}

/** The body of POST orders / PUT orders/{order_id}: what the shopper entered; the server computes every amount. */
export function buildOrderBody(input: OrderBodyInput): OrderBody {
  const { cart, form } = input;
  const text = (name: string) => (form.text[name] ?? '').trim();
  const shipping = cart.order.shipping_information_required;
  const body: OrderBody = {
    cart_token: input.token,
    email: text('email'),
    same_address: effectiveSameAddress(form.sameAddress, shipping),
    payment: paymentOf(input),
    subscription_terms_accepted: input.orderState.subscriptionTerms.value,
    email_opt_in: input.orderState.emailOptIn.value,
    from_checkout: true,
  };
  if (text('phone')) body.phone = text('phone');
  for (const field of ADDRESS_FIELDS) {
    if (shipping) body[`ship_${field}`] = text(`ship_${field}`);
    if (input.billingShown) body[`bill_${field}`] = text(`bill_${field}`);
  }
  if (shipping && text('shipping_profile_id')) body.shipping_profile_id = text('shipping_profile_id');
  if (!input.isUpdate) {
    body.offers = cart.offers.map((offer) => ({
      order_offer_id: offer.order_offer_id,
      order_offer_quantity: offer.order_offer_quantity,
    }));
  }
  return body;
}
