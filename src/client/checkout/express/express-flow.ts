import type { Cart } from '../../../contract/cart.js';
import type { PaymentToken } from '../../../contract/order.js';
import { sameAddressWithExpressPayer } from '../../../domain/same-address.js';
import type { CheckoutApi } from '../../api/checkout-api.js';
import { failureOf } from '../../api/http-client.js';
import { newIdempotencyKey } from '../idempotency-key.js';
import type { MessageKey } from '../../../i18n/message-keys.js';
import type { Translate } from '../../i18n/use-t.js';

// The express-payment flow: loaded only when the shopper presses the button or comes back from the provider.

export type ExpressStart = { ok: true; url: string } | { ok: false; message: string };

/**
 * Starts an express payment: the order is created (or the existing one updated) with payment by PayPal and no
 * contact or address, since the payer supplies them; the answer names the approval page to go to.
 */
export async function startExpressPayment(
  api: CheckoutApi,
  token: string,
  cart: Cart,
  t: Translate,
): Promise<ExpressStart> {
  const orderId = cart.order.order_id;
  const body = {
    cart_token: token,
    payment: { method: 'paypal' as const },
    from_checkout: true,
    ...(orderId === null
      ? {
          offers: cart.offers.map((offer) => ({
            order_offer_id: offer.order_offer_id,
            order_offer_quantity: offer.order_offer_quantity,
          })),
        }
      : {}),
  };
  try {
    const answer = await api.placeOrder(orderId, body, newIdempotencyKey());
    if (answer.action?.type === 'redirect') return { ok: true, url: answer.action.url };
    return { ok: false, message: t('payment.paypal_unavailable') };
  } catch (error) {
    return { ok: false, message: failureOf(error, t).message };
  }
}

const NOT_USABLE: Record<Exclude<PaymentToken['status'], 'approved'>, MessageKey> = {
  created: 'payment.paypal_not_approved',
  cancelled: 'payment.paypal_cancelled',
  expired: 'payment.paypal_expired',
  used: 'payment.paypal_used',
};

export type ExpressReturn =
  | {
      ok: true;
      paymentTokenId: string;
      payerEmail: string | null;
      approvedAmount: number;
      values: Record<string, string>;
      sameAddress: false;
    }
  | { ok: false; message: string };

/** Back from the provider with ?payment_token_id=: the approval and the payer's details for the form. */
export async function readExpressReturn(
  api: CheckoutApi,
  token: string,
  paymentTokenId: string,
  t: Translate,
): Promise<ExpressReturn> {
  let answer: PaymentToken;
  try {
    answer = await api.getPaymentToken(token, paymentTokenId);
  } catch (error) {
    return { ok: false, message: failureOf(error, t).message };
  }
  if (answer.status !== 'approved') return { ok: false, message: t(NOT_USABLE[answer.status]) };
  const values: Record<string, string> = {};
  const payer = answer.payer;
  if (payer) {
    if (payer.email) values.email = payer.email;
    for (const [name, value] of Object.entries(payer)) {
      if (name.startsWith('ship_') && value) values[name] = value;
    }
    if (!values.ship_fname && payer.fname) values.ship_fname = payer.fname;
    if (!values.ship_lname && payer.lname) values.ship_lname = payer.lname;
  }
  return {
    ok: true,
    paymentTokenId: answer.payment_token_id,
    payerEmail: payer?.email || null,
    approvedAmount: answer.amount,
    values,
    // Enabling data the payer can edit at the provider sets the same-address box to false.
    sameAddress: sameAddressWithExpressPayer(),
  };
}
