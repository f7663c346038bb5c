import type { CreateOrder, OrderResponse, UpdateOrder } from '../../contract/order.js';
import {
  CARD_NUMBER_IN_TEXT_MESSAGE,
  containsCardNumber,
  digitsOnly,
  getCardType,
} from '../../domain/card.js';
import {
  checkAddress,
  checkCard,
  checkEmail,
  checkPhone,
  expiryYear,
  type FieldProblems,
} from '../../domain/checkout-fields.js';
import { isDiscountCodeUsedUp } from '../../domain/discount-rules.js';
import { canChangeCartItems } from '../../domain/editable-cart.js';
import { earliestTodayAnywhere, validateGift } from '../../domain/gift-validation.js';
import { shouldDisplaySubscriptionTerms } from '../../domain/subscription-terms.js';
import { isRetryable, type Database, type Queryable } from '../db/database.js';
import { AppError, notFound, validationError } from '../errors.js';
import type { AnswerKeeper } from './idempotency.js';
import type { ShopperContext } from '../http/request-context.js';
import type {
  CardDetails,
  CardSummary,
  ChargeResult,
  ExpressCompleteResult,
  PaymentGateway,
} from '../payments/gateway.js';
import { setLineQuantity } from '../repositories/carts-repository.js';
import {
  saveCartCustomer,
  type AddressValues,
  type CartCustomer,
} from '../repositories/customers-repository.js';
import {
  expireExpressPayment,
  findExpressPayment,
  insertExpressPayment,
  markExpressPaymentUsed,
  setExpressProviderReference,
  type ExpressPaymentRow,
} from '../repositories/express-payments-repository.js';
import {
  countPaymentAttempts,
  insertOrder,
  insertPaymentAttempt,
  insertPaymentMethod,
  issueGiftClaimCodes,
  lockGift,
  lockOrder,
  markGiftClaimed,
  releaseDiscountUse,
  releasePaymentLease,
  clearDiscountReservation,
  completeOrderWithAttempt,
  replaceOrderLines,
  reserveDiscountUse,
  setOrderOutcome,
  updateOrder,
  type OrderAddress,
  type OrderLineRow,
  type OrderRow,
  type OrderValues,
  type PaymentAttemptValues,
} from '../repositories/orders-repository.js';
import type { OrganizationRow } from '../repositories/organizations-repository.js';
import type { OrderLineFigures } from './order-figures.js';
import type { ShippingProfileRow } from '../repositories/shipping-profiles-repository.js';
import {
  insertSubscription,
  type OrderSubscriptionNotice,
} from '../repositories/subscriptions-repository.js';
import { priceCartState, type CartPricing, type PricingAddress } from './cart-pricing.js';
import {
  presentCompletedCart,
  reloadCartState,
  requireCartState,
  viewCart,
  viewCartState,
} from './cart-service.js';
import { isGiftClaimCart, isShippingRequired, type CartState } from './cart-state.js';
import { expressReturnUrl } from './express-service.js';
import { settingsOf } from './organization-service.js';
import { newCartToken, newGiftClaimCode } from './secrets.js';

/** The abuse limits orders respect (src/server/security/abuse-limits.ts). */
export interface OrderLimits {
  beforeOrderAttempt(input: { organizationId: number; cartId: number; ip: string | null }): Promise<void>;
  /** beforeOrderAttempt inside the order's transaction, when the limits are kept in the same database */
  beforeOrderAttemptInTransaction?(
    tx: Queryable,
    input: { organizationId: number; cartId: number; ip: string | null },
  ): Promise<void>;
  recordFailedPayment(input: { organizationId: number; cartId: number; ip: string | null }): Promise<void>;
}

export interface OrderDependencies {
  db: Database;
  gateways: { card: PaymentGateway; express: PaymentGateway };
  limits: OrderLimits;
  publicUrl: string;
  /** how long one payment attempt holds its order (config PAYMENT_LEASE_SECONDS) */
  paymentLeaseMs: number;
}

export interface OrderRequest {
  kind: 'create' | 'update';
  /** PUT orders/{order_id} */
  orderId: number | null;
  body: CreateOrder | UpdateOrder;
  shopper: ShopperContext;
  now: Date;
  /** stores the answer under the request's Idempotency-Key in the transaction that makes it true */
  answers: AnswerKeeper;
}

/** How long the payer has to approve an express payment. */
const EXPRESS_LIFETIME_MS = 3 * 60 * 60 * 1000;

