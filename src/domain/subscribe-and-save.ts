import { formatMoney, minor, mulDivRound, type Minor } from './money.js';

/** What a one-off offer lets the shopper choose instead of buying once (docs/subscriptions.md, "Subscribe and save"). */
export interface SubscribeAndSaveTerms {
  intervalDays: number;
  /** whole percent off the unit price, 1 to 90 */
  percentOff: number;
}

export const MAX_SUBSCRIBE_PERCENT_OFF = 90;

/**
 * The unit price of a subscribed line, in minor units of the currency: the saving (price × percent / 100) is rounded
 * half up to the minor unit and taken off, so the shopper is never shown a saving larger than what they get.
 */
export function subscribedUnitPrice(price: Minor, percentOff: number): Minor {
  return minor(price - mulDivRound(price, percentOff, 100));
}

/** The fields of a cart line that decide how it is priced. */
export interface SubscribableLine {
  price: number;
  price_override: number | null;
  is_recurring: boolean;
  billing_interval_days: number | null;
  next_price: number | null;
  is_gift: boolean;
  subscribed: boolean;
  subscribe_interval_days: number | null;
  subscribe_percent_off: number | null;
}

/**
 * The offer's subscribe-and-save terms when this line may take them: a one-off line (or one made recurring by the
 * choice itself), not a gift.
 */
export function subscribeTermsOf(line: SubscribableLine): SubscribeAndSaveTerms | null {
  if ((line.is_recurring && !line.subscribed) || line.is_gift) return null;
  if (line.subscribe_interval_days === null || line.subscribe_percent_off === null) return null;
  return { intervalDays: line.subscribe_interval_days, percentOff: line.subscribe_percent_off };
}

/**
 * A line as it is priced and ordered: a subscribed line becomes a recurring line at the discounted unit price, every
 * interval, its later cycles at the same discounted price, so pricing, the order, its subscription and rebills treat
 * it exactly as a recurring offer. Other lines are answered as they are.
 */
export function pricedAsChosen<T extends SubscribableLine>(line: T): T {
  const terms = subscribeTermsOf(line);
  if (!line.subscribed || terms === null || line.is_recurring) return line;
  const unit = subscribedUnitPrice(minor(line.price_override ?? line.price), terms.percentOff);
  return {
    ...line,
    price: subscribedUnitPrice(minor(line.price), terms.percentOff),
    price_override: line.price_override === null ? null : unit,
    is_recurring: true,
    billing_interval_days: terms.intervalDays,
    next_price: unit,
  };
}

/** Why the shopper may not change a line's buy-once-or-subscribe choice now, or null when they may. */
export function subscriptionChoiceRefusal(facts: {
  isGiftClaim: boolean;
  /** the cart's order, null before the first attempt */
  orderStatus: 'pending' | 'declined' | 'awaiting_payment' | 'complete' | null;
  /** a card payment holds the order now */
  paymentInProgress: boolean;
}): 'gift_claim' | 'ordered' | 'express_started' | 'payment_in_progress' | null {
  if (facts.isGiftClaim) return 'gift_claim';
  if (facts.orderStatus === 'complete') return 'ordered';
  if (facts.orderStatus === 'awaiting_payment') return 'express_started';
  if (facts.paymentInProgress) return 'payment_in_progress';
  return null;
}

/** What each delivery of a subscription that came from subscribe and save costs, and would cost bought once. */
export interface SubscribeAndSaveSaving {
  percentOff: number;
  intervalDays: number;
  /** the items of one delivery bought once (unit price × quantity), or null when the order did not keep it */
  onceAmount: Minor | null;
  /** the same items subscribed */
  subscribedAmount: Minor | null;
}

/** The saving of every delivery for one subscribed line: its one-off unit price less the saving, times the quantity. */
export function savingOf(
  terms: SubscribeAndSaveTerms,
  onceUnitPrice: Minor | null,
  quantity: number,
): SubscribeAndSaveSaving {
  if (onceUnitPrice === null) {
    return { ...terms, onceAmount: null, subscribedAmount: null };
  }
  return {
    ...terms,
    onceAmount: minor(onceUnitPrice * quantity),
    subscribedAmount: minor(subscribedUnitPrice(onceUnitPrice, terms.percentOff) * quantity),
  };
}

/**
 * The saving in words for the subscriber (docs/subscriptions.md, "Self-service"): "You save 10 % on every delivery:
 * $27.00 instead of $30.00, every 30 days." The amounts are the items' (shipping and tax are not discounted).
 */
export function describeSaving(saving: SubscribeAndSaveSaving, currency: string): string {
  const every = saving.intervalDays === 1 ? 'every day' : `every ${saving.intervalDays} days`;
  const amounts =
    saving.onceAmount === null || saving.subscribedAmount === null
      ? ''
      : `: ${formatMoney(saving.subscribedAmount, currency)} instead of ${formatMoney(saving.onceAmount, currency)}`;
  return `You save ${saving.percentOff} % on every delivery${amounts}, ${every}.`;
}
