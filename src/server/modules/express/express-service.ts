import type { PaymentToken } from '../../../contract/order.js';
import { checkEmail } from '../../../domain/checkout-fields.js';
import type { Message } from '../../../i18n/message-keys.js';
import { checkAddress } from '../address/address-checks.js';
import type { Database, Queryable } from '../../platform/db/database.js';
import { notFound } from '../../platform/errors.js';
import { findCardNumbers } from '../../../domain/card-numbers-in-input.js';
import type { ShopperContext } from '../organizations/request-context.js';
import type { ExpressPayer } from '../../platform/payments/gateway.js';
import {
  decideExpressPayment,
  findExpressPayment,
  findExpressPaymentByPublicId,
  type ExpressPaymentRow,
} from './express-payments-repository.js';
import { requireCartState } from '../carts/cart-service.js';
import { major } from '../../platform/http/money-input.js';

function effectiveStatus(row: ExpressPaymentRow, now: Date): PaymentToken['status'] {
  if ((row.status === 'created' || row.status === 'approved') && row.expires_at <= now) return 'expired';
  return row.status;
}

/** GET carts/{token}/payment_tokens/{id}: an express payment of this cart, with its payer once approved. */
export async function readPaymentToken(
  db: Queryable,
  shopper: ShopperContext,
  cartToken: string,
  paymentTokenId: string,
  now: Date,
): Promise<PaymentToken> {
  const { cart } = await requireCartState(db, shopper, cartToken, now);
  const row = await findExpressPayment(db, shopper.organizationId, paymentTokenId);
  if (!row || row.cart_id !== cart.id) {
    throw notFound('payment_token_not_found', { key: 'errors.paypal_payment_not_found' });
  }
  return {
    payment_token_id: row.public_id,
    provider: row.provider,
    status: effectiveStatus(row, now),
    amount: major(row.amount, row.currency),
    currency: row.currency,
    payer: row.payer,
  };
}

/** Where the payer goes back to after the provider: the checkout of the cart, carrying the payment token. */
export function expressReturnUrl(
  publicUrl: string,
  row: Pick<ExpressPaymentRow, 'cart_token' | 'public_id' | 'is_test'>,
): string {
  const query = new URLSearchParams({
    payment_token_id: row.public_id,
    ...(row.is_test ? { cypress: '1' } : {}),
  });
  return `${publicUrl}/checkout/${row.cart_token}?${query.toString()}`;
}

export function findWaitingExpressPayment(
  db: Queryable,
  publicId: string,
): Promise<ExpressPaymentRow | null> {
  return findExpressPaymentByPublicId(db, publicId);
}

export const PAYER_FIELDS = [
  'email',
  'fname',
  'lname',
  'ship_address1',
  'ship_address2',
  'ship_city',
  'ship_state',
  'ship_zipcode',
  'ship_country',
] as const;

/** What a field holding a card number is told; the approval page never writes the number back into it. */
export const CARD_NUMBER_IN_FIELD: Message = { key: 'provider.card_number_in_field' };

/**
 * The payer the test provider's approval page collected; problems keyed by its form's field names, as messages the
 * page says in its language (docs/languages.md).
 */
export function checkPayer(form: Record<string, string | undefined>): {
  payer: ExpressPayer;
  problems: Record<string, Message>;
} {
  const value = (name: string) => form[name]?.trim() ?? '';
  const payer: ExpressPayer = {
    email: value('email'),
    fname: value('fname'),
    lname: value('lname'),
    ship_fname: value('fname'),
    ship_lname: value('lname'),
    ship_address1: value('ship_address1'),
    ship_address2: value('ship_address2'),
    ship_city: value('ship_city'),
    ship_state: value('ship_state').toUpperCase(),
    ship_zipcode: value('ship_zipcode').toUpperCase(),
    ship_country: value('ship_country').toUpperCase(),
  };
  const problems: Record<string, Message> = {};
  const email = checkEmail(payer.email);
  if (email) problems.email = email;
  const address = checkAddress(
    {
      fname: payer.fname,
      lname: payer.lname,
      address1: payer.ship_address1,
      address2: payer.ship_address2,
      city: payer.ship_city,
      state: payer.ship_state,
      zipcode: payer.ship_zipcode,
      country: payer.ship_country,
    },
    'ship',
  );
  for (const [key, message] of Object.entries(address)) {
    problems[key === 'ship_fname' ? 'fname' : key === 'ship_lname' ? 'lname' : key] = message;
  }
  // The payer is stored and answered, so a card number typed here is refused as on every shopper route.
  const cardNumbers = findCardNumbers(Object.fromEntries(PAYER_FIELDS.map((name) => [name, value(name)])));
  for (const name of Object.keys(cardNumbers)) problems[name] = CARD_NUMBER_IN_FIELD;
  return { payer, problems };
}

/** The payer approves (with their details) or cancels at the test provider; false when it was no longer waiting. */
export function decideTestExpressPayment(
  db: Database,
  row: ExpressPaymentRow,
  decision: { status: 'approved'; payer: ExpressPayer } | { status: 'cancelled' },
  now: Date,
): Promise<boolean> {
  return db.transaction((tx) => decideExpressPayment(tx, row.id, decision, now));
}

export { effectiveStatus };