type Plan =
  /** completed in the transaction that saved it (nothing to pay): its answer, from what that transaction holds */
  | { kind: 'completed'; organization: OrganizationRow; cartId: number; answer: OrderResponse }
  /** the abuse limits refused the payment: the order is saved without it and the 429 is answered */
  | { kind: 'refused'; organization: OrganizationRow; error: AppError }
  | {
      kind: 'express_start';
      organization: OrganizationRow;
      cartId: number;
      express: { id: number; publicId: string };
      amount: number;
      returnUrl: string;
      storeForFuture: boolean;
      /** the cart as the order left it (its customer and order as saved) */
      after: CartState;
    }
  | {
      kind: 'charge';
      organization: OrganizationRow;
      cartId: number;
      /** the gift this cart claims (carts.gift_claim_id, set when the cart is made) */
      giftClaimId: number | null;
      orderId: number;
      customerId: number;
      attempt: number;
      amount: number;
      storeForFuture: boolean;
      isTest: boolean;
      discountCodeId: number | null;
      /** until when this attempt holds the order: the order still holding it when paid was not rewritten since */
      paymentLeaseUntil: Date;
      /** nothing completes with the order (no gift, subscription, stored payment method or express payment) */
      completesAlone: boolean;
      /** the cart with its customer as saved, the order and its lines as written, and the shipping profile the order
       * chose: what its answer is made of */
      saved: CartState;
      order: OrderRow;
      lines: readonly OrderLineFigures[];
      chosenProfile: ShippingProfileRow | null;
      payment:
        | { method: 'card'; card: CardDetails; summary: CardSummary; testCard: boolean }
        | { method: 'paypal'; express: ExpressPaymentRow };
    };

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
interface OrderAddresses {
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

function addressesOf(body: CreateOrder | UpdateOrder, state: CartState): OrderAddresses {
  const shipping = isShippingRequired(state);
  const sameAddress = body.same_address ?? true;
  const ship = addressOf(body, 'ship');
  const bill = addressOf(body, 'bill');
  const billingIsShipping = sameAddress && shipping;
  return { shipping, sameAddress, ship, bill, billingIsShipping, billing: billingIsShipping ? ship : bill };
}

/**
 * The places an order body's addresses may be priced for, known before the cart is: which of them pricing uses (tax
 * at the shipping or the billing place) depends on the cart's lines. Undefined when the body names no country.
 */
function placesAddressOf(body: CreateOrder | UpdateOrder): PricingAddress | undefined {
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

function requestedProfileId(value: string | number | undefined, fields: FieldProblems): number | null {
  if (value === undefined || value === '') return null;
  const id = typeof value === 'number' ? value : /^\d{1,15}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(id) || id < 1) {
    fields.shipping_profile_id = 'Choose one of the shipping options offered.';
    return null;
  }
  return id;
}

/**
 * The express payment an order is completed with, checked for this cart. Its amount may differ from the final total:
 * the payer approved before the page knew their address; the page shows the final total and this request confirms it.
 */
async function checkExpressPayment(
  tx: Queryable,
  state: CartState,
  paymentTokenId: string,
  now: Date,
): Promise<ExpressPaymentRow> {
  const express = await findExpressPayment(tx, state.organization.id, paymentTokenId);
  if (!express || express.cart_id !== state.cart.id) {
    throw notFound('payment_token_not_found', "We couldn't find that PayPal payment. Start PayPal again.");
  }
  if (express.status === 'used') {
    throw new AppError(409, 'express_payment_used', 'This PayPal payment was already used for an order.');
  }
  if (express.status === 'cancelled') {
    throw new AppError(
      422,
      'express_payment_cancelled',
      'You canceled the PayPal payment. Choose how you want to pay.',
    );
  }
  if (express.status === 'expired' || express.expires_at <= now) {
    throw new AppError(
      422,
      'express_payment_expired',
      'The PayPal approval has expired. Start PayPal again.',
    );
  }
  if (express.status !== 'approved') {
    throw new AppError(422, 'express_payment_not_approved', 'The PayPal payment has not been approved yet.');
  }
  return express;
}

/** The order's free-text fields: none may hold a card number (it would be stored as text). */
const TEXT_FIELDS = [
  'email',
  'phone',
  'ship_fname',
  'ship_lname',
  'ship_address1',
  'ship_address2',
  'ship_city',
  'ship_state',
  'ship_zipcode',
  'bill_fname',
  'bill_lname',
  'bill_address1',
  'bill_address2',
  'bill_city',
  'bill_state',
  'bill_zipcode',
] as const;

function checkNoCardNumbers(body: CreateOrder | UpdateOrder, fields: FieldProblems): void {
  for (const name of TEXT_FIELDS) {
    const value = body[name];
    if (value !== undefined && containsCardNumber(value)) fields[name] = CARD_NUMBER_IN_TEXT_MESSAGE;
  }
}

/** Everything wrong with the order at once, keyed by the body's field names. */
function checkOrder(
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
  },
  fields: FieldProblems,
): void {
  const email = checkEmail(body.email);
  if (email) fields.email = email;
  const phone = checkPhone(body.phone);
  if (phone) fields.phone = phone;

  if (addresses.shipping) {
    Object.assign(fields, checkAddress({ ...addresses.ship }, 'ship'));
    if (!fields.ship_country && pricing.shippingNotice?.code === 'shipping_unavailable') {
      fields.ship_country = pricing.shippingNotice.message;
    } else if (
      context.requested !== null &&
      pricing.chosenProfile &&
      pricing.chosenProfile.id !== context.requested
    ) {
      fields.shipping_profile_id = 'Choose one of the shipping options for this address.';
    }
  }
  const billingShown = context.paymentDue && context.method !== 'paypal' && !addresses.billingIsShipping;
  if (billingShown) Object.assign(fields, checkAddress({ ...addresses.bill }, 'bill'));

  if (context.termsDisplayed && body.subscription_terms_accepted !== true) {
    fields.subscription_terms_accepted = 'Accept the subscription terms to continue.';
  }

  if (context.paymentDue) {
    const payment = body.payment;
    if (!payment || payment.method === 'none') fields.payment = 'Choose how you want to pay.';
    else if (payment.method === 'card') {
      Object.assign(
        fields,
        checkCard(
          {
            number: payment.card_number,
            cvv: payment.card_cvv,
            expMonth: payment.card_exp_month,
            expYear: payment.card_exp_year,
          },
          { now: context.now, testCards: settingsOf(state.organization).clientOptions.testCards },
        ),
      );
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

/** Applies the quantities a POST sends when they differ from the cart's (only where the cart may change). */
async function applyQuantities(
  tx: Queryable,
  state: CartState,
  body: CreateOrder,
  now: Date,
): Promise<boolean> {
  if (!body.offers) return false;
  const fields: FieldProblems = {};
  let changed = false;
  const editable = canChangeCartItems({
    editable: settingsOf(state.organization).clientOptions.cart.editable,
    isGiftClaim: isGiftClaimCart(state),
    orderStatus: state.order?.status ?? null,
  });
  for (const [index, wanted] of body.offers.entries()) {
    const line = state.lines.find((entry) => entry.id === wanted.order_offer_id);
    if (!line) {
      fields[`offers.${index}.order_offer_id`] = 'That item is not in this cart.';
      continue;
    }
    if (line.quantity === wanted.order_offer_quantity) continue;
    if (!editable) {
      fields[`offers.${index}.order_offer_quantity`] = "This item's quantity can't be changed.";
      continue;
    }
    await setLineQuantity(
      tx,
      state.organization.id,
      state.cart.id,
      line.id,
      wanted.order_offer_quantity,
      now,
    );
    changed = true;
  }
  if (Object.keys(fields).length > 0) throw validationError(fields);
  return changed;
}

/** The order's customer and addresses as they are saved on its cart. */
function customerOf(
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
function withCustomer(state: CartState, customer: CartCustomer, customerId: number): CartState {
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

function orderValues(
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
  const result = pricing.result;
  const { shipping, sameAddress, ship, bill } = addresses;
  const accepted = context.termsDisplayed && body.subscription_terms_accepted === true;
  return {
    status: context.status,
    is_test: context.isTest,
    currency: state.organization.currency,
    subtotal: result.subtotal,
    total_discount: result.totalDiscount,
    total_offer_shipping: result.totalOfferShipping,
    total_campaign_shipping: result.totalCampaignShipping,
    total_tax: result.totalTax,
    total_gift_cards: result.totalGiftCards,
    total: result.total,
    discount_code_id: pricing.discountApplied ? (state.discountCode?.id ?? null) : null,
    discount_code: pricing.discountApplied ? (state.discountCode?.code ?? null) : null,
    shipping_profile_id: pricing.chosenProfile?.id ?? null,
    email: text(body.email),
    phone: text(body.phone),
    same_address: sameAddress,
    shipping_address: shipping || ship.country ? ship : null,
    billing_address: addresses.billingIsShipping ? ship : bill.country ? bill : null,
    subscription_terms_accepted: accepted,
    subscription_terms_accepted_at: accepted ? context.now : null,
    subscription_terms_ip: accepted ? context.ip : null,
    subscription_terms_version: accepted ? settingsOf(state.organization).subscriptionTerms.version : null,
    email_opt_in: body.email_opt_in ?? false,
    ip_address: context.ip,
  };
}

/**
 * Completes an order inside the caller's transaction: its approved payment attempt and status (one statement), gift
 * claim codes, the claimed gift, subscriptions for its recurring lines (not gifts: a recipient's own claim starts
 * theirs), the stored payment method.
 */
async function completeOrder(
  tx: Queryable,
  organization: OrganizationRow,
  order: Pick<OrderRow, 'id' | 'customer_id' | 'currency' | 'is_test'>,
  context: {
    attempt: PaymentAttemptValues;
    paymentMethodId: number | null;
    giftClaimId: number | null;
    /** when the order's held code use changes as it completes (an order paid in full by its code) */
    discountReserved?: boolean;
    now: Date;
  },
): Promise<{ lines: OrderLineRow[]; subscriptions: OrderSubscriptionNotice[] }> {
  const { now, giftClaimId: giftId } = context;
  const completed = await completeOrderWithAttempt(
    tx,
    organization.id,
    {
      orderId: order.id,
      attempt: context.attempt,
      paymentMethodId: context.paymentMethodId,
      discountReserved: context.discountReserved,
    },
    now,
  );
  // The caller holds the order row and found it not complete.
  if (!completed) throw new Error(`order ${order.id} was complete already`);
  const { lines } = completed;
  await issueGiftClaimCodes(
    tx,
    organization.id,
    lines
      .filter((line) => line.is_gift)
      .map((line) => ({ cartOfferId: line.cart_offer_id, code: newGiftClaimCode() })),
    now,
  );
  if (giftId !== null && !(await markGiftClaimed(tx, organization.id, giftId, order.id, now))) {
    throw new AppError(409, 'gift_already_claimed', 'This gift has already been claimed.');
  }
  const customerId = order.customer_id;
  // What the answer says of each subscription started, in the order they are started.
  const subscriptions: OrderSubscriptionNotice[] = [];
  for (const line of lines) {
    if (!line.is_recurring || line.is_gift || line.billing_interval_days === null) continue;
    if (customerId === null) throw new Error(`order ${order.id} has no customer to bill later cycles to`);
    const subscription = {
      cycle_amount: line.next_cycle_total ?? 0,
      interval_days: line.billing_interval_days,
      next_charge_at: new Date(now.getTime() + line.billing_interval_days * 86_400_000),
    };
    await insertSubscription(
      tx,
      organization.id,
      {
        order_id: order.id,
        order_line_id: line.id,
        customer_id: customerId,
        offer_id: line.offer_id,
        payment_method_id: context.paymentMethodId,
        quantity: line.quantity,
        currency: order.currency,
        ...subscription,
        is_test: order.is_test,
      },
      now,
    );
    subscriptions.push({ order_offer_id: line.cart_offer_id, item_name: line.item_name, ...subscription });
  }
  return { lines, subscriptions };
}

/** The cart once its order completed: ordered, the order complete (its lease ended), paid last by `method`. */
function completedCart(
  state: CartState,
  order: OrderRow,
  method: NonNullable<CartState['lastPaymentMethod']>,
  now: Date,
): CartState {
  return {
    ...state,
    cart: { ...state.cart, ordered_at: now, updated_at: now },
    order: { ...order, status: 'complete', completed_at: now, payment_lease_until: null, updated_at: now },
    lastPaymentMethod: method,
  };
}

function orderAlreadyPlaced(): AppError {
  return new AppError(
    409,
    'order_complete',
    'This order has already been placed and paid. Nothing was charged again.',
  );
}

/** Validates, prices and saves the order under the cart's lock, and says what happens next. */
async function prepare(deps: OrderDependencies, request: OrderRequest): Promise<Plan> {
  const { shopper, now, body } = request;
  return deps.db.transaction(async (tx): Promise<Plan> => {
    // The shipping profiles and tax rates of the body's address come with the cart.
    let state = await requireCartState(tx, shopper, body.cart_token, now, {
      lock: true,
      places: placesAddressOf(body),
    });
    const { organization, cart } = state;
    const existing = state.order;
    if (request.kind === 'update' && (!existing || existing.id !== request.orderId)) {
      throw notFound('order_not_found', 'There is no such order for this cart.');
    }
    if (existing?.status === 'complete') throw orderAlreadyPlaced();
    if (existing?.payment_lease_until && existing.payment_lease_until > now) {
      throw new AppError(
        409,
        'payment_in_progress',
        'Your payment is being processed. Wait a moment before trying again.',
        {
          headers: { 'retry-after': '2' },
        },
      );
    }
    if (request.kind === 'create' && (await applyQuantities(tx, state, body as CreateOrder, now))) {
      state = await reloadCartState(tx, state);
    }
    if (isGiftClaimCart(state) && cart.gift_claim_id !== null) {
      const gift = await lockGift(tx, organization.id, cart.gift_claim_id);
      if (!gift || gift.claimed_at !== null)
        throw notFound('gift_already_claimed', 'This gift has already been claimed.');
    }

    const fields: FieldProblems = {};
    const settings = settingsOf(organization);
    const payment = body.payment;
    const method = payment?.method ?? null;
    const expressStart = payment?.method === 'paypal' && !payment.payment_token_id;
    const addresses = addressesOf(body, state);
    const { ship, billing } = addresses;
    const address: PricingAddress = {
      shipCountry: ship.country || null,
      shipState: ship.state || null,
      billCountry: billing.country || null,
      billState: billing.state || null,
    };
    const requested = requestedProfileId(body.shipping_profile_id, fields);
    const pricing = await priceCartState(tx, state, {
      address,
      requestedProfileId: requested ?? cart.shipping_profile_id,
      now,
    });
    const total = pricing.result.total;
    const paymentDue = total > 0 || pricing.result.isRecurring;
    const termsDisplayed = shouldDisplaySubscriptionTerms({
      optionDisplay: settings.clientOptions.subscriptionTermsCheckbox.display,
      isRecurring: pricing.result.isRecurring,
      offers: state.lines,
    });
    // A code that stopped applying since the shopper saw the cart would raise the price they last saw: say so first.
    if (pricing.discountNotice) {
      throw new AppError(
        422,
        pricing.discountNotice.code,
        `${pricing.discountNotice.message} Remove it to place your order.`,
      );
    }
    // Express start: the payer gives their details at the provider, so only the cart itself must be valid.
    if (!expressStart)
      checkOrder(
        body,
        addresses,
        state,
        pricing,
        { method, paymentDue, termsDisplayed, requested, now },
        fields,
      );
    // Last, so this message wins for a field that also failed its format.
    checkNoCardNumbers(body, fields);
    if (Object.keys(fields).length > 0) throw validationError(fields);

    const express =
      payment?.method === 'paypal' && payment.payment_token_id
        ? await checkExpressPayment(tx, state, payment.payment_token_id, now)
        : null;
    const cardNumber = payment?.method === 'card' && paymentDue ? digitsOnly(payment.card_number) : null;
    const testCard = cardNumber !== null && settings.clientOptions.testCards.includes(cardNumber);
    const isTest = shopper.testMode || cart.is_test || testCard;
    // The payment method is kept for later cycles when a line recurs for this customer (a gift's recipient pays theirs).
    const storeForFuture = state.lines.some((line) => line.is_recurring && !line.is_gift);

    const customer = customerOf(state, body, addresses);
    const status: OrderRow['status'] = expressStart ? 'awaiting_payment' : (existing?.status ?? 'pending');
    const values = orderValues(state, pricing, body, addresses, {
      status,
      isTest,
      termsDisplayed,
      ip: shopper.clientIp,
      now,
    });
    const lines = state.lines.map((line) => {
      const priced = pricing.result.lines.find((entry) => entry.id === line.id);
      return {
        cart_offer_id: line.id,
        offer_id: line.offer_id,
        item_name: line.item_name,
        quantity: line.quantity,
        unit_price: line.price_override ?? line.price,
        subtotal: priced?.subtotal ?? 0,
        discount: priced?.discount ?? 0,
        shipping: priced?.shipping ?? 0,
        tax: priced?.tax ?? 0,
        total: priced?.total ?? 0,
        is_gift: line.is_gift,
        is_recurring: line.is_recurring,
        billing_interval_days: line.billing_interval_days,
        next_cycle_total: priced?.nextCycleTotal ?? null,
      };
    });
    const wantedCode = values.discount_code_id;
    const holdCodeUse = async () => {
      if (wantedCode === null) return;
      const hold = await reserveDiscountUse(tx, organization.id, wantedCode);
      if (hold.held) return;
      const name = values.discount_code ?? '';
      if (isDiscountCodeUsedUp(hold)) {
        throw new AppError(
          422,
          'discount_code_used_up',
          `The code ${name} has just been used up. Remove it to place your order at the full price.`,
        );
      }
      // Payments in flight hold its last uses, and a declined one gives its use back: not used up, not yet (docs/api.md).
      throw new AppError(
        409,
        'discount_code_held',
        `Payments being made right now hold the last uses of the code ${name}. Try again in a moment: a use comes free again if one of them does not go through.`,
        { headers: { 'retry-after': '2' } },
      );
    };
    const chargesNow = paymentDue && !expressStart;
    const paymentLeaseUntil = new Date(now.getTime() + deps.paymentLeaseMs);
    let orderId: number;
    let customerId: number;
    if (existing) {
      // The customer (updated) and its addresses: one statement.
      customerId = await saveCartCustomer(tx, organization.id, customer, now);
      orderId = existing.id;
      await updateOrder(tx, organization.id, orderId, { ...values, customer_id: customerId }, now);
      await replaceOrderLines(tx, organization.id, orderId, lines);
    } else {
      // A new order: one use of its code is held first (as below for an earlier order), so that the customer, the
      // order, its lines and, when it is paid now, its payment lease are written by one statement.
      if (!expressStart) await holdCodeUse();
      ({ id: orderId, customerId } = await insertOrder(
        tx,
        organization.id,
        customer,
        values,
        lines,
        chargesNow ? { discountReserved: wantedCode !== null, paymentLeaseUntil } : {},
        now,
      ));
    }
    const saved = withCustomer(state, customer, customerId);
    // The order as this transaction wrote it: the answer is made from it rather than read back.
    const written: OrderRow = existing
      ? { ...existing, ...values, customer_id: customerId, updated_at: now }
      : {
          ...values,
          customer_id: customerId,
          id: orderId,
          organization_id: organization.id,
          cart_id: cart.id,
          created_at: now,
          updated_at: now,
          completed_at: null,
          payment_lease_until: chargesNow ? paymentLeaseUntil : null,
          discount_reserved: chargesNow && wantedCode !== null,
          express_payment_id: null,
          payment_method_id: null,
          cart_token: cart.token,
        };

    if (expressStart) {
      const publicId = `pt_${newCartToken()}`;
      const expressId = await insertExpressPayment(
        tx,
        organization.id,
        {
          publicId,
          cartId: cart.id,
          orderId,
          provider: deps.gateways.express.name,
          amount: total,
          currency: organization.currency,
          isTest,
          expiresAt: new Date(now.getTime() + EXPRESS_LIFETIME_MS),
        },
        now,
      );
      await setOrderOutcome(
        tx,
        organization.id,
        orderId,
        { status: 'awaiting_payment', expressPaymentId: expressId },
        now,
      );
      return {
        kind: 'express_start',
        organization,
        cartId: cart.id,
        express: { id: expressId, publicId },
        amount: total,
        returnUrl: expressReturnUrl(deps.publicUrl, {
          cart_token: cart.token,
          public_id: publicId,
          is_test: isTest,
        }),
        storeForFuture,
        after: {
          ...saved,
          order: {
            ...written,
            status: 'awaiting_payment',
            express_payment_id: expressId,
            payment_lease_until: null,
          },
        },
      };
    }

    // One use of the code is held before any money moves; a code used up meanwhile stops the order here.
    // An order inserted just now is as this transaction wrote it (its code use held above); an earlier one is read
    // again, under its row lock.
    let reserved: boolean;
    let order: OrderRow;
    if (existing) {
      const locked = (await lockOrder(tx, organization.id, orderId)) as OrderRow;
      // An earlier attempt whose lease ran out may have completed the order since the cart was read: this
      // transaction (and the lines it rewrote) is undone rather than the order being charged a second time.
      if (locked.status === 'complete') throw orderAlreadyPlaced();
      // A use is still held only if an earlier attempt died mid-payment; it belongs to the code that attempt used.
      const heldCode = locked.discount_reserved ? existing.discount_code_id : null;
      reserved = heldCode !== null && heldCode === wantedCode;
      if (heldCode !== null && heldCode !== wantedCode)
        await releaseDiscountUse(tx, organization.id, heldCode);
      if (wantedCode !== null && !reserved) {
        await holdCodeUse();
        reserved = true;
      }
      order = locked;
    } else {
      reserved = wantedCode !== null;
      order = written;
    }

    if (!paymentDue) {
      const completed = await completeOrder(tx, organization, order, {
        attempt: attemptValues({
          orderId,
          cartId: cart.id,
          method: 'none',
          gateway: 'none',
          status: 'approved',
          amount: 0,
          currency: organization.currency,
          isTest,
          ip: shopper.clientIp,
        }),
        paymentMethodId: null,
        giftClaimId: cart.gift_claim_id,
        discountReserved: reserved,
        now,
      });
      const answer = presentCompletedCart(completedCart(saved, order, 'none', now), order, {
        ...completed,
        profile: pricing.chosenProfile,
      });
      await request.answers.keep(tx, { status: 200, body: answer });
      return { kind: 'completed', organization, cartId: cart.id, answer };
    }

    // The abuse limits, here when their store is this database: the attempt counts only if this transaction commits,
    // and a refused attempt is saved as charge() leaves one refused by a store elsewhere (no lease, no code use held).
    if (deps.limits.beforeOrderAttemptInTransaction) {
      try {
        await deps.limits.beforeOrderAttemptInTransaction(tx, {
          organizationId: organization.id,
          cartId: cart.id,
          ip: shopper.clientIp,
        });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        if (reserved && wantedCode !== null) await releaseDiscountUse(tx, organization.id, wantedCode);
        await setOrderOutcome(tx, organization.id, orderId, { status, discountReserved: false }, now);
        return { kind: 'refused', organization, error };
      }
    }

    // The payment lease: no lease was running (checked above) and this transaction now holds the order row (a new
    // order was written with it).
    if (existing) {
      await setOrderOutcome(
        tx,
        organization.id,
        orderId,
        { status, discountReserved: reserved, paymentLeaseUntil },
        now,
      );
    }
    // A new order has no attempts yet.
    const attempt = existing ? (await countPaymentAttempts(tx, organization.id, orderId)) + 1 : 1;
    const base = {
      kind: 'charge' as const,
      organization,
      cartId: cart.id,
      giftClaimId: cart.gift_claim_id,
      orderId,
      customerId,
      attempt,
      amount: total,
      storeForFuture,
      isTest,
      discountCodeId: reserved ? wantedCode : null,
      paymentLeaseUntil,
      completesAlone:
        // (a recurring line is also what makes the payment method stored)
        express === null &&
        cart.gift_claim_id === null &&
        !lines.some((line) => line.is_gift || line.is_recurring),
      saved,
      order: { ...order, cart_token: cart.token },
      lines,
      chosenProfile: pricing.chosenProfile,
    };
    if (express) return { ...base, payment: { method: 'paypal', express } };
    if (payment?.method !== 'card')
      throw new Error('unreachable: a due payment is a card or an express payment here');
    const type = getCardType(payment.card_number, settings.clientOptions.testCards);
    const expMonth = Number(payment.card_exp_month);
    const expYear = expiryYear(payment.card_exp_year) ?? 0;
    return {
      ...base,
      payment: {
        method: 'card',
        card: { number: digitsOnly(payment.card_number), cvv: payment.card_cvv.trim(), expMonth, expYear },
        summary: {
          brand: type?.brand ?? 'visa',
          typeId: type?.typeId ?? 2,
          last4: digitsOnly(payment.card_number).slice(-4),
          expMonth,
          expYear,
        },
        testCard,
      },
    };
  });
}

function attemptValues(input: {
  orderId: number;
  cartId: number;
  method: PaymentAttemptValues['method'];
  gateway: string;
  status: PaymentAttemptValues['status'];
  amount: number;
  currency: string;
  isTest: boolean;
  ip: string | null;
  declineCode?: string | null;
  message?: string | null;
  reference?: string | null;
  summary?: CardSummary | null;
  paymentMethodId?: number | null;
}): PaymentAttemptValues {
  return {
    order_id: input.orderId,
    cart_id: input.cartId,
    method: input.method,
    gateway: input.gateway,
    status: input.status,
    amount: input.amount,
    currency: input.currency,
    decline_code: input.declineCode ?? null,
    message: input.message ?? null,
    card_brand: input.summary?.brand ?? null,
    card_type_id: input.summary?.typeId ?? null,
    card_last4: input.summary?.last4 ?? null,
    card_exp_month: input.summary?.expMonth ?? null,
    card_exp_year: input.summary?.expYear ?? null,
    gateway_reference: input.reference ?? null,
    payment_method_id: input.paymentMethodId ?? null,
    is_test: input.isTest,
    ip_address: input.ip,
  };
}

/** Gives up a payment that never reached the gateway: the lease and the held code use go back. */
async function abandonCharge(
  deps: OrderDependencies,
  plan: Extract<Plan, { kind: 'charge' }>,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await releasePaymentLease(tx, plan.organization.id, plan.orderId);
    if (plan.discountCodeId !== null) {
      await releaseDiscountUse(tx, plan.organization.id, plan.discountCodeId);
      await clearDiscountReservation(tx, plan.organization.id, plan.orderId);
    }
  });
}

/** What an approved payment completed, as this attempt wrote it. */
interface PaidOrder {
  order: OrderRow;
  lines: readonly OrderLineFigures[];
  subscriptions: OrderSubscriptionNotice[];
}

/** The answer to a paid order the attempt wrote, made from what it holds (its shape as viewCart reads it back). */
function paidAnswer(plan: Extract<Plan, { kind: 'charge' }>, paid: PaidOrder, now: Date): OrderResponse {
  return presentCompletedCart(completedCart(plan.saved, paid.order, plan.payment.method, now), paid.order, {
    lines: paid.lines,
    profile: plan.chosenProfile,
    subscriptions: paid.subscriptions,
  });
}

/** A gateway's outcome as a payment attempt records it. */
function outcomeDetails(
  result: ChargeResult | ExpressCompleteResult,
): Partial<Parameters<typeof attemptValues>[0]> {
  if (result.status === 'approved') return { reference: result.reference };
  if (result.status === 'declined')
    return { declineCode: result.code, message: result.message, reference: result.reference };
  return { message: result.message };
}

/**
 * Charges (outside any transaction: no lock is held during the network call) and records the outcome with its answer;
 * answers the completed order's cart, or throws the decline.
 */
async function charge(
  deps: OrderDependencies,
  plan: Extract<Plan, { kind: 'charge' }>,
  request: Pick<OrderRequest, 'shopper' | 'now' | 'answers'>,
): Promise<OrderResponse> {
  const { shopper, now, answers } = request;
  const { organization } = plan;
  const limitsInput = { organizationId: organization.id, cartId: plan.cartId, ip: shopper.clientIp };
  // Where the limits live in this database they were checked (and this attempt counted) as the order was saved.
  if (!deps.limits.beforeOrderAttemptInTransaction) {
    try {
      await deps.limits.beforeOrderAttempt(limitsInput);
    } catch (error) {
      await abandonCharge(deps, plan);
      throw error;
    }
  }

  // Derived from the recorded attempts: a retry after a crash between charging and recording reuses the key,
  // and the gateway answers the charge it already made instead of charging twice.
  const idempotencyKey = `order_${organization.id}_${plan.orderId}_attempt_${plan.attempt}`;
  const gateway = plan.payment.method === 'card' ? deps.gateways.card : deps.gateways.express;
  let result: ChargeResult | ExpressCompleteResult;
  try {
    result =
      plan.payment.method === 'card'
        ? await gateway.charge({
            amount: plan.amount,
            currency: organization.currency,
            source: { kind: 'card', card: plan.payment.card, summary: plan.payment.summary },
            storeForFuture: plan.storeForFuture,
            idempotencyKey,
            description: `Order ${plan.orderId} at ${organization.name}`,
            testCard: plan.payment.testCard,
            organizationId: organization.id,
          })
        : await gateway.completeExpress({
            providerReference: plan.payment.express.provider_reference ?? '',
            amount: plan.amount,
            approvedAmount: plan.payment.express.amount,
            currency: organization.currency,
            idempotencyKey,
            organizationId: organization.id,
          });
  } catch {
    result = {
      status: 'error',
      message: 'The payment service did not answer. Nothing was charged; try again.',
      retryable: true,
    };
  }

  const summary = plan.payment.method === 'card' ? plan.payment.summary : null;
  const method = plan.payment.method;
  const values = (
    status: PaymentAttemptValues['status'],
    extra: Partial<Parameters<typeof attemptValues>[0]>,
  ) =>
    attemptValues({
      orderId: plan.orderId,
      cartId: plan.cartId,
      method,
      gateway: gateway.name,
      status,
      amount: plan.amount,
      currency: organization.currency,
      isTest: plan.isTest,
      ip: shopper.clientIp,
      summary,
      ...extra,
    });
  if (result.status === 'approved' && plan.completesAlone) {
    // Nothing else completes with the order: one statement records the payment, completes the order and stores the
    // answer under the request's key, if the order still holds this attempt's lease (so it is as this attempt wrote
    // it, and the answer is made beforehand from what the attempt holds). When another attempt took the lease over or
    // completed the order meanwhile, or the statement lost a deadlock (a transaction would be run again), it writes
    // nothing and the payment is recorded below.
    const answer = paidAnswer(plan, { order: plan.order, lines: plan.lines, subscriptions: [] }, now);
    const holder = answers.holder;
    const completed = await completeOrderWithAttempt(
      deps.db,
      organization.id,
      {
        orderId: plan.orderId,
        leaseUntil: plan.paymentLeaseUntil,
        attempt: values('approved', { reference: result.reference, paymentMethodId: null }),
        answer: holder ? { ...holder, status: 200, body: answer } : undefined,
      },
      now,
    ).catch((error: unknown) => {
      if (isRetryable(error)) return null;
      throw error;
    });
    if (completed) {
      answers.kept({ status: 200, body: answer });
      return answer;
    }
  }
  // The outcome is recorded and its answer stored under the request's key in one transaction: a process that dies
  // after it commits leaves the answer for the retry (docs/api.md, "Orders").
  const outcome = await deps.db.transaction(async (tx): Promise<OrderResponse | AppError> => {
    const order = await lockOrder(tx, organization.id, plan.orderId);
    if (!order) throw new Error(`order ${plan.orderId} vanished during its payment`);
    const attempt = (
      status: PaymentAttemptValues['status'],
      extra: Partial<Parameters<typeof attemptValues>[0]>,
    ) => insertPaymentAttempt(tx, organization.id, values(status, extra), now);
    const answered = async (answer: OrderResponse | AppError) => {
      await answers.keep(
        tx,
        answer instanceof AppError
          ? { status: answer.status, body: answer.toBody() }
          : { status: 200, body: answer },
      );
      return answer;
    };
    if (order.status === 'complete') {
      // Another attempt, whose lease had run out, completed the order while this one was being paid: this outcome is
      // recorded and nothing about the order changes (an approved one shows the merchant a second approved attempt to
      // refund; no subscription or gift code is made twice).
      await attempt(result.status, outcomeDetails(result));
      return answered(
        result.status === 'approved'
          ? await viewCart(tx, organization.id, plan.cartId, now)
          : orderAlreadyPlaced(),
      );
    }
    // Had the lease run out and another attempt taken the order over (a new lease, perhaps the order rewritten), the
    // order is no longer as this attempt wrote it, and its lease and code use are that attempt's now.
    const asWritten = order.payment_lease_until?.getTime() === plan.paymentLeaseUntil.getTime();
    if (result.status === 'approved') {
      let paymentMethodId: number | null = null;
      if (result.paymentMethodToken && plan.storeForFuture) {
        paymentMethodId = await insertPaymentMethod(
          tx,
          organization.id,
          {
            customer_id: plan.customerId,
            method,
            gateway: gateway.name,
            gateway_token: result.paymentMethodToken,
            card_brand: summary?.brand ?? null,
            card_type_id: summary?.typeId ?? null,
            card_last4: summary?.last4 ?? null,
            card_exp_month: summary?.expMonth ?? null,
            card_exp_year: summary?.expYear ?? null,
            is_test: plan.isTest,
          },
          now,
        );
      }
      if (plan.payment.method === 'paypal')
        await markExpressPaymentUsed(tx, organization.id, plan.payment.express.id, now);
      const completed = await completeOrder(tx, organization, order, {
        attempt: values('approved', { reference: result.reference, paymentMethodId }),
        paymentMethodId,
        giftClaimId: plan.giftClaimId,
        now,
      });
      const paidOrder = { ...order, payment_method_id: paymentMethodId ?? order.payment_method_id };
      // An order another attempt rewrote meanwhile is read back for its answer.
      return answered(
        asWritten
          ? paidAnswer(plan, { order: paidOrder, ...completed }, now)
          : await viewCart(tx, organization.id, plan.cartId, now),
      );
    }
    await attempt(result.status, outcomeDetails(result));
    // A failed payment of an order another attempt now pays is only recorded: giving back the code use or marking the
    // order declined would undo that attempt's (which may complete the order with the code, on the same use).
    if (asWritten) {
      if (plan.discountCodeId !== null) await releaseDiscountUse(tx, organization.id, plan.discountCodeId);
      await setOrderOutcome(
        tx,
        organization.id,
        order.id,
        // A gateway error changes nothing about the order: it stays as it was for the retry.
        { status: result.status === 'declined' ? 'declined' : order.status, discountReserved: false },
        now,
      );
    }
    // A gateway error is a "try again", not an answer: the key is let go for the retry.
    if (result.status === 'error') return gatewayError(result.message);
    return answered(new AppError(402, result.code, result.message));
  });

  if (outcome instanceof AppError) {
    if (outcome.status === 402) await deps.limits.recordFailedPayment(limitsInput);
    throw outcome;
  }
  return outcome;
}

function gatewayError(message: string): AppError {
  return new AppError(503, 'payment_unavailable', message, { headers: { 'retry-after': '5' } });
}

/** Starts the express payment at the provider; answers the cart with the redirect to the payer's approval. */
async function startExpress(
  deps: OrderDependencies,
  plan: Extract<Plan, { kind: 'express_start' }>,
  request: Pick<OrderRequest, 'now' | 'answers'>,
): Promise<OrderResponse> {
  const { organization } = plan;
  const started = await deps.gateways.express
    .startExpress({
      amount: plan.amount,
      currency: organization.currency,
      paymentTokenId: plan.express.publicId,
      returnUrl: plan.returnUrl,
      cancelUrl: plan.returnUrl,
      idempotencyKey: `express_${plan.express.publicId}`,
      description: `Order at ${organization.name}`,
      storeForFuture: plan.storeForFuture,
    })
    .catch(() => ({ status: 'error' as const, message: 'PayPal did not answer.', retryable: true as const }));
  if (started.status !== 'created') {
    await deps.db.transaction((tx) => expireExpressPayment(tx, organization.id, plan.express.id));
    throw new AppError(
      503,
      'express_unavailable',
      'PayPal is not answering right now. Try again or pay by card.',
      {
        headers: { 'retry-after': '5' },
      },
    );
  }
  // The answer is stored with the provider's reference, as an order's is with its outcome.
  return deps.db.transaction(async (tx) => {
    await setExpressProviderReference(tx, organization.id, plan.express.id, started.providerReference);
    const action = { type: 'redirect' as const, url: started.approvalUrl };
    const answer = { ...(await viewCartState(tx, plan.after, request.now)), action };
    await request.answers.keep(tx, { status: 200, body: answer });
    return answer;
  });
}

/**
 * POST orders / PUT orders/{order_id}: validate and price on the server, then complete, start an express payment, or
 * charge. Answers the cart (order.status complete) or, for an express start, the cart with a redirect action.
 * A decline is a 402 with the gateway's words; the order stays for a retry through PUT orders/{order_id}. Every answer
 * that changes money state is stored under the request's Idempotency-Key by the transaction that makes it true.
 */
export async function submitOrder(deps: OrderDependencies, request: OrderRequest): Promise<OrderResponse> {
  const plan = await prepare(deps, request);
  if (plan.kind === 'refused') throw plan.error;
  if (plan.kind === 'completed') return plan.answer;
  if (plan.kind === 'express_start') return startExpress(deps, plan, request);
  return charge(deps, plan, request);
}
