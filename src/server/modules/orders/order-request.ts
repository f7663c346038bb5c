// An order request's body read as the order: its addresses, its customer, its row, and everything wrong with it.
import { termsShownFor } from '../organizations/localized-settings.js';
import type { CreateOrder, UpdateOrder } from '../../../contract/order.js';
import { checkEmail, checkPhone } from '../../../domain/checkout-fields.js';
import type { FieldMessage, FieldMessages } from '../../../domain/field-errors.js';
import { checkAddress } from '../address/address-checks.js';
import { earliestTodayAnywhere, validateGift } from '../../../domain/gift-validation.js';
import type { AddressValues, CartCustomer } from '../carts/customers-repository.js';
import type { OrderAddress, OrderRow, OrderValues } from './orders-repository.js';
import type { Language } from '../../../i18n/languages.js';
import { sayNotice, type CartPricing, type PricingAddress } from '../carts/cart-pricing.js';
import { isShippingRequired, type CartState } from '../carts/cart-state.js';
import { billedAddress, orderAmounts, storedAddresses, termsAcceptance } from './order-decisions.js';

function text(value: string | undefined): string {
  return value?.trim() ?? '';
}

/** The ship_* or bill_* fields of an order body as an address (trimmed; state and postal code upper-cased). */
function addressOf(body: CreateOrder | UpdateOrder, prefix: 'ship' | 'bill'): OrderAddress {
  const field = (name: string) =>
    text(body[`${prefix}_${name}` as keyof (CreateOrder | UpdateOrder)] as string | undefined);
  return {
    fname: field('fname'),
    lname: field('lname'),
    address1: field('address1'),
    address2: field('address2'),
    city: field('city'),
    state: field('state').toUpperCase(),
    zipcode: field('zipcode').toUpperCase(),
    country: field('country').toUpperCase(),
    phone: text(body.phone),
  };
}

/** The addresses of an order body, read once per request. */
export interface OrderAddresses {
  /** something in the cart ships with this order */
  shipping: boolean;
  sameAddress: boolean;
  ship: OrderAddress;
  bill: OrderAddress;
  /** the shipping address stands for the billing one ("same address" kept, and something ships) */
  billingIsShipping: boolean;
  /** the address billed: `ship` when it stands for both, else `bill` */
  billing: OrderAddress;
}

export function addressesOf(body: CreateOrder | UpdateOrder, state: CartState): OrderAddresses {
  const shipping = isShippingRequired(state);
  const sameAddress = body.same_address ?? true;
  const ship = addressOf(body, 'ship');
  const bill = addressOf(body, 'bill');
  return { shipping, sameAddress, ship, bill, ...billedAddress({ shipping, sameAddress, ship, bill }) };
}

/**
 * The places an order body's addresses may be priced for, known before the cart is: which of them pricing uses (tax
 * at the shipping or the billing place) depends on the cart's lines. Undefined when the body names no country.
 */
export function placesAddressOf(body: CreateOrder | UpdateOrder): PricingAddress | undefined {
  const ship = addressOf(body, 'ship');
  const bill = addressOf(body, 'bill');
  if (!ship.country && !bill.country) return undefined;
  return {
    shipCountry: ship.country || null,
    shipState: ship.state || null,
    billCountry: bill.country || null,
    billState: bill.state || null,
  };
}

function toAddressValues(address: OrderAddress): AddressValues {
  return {
    first_name: address.fname,
    last_name: address.lname,
    address1: address.address1,
    address2: address.address2,
    city: address.city,
    state: address.state,
    zipcode: address.zipcode,
    country: address.country,
    phone: address.phone,
  };
}

export function requestedProfileId(value: string | number | undefined, fields: FieldMessages): number | null {
  if (value === undefined || value === '') return null;
  const id = typeof value === 'number' ? value : /^\d{1,15}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(id) || id < 1) {
    fields.shipping_profile_id = { key: 'fields.shipping_option_offered' };
    return null;
  }
  return id;
}

