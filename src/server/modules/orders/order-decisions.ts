// What an order comes to, decided from its priced cart and its request alone (no database, no clock of its own):
// whether it is paid and how, whether its payment method is kept, which addresses it keeps, its lines and amounts.
import type { CardPayment, PaymentInput } from '../../../contract/order.js';
import type { PricedLine, PricingResult } from '../../../domain/pricing.js';
import type { FieldMessage } from '../../../domain/field-errors.js';
import type { CardSummary, UnusableCardReason } from '../../platform/payments/gateway.js';
import type { Message, MessageKey } from '../../../i18n/message-keys.js';
import type { DescribedCardToken, Plan } from './order-plan.js';
import type { PaymentAttemptRow } from './payment-attempts-repository.js';
import type { CartLineRow } from '../carts/carts-repository.js';
import type { CartPricing } from '../carts/cart-pricing.js';
import type { Language } from '../../../i18n/languages.js';
import type { OrderAddress, OrderLineValues, OrderRow, OrderValues } from './orders-repository.js';

/**
 * Something is paid now, or a later cycle will be (a free first cycle still stores a card for the later ones): else
 * the order is free (docs/api.md, "Orders").
 */
export function isPaymentDue(result: Pick<PricingResult, 'total' | 'isRecurring'>): boolean {
  return result.total > 0 || result.isRecurring;
}

/** PayPal without an approved payment yet: the payer gives their details at the provider, and approves there. */
export function isExpressStart(payment: PaymentInput | undefined): boolean {
  return payment?.method === 'paypal' && !payment.payment_token_id;
}

/** What happens once the order is saved: the payer is sent to the provider, it completes free, or it is charged. */
export type OrderStep = 'express_start' | 'complete' | 'charge';

export function nextStep(input: { expressStart: boolean; paymentDue: boolean }): OrderStep {
  if (input.expressStart) return 'express_start';
  return input.paymentDue ? 'charge' : 'complete';
}

/** The status an attempt saves the order with: an express start waits for the payer; else it stays as it was. */
export function savedStatus(input: {
  expressStart: boolean;
  previous: OrderRow['status'] | null;
}): OrderRow['status'] {
  if (input.expressStart) return 'awaiting_payment';
  return input.previous ?? 'pending';
}

/** A due card payment whose token the processor made from one of the organization's test cards (docs/payments.md). */
export function isTestCard(card: DescribedCardToken | null | undefined, paymentDue: boolean): boolean {
  if (!paymentDue || !card) return false;
  const { description } = card;
  return description.status === 'usable' ? description.testCard : (description.usedBy?.testCard ?? false);
}

/**
 * The processor's idempotency key of an order's payment attempt: derived from the recorded attempts, so a retry after
 * a crash between charging and recording reuses it, and the processor answers the charge it made instead of charging
 * twice.
 */
export function chargeKey(organizationId: number, orderId: number, attempt: number): string {
  return `order_${organizationId}_${orderId}_attempt_${attempt}`;
}

/**
 * Whether a token the processor says was used may be sent again: its use was this attempt's own charge (the same
 * key, or a processor that cannot say which charge, on an order that already has attempts), whose answer we lost.
 */
export function isRetryOfUse(
  card: DescribedCardToken | null | undefined,
  retriedKey: string | null,
): boolean {
  if (card?.description.status !== 'unusable' || !card.description.usedBy || retriedKey === null)
    return false;
  const { idempotencyKey } = card.description.usedBy;
  return idempotencyKey === null || idempotencyKey === retriedKey;
}

/** A test order moves no real money: the shopper is in test mode, the cart was made as a test, or the card is one. */
export function isTestOrder(input: { testMode: boolean; testCart: boolean; testCard: boolean }): boolean {
  return input.testMode || input.testCart || input.testCard;
}

/**
 * The payment method is kept for later cycles when a line recurs for this customer; a gift's recipient pays their
 * own cycles, so a recurring gift alone keeps nothing.
 */
export function storesPaymentMethod(
  lines: readonly Pick<CartLineRow, 'is_recurring' | 'is_gift'>[],
): boolean {
  return lines.some((line) => line.is_recurring && !line.is_gift);
}

/**
 * Nothing completes with the order but the order itself (no gift, gift claim, subscription or stored payment
 * method, no express payment to mark used): its payment is recorded and the order completed by one statement.
 */
export function completesAlone(input: {
  express: boolean;
  giftClaim: boolean;
  lines: readonly Pick<OrderLineValues, 'is_gift' | 'is_recurring'>[];
}): boolean {
  return !input.express && !input.giftClaim && !input.lines.some((line) => line.is_gift || line.is_recurring);
}

