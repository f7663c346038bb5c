// How the self-service page words a subscription (docs/subscriptions.md, "Self-service"). Pure, so it is tested
// without a browser.
import type { SubscriberSubscription } from '../../contract/subscriber.js';
import { CARD_TYPE_IDS, cardTypeOf, type CardBrand } from '../../domain/card.js';

/** "every month" for 30 days, "every week" for 7, else "every N days". */
export function intervalText(days: number): string {
  if (days === 1) return 'every day';
  if (days === 7) return 'every week';
  if (days === 14) return 'every 2 weeks';
  if (days === 30 || days === 31) return 'every month';
  if (days === 365) return 'every year';
  return `every ${days} days`;
}

/** "December 24, 2026" from an ISO time, in the subscriber's reading, the day as the server keeps it (UTC). */
export function dayText(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });
}

/** The subscription's state in a line the subscriber reads first. */
export function statusText(
  subscription: Pick<
    SubscriberSubscription,
    'status' | 'next_charge_at' | 'cancel_at' | 'cancelled_at' | 'charges'
  >,
): string {
  if (subscription.status === 'cancelled') {
    return subscription.cancelled_at ? `Canceled on ${dayText(subscription.cancelled_at)}.` : 'Canceled.';
  }
  if (subscription.cancel_at) {
    return `Ends on ${dayText(subscription.cancel_at)}. You will not be charged again.`;
  }
  if (subscription.status === 'paused') return 'Paused: you will not be charged until you resume it.';
  if (subscription.status === 'past_due') {
    return 'Your last payment did not go through. Update your card to continue the subscription.';
  }
  if (subscription.charges[0]?.status === 'declined' && subscription.next_charge_at) {
    return `Your last payment did not go through; it is tried again on ${dayText(subscription.next_charge_at)}. Update your card to pay with another.`;
  }
  return subscription.next_charge_at ? `Next charge on ${dayText(subscription.next_charge_at)}.` : 'Active.';
}

/** The badge beside the status line: a subscription whose cancel is scheduled is ending, not simply active. */
export function statusLabel(subscription: Pick<SubscriberSubscription, 'status' | 'cancel_at'>): string {
  if (subscription.status === 'active' && subscription.cancel_at) return 'Ending';
  return STATUS_LABELS[subscription.status];
}

/** "Mastercard ending in 4444", from what the processor told of the card. */
export function cardText(card: SubscriberSubscription['card']): string {
  if (!card) return 'No card on file';
  const brand = card.brand ?? '';
  const label =
    brand === 'testcard' || brand in CARD_TYPE_IDS
      ? cardTypeOf(brand as CardBrand | 'testcard').label
      : 'Card';
  return card.last4 ? `${label} ending in ${card.last4}` : label;
}

const STATUS_LABELS: Record<SubscriberSubscription['status'], string> = {
  active: 'Active',
  paused: 'Paused',
  past_due: 'Payment failed',
  cancelled: 'Canceled',
};

export const CHARGE_LABELS: Record<SubscriberSubscription['charges'][number]['status'], string> = {
  approved: 'Paid',
  declined: 'Declined',
  error: 'Not charged (processor unavailable)',
};

/** What the cancel confirmation tells the subscriber before they confirm. */
export function cancelConsequence(
  subscription: Pick<SubscriberSubscription, 'status' | 'next_charge_at' | 'cancel_effect'>,
): string {
  if (
    subscription.cancel_effect === 'end_of_period' &&
    subscription.status === 'active' &&
    subscription.next_charge_at
  ) {
    return `Your subscription stays active until ${dayText(subscription.next_charge_at)} and is not charged again.`;
  }
  return 'Your subscription ends now and is not charged again.';
}