/** Everything wrong with the order at once, keyed by the body's field names. */
export function checkOrder(
  body: CreateOrder | UpdateOrder,
  addresses: OrderAddresses,
  state: CartState,
  pricing: CartPricing,
  context: {
    method: string | null;
    paymentDue: boolean;
    termsDisplayed: boolean;
    requested: number | null;
    now: Date;
    /** what is wrong with the card payment (order-decisions.ts cardPaymentProblem), or null */
    cardProblem: FieldMessage | null;
    /** the request's: the field messages that name a country name it in it */
    language: Language;
  },
  fields: FieldMessages,
): void {
  const email = checkEmail(body.email);
  if (email) fields.email = email;
  const phone = checkPhone(body.phone);
  if (phone) fields.phone = phone;

  if (addresses.shipping) {
    Object.assign(fields, checkAddress({ ...addresses.ship }, 'ship'));
    if (!fields.ship_country && pricing.shippingNotice?.code === 'shipping_unavailable') {
      fields.ship_country = sayNotice(pricing.shippingNotice, context.language).message;
    } else if (
      context.requested !== null &&
      pricing.chosenProfile &&
      pricing.chosenProfile.id !== context.requested
    ) {
      fields.shipping_profile_id = { key: 'fields.shipping_option_for_address' };
    }
  }
  const billingShown = context.paymentDue && context.method !== 'paypal' && !addresses.billingIsShipping;
  if (billingShown) Object.assign(fields, checkAddress({ ...addresses.bill }, 'bill'));

  if (context.termsDisplayed && body.subscription_terms_accepted !== true) {
    fields.subscription_terms_accepted = { key: 'fields.subscription_terms_required' };
  }

  if (context.paymentDue) {
    const payment = body.payment;
    if (!payment || payment.method === 'none') fields.payment = { key: 'fields.payment_method_required' };
    else if (payment.method === 'card' && context.cardProblem !== null) {
      fields[payment.authenticated_payment ? 'payment.authenticated_payment' : 'payment.card_token'] =
        context.cardProblem;
    }
  }

  // Each gift's recipient, by the rule the page uses, keyed per line as the page names its fields (gift_name_{id}).
  for (const line of state.lines) {
    if (!line.is_gift) continue;
    const problems = validateGift(
      {
        gift_name: line.gift_name ?? '',
        gift_email: line.gift_email ?? '',
        gift_date: line.gift_date ?? '',
        gift_message: line.gift_message ?? '',
        gift_phone: line.gift_phone ?? '',
        order_offer_notes: line.order_offer_notes ?? '',
      },
      earliestTodayAnywhere(context.now),
    );
    for (const [name, message] of Object.entries(problems)) fields[`${name}_${line.id}`] = message;
  }
}

/** The order's customer and addresses as they are saved on its cart. */
export function customerOf(
  state: CartState,
  body: CreateOrder | UpdateOrder,
  addresses: OrderAddresses,
): CartCustomer {
  const { ship, bill, billing, sameAddress } = addresses;
  const values = {
    email: text(body.email),
    phone: text(body.phone),
    first_name: ship.fname || bill.fname,
    last_name: ship.lname || bill.lname,
    same_address: sameAddress,
    email_opt_in: body.email_opt_in ?? false,
  };
  const addressList: (AddressValues & { kind: 'shipping' | 'billing' })[] = [];
  if (ship.country || ship.address1) addressList.push({ kind: 'shipping', ...toAddressValues(ship) });
  if (billing.country || billing.address1) addressList.push({ kind: 'billing', ...toAddressValues(billing) });
  return { cartId: state.cart.id, customerId: state.customer?.id ?? null, values, addresses: addressList };
}

/** The cart with its customer as saved: a new customer is set on the cart; an address given replaces its kind's. */
export function withCustomer(state: CartState, customer: CartCustomer, customerId: number): CartState {
  return {
    ...state,
    cart: { ...state.cart, customer_id: customerId },
    customer: {
      ...(state.customer ?? { organization_id: state.organization.id }),
      id: customerId,
      ...customer.values,
    },
    addresses: [
      ...state.addresses.filter((kept) => !customer.addresses.some((given) => given.kind === kept.kind)),
      ...customer.addresses,
    ],
  };
}

/** The order's columns as this attempt writes them (its customer's id aside, known once the customer is saved). */
export function orderValues(
  state: CartState,
  pricing: CartPricing,
  body: CreateOrder | UpdateOrder,
  addresses: OrderAddresses,
  context: {
    status: OrderRow['status'];
    isTest: boolean;
    termsDisplayed: boolean;
    ip: string | null;
    now: Date;
  },
): Omit<OrderValues, 'customer_id'> {
  return {
    status: context.status,
    is_test: context.isTest,
    currency: state.organization.currency,
    ...orderAmounts(pricing, state.discountCode),
    email: text(body.email),
    phone: text(body.phone),
    same_address: addresses.sameAddress,
    ...storedAddresses(addresses),
    ...termsAcceptance({
      displayed: context.termsDisplayed,
      accepted: body.subscription_terms_accepted,
      ...termsShownFor(state),
      ip: context.ip,
      now: context.now,
    }),
    email_opt_in: body.email_opt_in ?? false,
    ip_address: context.ip,
  };
}