/**
 * Which address is billed: the shipping one stands for both when "same address" is kept and something ships;
 * otherwise the billing address given.
 */
export function billedAddress(input: {
  shipping: boolean;
  sameAddress: boolean;
  ship: OrderAddress;
  bill: OrderAddress;
}): { billingIsShipping: boolean; billing: OrderAddress } {
  const billingIsShipping = input.sameAddress && input.shipping;
  return { billingIsShipping, billing: billingIsShipping ? input.ship : input.bill };
}

/** The addresses the order keeps: each one given (by its country), and the shipping one whenever something ships. */
export function storedAddresses(input: {
  shipping: boolean;
  billingIsShipping: boolean;
  ship: OrderAddress;
  bill: OrderAddress;
}): Pick<OrderValues, 'shipping_address' | 'billing_address'> {
  const { ship, bill } = input;
  return {
    shipping_address: input.shipping || ship.country ? ship : null,
    billing_address: input.billingIsShipping ? ship : bill.country ? bill : null,
  };
}

type OrderedCartLine = Pick<
  CartLineRow,
  | 'id'
  | 'offer_id'
  | 'item_name'
  | 'quantity'
  | 'price'
  | 'price_override'
  | 'is_gift'
  | 'is_bump'
  | 'is_recurring'
  | 'billing_interval_days'
  | 'subscribed'
  | 'subscribe_percent_off'
  | 'once_unit_price'
>;

/** The order's lines: each cart line at its unit price, with its share of the priced cart's amounts. */
export function orderLines(
  cartLines: readonly OrderedCartLine[],
  priced: readonly PricedLine[],
): OrderLineValues[] {
  return cartLines.map((line) => {
    const figures = priced.find((entry) => entry.id === line.id);
    // Only a choice the snapshot priced as recurring (pricedAsChosen) is one; a stale one on a gift is not.
    const subscribedAndSaved = line.subscribed && line.is_recurring;
    return {
      cart_offer_id: line.id,
      offer_id: line.offer_id,
      item_name: line.item_name,
      quantity: line.quantity,
      unit_price: line.price_override ?? line.price,
      subtotal: figures?.subtotal ?? 0,
      discount: figures?.discount ?? 0,
      shipping: figures?.shipping ?? 0,
      tax: figures?.tax ?? 0,
      total: figures?.total ?? 0,
      is_gift: line.is_gift,
      is_bump: line.is_bump,
      is_recurring: line.is_recurring,
      billing_interval_days: line.billing_interval_days,
      next_cycle_total: figures?.nextCycleTotal ?? null,
      billing_plan: figures?.billingPlan ?? null,
      subscribe_and_save_percent: subscribedAndSaved ? line.subscribe_percent_off : null,
      subscribe_and_save_once_price: subscribedAndSaved ? line.once_unit_price : null,
    };
  });
}

/** The order's amounts as priced, the code that discounted them (only when it applied) and the shipping chosen. */
export function orderAmounts(
  pricing: Pick<CartPricing, 'result' | 'discountApplied'> & { chosenProfile: { id: number } | null },
  discountCode: { id: number; code: string } | null,
): Pick<
  OrderValues,
  | 'subtotal'
  | 'total_discount'
  | 'total_offer_shipping'
  | 'total_campaign_shipping'
  | 'total_tax'
  | 'total_gift_cards'
  | 'total'
  | 'discount_code_id'
  | 'discount_code'
  | 'shipping_profile_id'
> {
  const { result } = pricing;
  const code = pricing.discountApplied ? discountCode : null;
  return {
    subtotal: result.subtotal,
    total_discount: result.totalDiscount,
    total_offer_shipping: result.totalOfferShipping,
    total_campaign_shipping: result.totalCampaignShipping,
    total_tax: result.totalTax,
    total_gift_cards: result.totalGiftCards,
    total: result.total,
    discount_code_id: code?.id ?? null,
    discount_code: code?.code ?? null,
    shipping_profile_id: pricing.chosenProfile?.id ?? null,
  };
}

/** The subscription terms as accepted: only terms the page displayed can be, and their version, when and from where. */
export function termsAcceptance(input: {
  displayed: boolean;
  accepted: boolean | undefined;
  version: string;
  /** the language of the terms' text the page showed */
  language: Language;
  ip: string | null;
  now: Date;
}): Pick<
  OrderValues,
  | 'subscription_terms_accepted'
  | 'subscription_terms_accepted_at'
  | 'subscription_terms_ip'
  | 'subscription_terms_version'
  | 'subscription_terms_language'
