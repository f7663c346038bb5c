// How the self-service page words a subscription (docs/subscriptions.md, "Self-service"), in the page's language
// (docs/languages.md). Pure, so it is tested without a browser.
import type { SubscriberSubscription } from '../../contract/subscriber.js';
import { CARD_TYPE_IDS, cardTypeOf, type CardBrand } from '../../domain/card.js';
import type { Translate } from '../i18n/use-t.js';

/** The page's words: its translator and the locale its amounts and dates are written in (useT()). */
export interface Words {
  t: Translate;
  locale: string;
}

/** An amount in major units of the currency, as the page's language writes it. */
export function moneyText(amount: number, currency: string, words: Words): string {
  return new Intl.NumberFormat(words.locale, { style: 'currency', currency }).format(amount);
}

/** "$25.00 every month", "25,00 € cada mes": what each renewal charges, and how often. */
export function priceText(
  subscription: Pick<SubscriberSubscription, 'cycle_amount' | 'currency' | 'interval_days'>,
  words: Words,
): string {
  return words.t('manage.priceEvery', {
    amount: moneyText(subscription.cycle_amount, subscription.currency, words),
    days: subscription.interval_days,
  });
}

/** "December 24, 2026" from an ISO time, in the page's language, the day as the server keeps it (UTC). */
export function dayText(iso: string, words: Words): string {
  return new Date(iso).toLocaleDateString(words.locale, {
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
  words: Words,
): string {
  const { t } = words;
  const day = (iso: string) => dayText(iso, words);
  if (subscription.status === 'cancelled') {
    return subscription.cancelled_at
      ? t('manage.status.cancelledOn', { date: day(subscription.cancelled_at) })
      : t('manage.status.cancelled');
  }
  if (subscription.cancel_at) return t('manage.status.ends', { date: day(subscription.cancel_at) });
  if (subscription.status === 'paused') return t('manage.status.paused');
  if (subscription.status === 'past_due') return t('manage.status.pastDue');
  if (subscription.charges[0]?.status === 'declined' && subscription.next_charge_at) {
    return t('manage.status.retry', { date: day(subscription.next_charge_at) });
  }
  return subscription.next_charge_at
    ? t('manage.status.next', { date: day(subscription.next_charge_at) })
    : t('manage.status.active');
}

/** The badge beside the status line: a subscription whose cancel is scheduled is ending, not simply active. */
export function statusLabel(
  subscription: Pick<SubscriberSubscription, 'status' | 'cancel_at'>,
  words: Words,
): string {
  const { t } = words;
  if (subscription.status === 'active' && subscription.cancel_at) return t('manage.label.ending');
  switch (subscription.status) {
    case 'active':
      return t('manage.label.active');
    case 'paused':
      return t('manage.label.paused');
    case 'past_due':
      return t('manage.label.pastDue');
    case 'cancelled':
      return t('manage.label.cancelled');
  }
}

/** "Mastercard ending in 4444", from what the processor told of the card. */
export function cardText(card: SubscriberSubscription['card'], words: Words): string {
  const { t } = words;
  if (!card) return t('manage.noCard');
  const brand = card.brand ?? '';
  const label =
    brand === 'testcard' || brand in CARD_TYPE_IDS
      ? cardTypeOf(brand as CardBrand | 'testcard').label
      : t('manage.someCard');
  return card.last4 ? t('manage.cardEnding', { brand: label, last4: card.last4 }) : label;
}

/** A renewal charge's outcome, as the charges table says it. */
export function chargeLabel(
  status: SubscriberSubscription['charges'][number]['status'],
  words: Words,
): string {
  const { t } = words;
  switch (status) {
    case 'approved':
      return t('manage.charge.approved');
    case 'declined':
      return t('manage.charge.declined');
    case 'error':
      return t('manage.charge.error');
  }
}

/** What the cancel confirmation tells the subscriber before they confirm. */
export function cancelConsequence(
  subscription: Pick<SubscriberSubscription, 'status' | 'next_charge_at' | 'cancel_effect'>,
  words: Words,
): string {
  if (
    subscription.cancel_effect === 'end_of_period' &&
    subscription.status === 'active' &&
    subscription.next_charge_at
  ) {
    return words.t('manage.cancelLater', { date: dayText(subscription.next_charge_at, words) });
  }
  return words.t('manage.cancelNow');
}