> {
  const accepted = input.displayed && input.accepted === true;
  return {
    subscription_terms_accepted: accepted,
    subscription_terms_accepted_at: accepted ? input.now : null,
    subscription_terms_ip: accepted ? input.ip : null,
    subscription_terms_version: accepted ? input.version : null,
    subscription_terms_language: accepted ? input.language : null,
  };
}

/**
 * A retry's code use: a use is still held only when an earlier attempt died mid-payment, and it belongs to the code
 * that attempt used; it is kept for the same code, given back for another, and a use of the wanted code is held
 * when none is (docs/api.md, "Discount code uses").
 */
export function codeUseOnRetry(input: {
  /** the order still holds a use (orders.discount_reserved) */
  reserved: boolean;
  /** the code the earlier attempt used */
  previousCode: number | null;
  /** the code this attempt applies */
  wantedCode: number | null;
}): { release: number | null; hold: boolean } {
  const heldCode = input.reserved ? input.previousCode : null;
  const kept = heldCode !== null && heldCode === input.wantedCode;
  return {
    release: heldCode !== null && heldCode !== input.wantedCode ? heldCode : null,
    hold: input.wantedCode !== null && !kept,
  };
}

/** A failed payment leaves the order declined; a gateway error leaves it as it was for the retry. */
export function statusAfterFailedPayment(
  result: 'declined' | 'error',
  current: OrderRow['status'],
): OrderRow['status'] {
  return result === 'declined' ? 'declined' : current;
}

/**
 * What is wrong with a card payment, before anything is charged: it names neither a token nor an authenticated
 * payment (or both), the processor cannot use the token, or the authenticated payment is not this order's pending one
 * for this total. Null when it may be charged.
 */
export function cardPaymentProblem(input: {
  payment: CardPayment;
  card: DescribedCardToken | null | undefined;
  authenticated: Pick<PaymentAttemptRow, 'amount'> | null;
  amount: number;
  /** the key this attempt charges with, when the order was attempted before (see isRetryOfUse) */
  retriedKey?: string | null;
}): FieldMessage | null {
  const token = input.payment.card_token?.trim() ?? '';
  const reference = input.payment.authenticated_payment?.trim() ?? '';
  if ((token === '') === (reference === '')) return { key: 'payment.card_details_missing' };
  if (token !== '') {
    if (!input.card || input.card.token !== token) return { key: 'payment.card_details_missing' };
    if (isRetryOfUse(input.card, input.retriedKey ?? null)) return null;
    return input.card.description.status === 'unusable'
      ? unusableCardMessage(input.card.description.reason)
      : null;
  }
  if (!input.authenticated) return { key: 'payment.confirmation_not_this_order' };
  if (input.authenticated.amount !== input.amount) return { key: 'payment.order_changed_after_confirmation' };
  return null;
}

/**
 * What the shopper reads of a card token the processor cannot charge, in their language (docs/languages.md): never
 * the processor's words, which stay in the merchant's records.
 */
export function unusableCardMessage(reason: UnusableCardReason): Message {
  return { key: UNUSABLE_CARD_MESSAGES[reason] };
}

const UNUSABLE_CARD_MESSAGES = {
  entry_used: 'payment.card_entry_used',
  brand_not_accepted: 'payment.card_brand_refused',
  cards_not_taken: 'payment.cards_not_taken',
} as const satisfies Record<UnusableCardReason, MessageKey>;

/**
 * The card as the gateway charges it and its payment attempt records it (never the number or CVV): the token as the
 * processor described it, or the payment the bank asked to authenticate, with the card its attempt recorded.
 */
export function cardToCharge(
  card: DescribedCardToken | null | undefined,
  authenticated: PaymentAttemptRow | null,
): Extract<Plan, { kind: 'charge' }>['payment'] & { method: 'card' } {
  if (authenticated?.gateway_reference) {
    return {
      method: 'card',
      source: { kind: 'authenticated', reference: authenticated.gateway_reference },
      summary: {
        brand: (authenticated.card_brand ?? 'visa') as CardSummary['brand'],
        typeId: authenticated.card_type_id ?? 2,
        last4: authenticated.card_last4 ?? '',
        expMonth: authenticated.card_exp_month ?? 0,
        expYear: authenticated.card_exp_year ?? 0,
      },
    };
  }
  if (!card) throw new Error('unreachable: a card is charged only once its token was described');
  const { description } = card;
  // A used token reaches here only as its own attempt's retry (isRetryOfUse): the card its use described.
  const summary = description.status === 'usable' ? description.summary : description.usedBy?.summary;
  if (!summary) throw new Error('unreachable: a card is charged only once its token was found usable');
  return { method: 'card', source: { kind: 'card_token', token: card.token }, summary };
}
