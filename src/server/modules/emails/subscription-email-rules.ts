// Which email a subscription's change sends, and whether a reminder still holds (docs/emails.md, "Subscription
// emails"). Pure, so the hook in the change's transaction and the job at send time only do what these decide.
import type { WebhookEventType } from '../../../contract/webhooks.js';
import type { AfterFailedPayment } from './subscription-templates.js';

export type SubscriptionEventType = Extract<WebhookEventType, `subscription.${string}`>;

/** Why an event happened, where its email depends on it: the dunning's end, or what a subscription.updated changed. */
export type SubscriptionEventCause = 'dunning' | 'cancel_scheduled' | 'skip' | 'card';

export const SUBSCRIPTION_EMAIL_KINDS = [
  'welcome',
  'renewal_receipt',
  'payment_failed',
  'paused',
  'resumed',
  'cancelled',
  'charge_reminder',
  'cancel_scheduled',
  'skipped',
  'card_updated',
] as const;
export type SubscriptionEmailKind = (typeof SUBSCRIPTION_EMAIL_KINDS)[number];

/**
 * The email a subscription event sends, or null. `cause` is 'dunning' when the organization's dunning ended the
 * subscription after a declined renewal: that attempt's failed-payment email already says so, so the end sends no
 * second email. A failed attempt sends one only when the card was declined: a processor that did not answer charged
 * nothing, and the attempt is simply made again an hour later.
 */
export function subscriptionEmailFor(
  type: SubscriptionEventType,
  context: { cause: SubscriptionEventCause | null; chargeStatus: 'approved' | 'declined' | 'error' | null },
): SubscriptionEmailKind | null {
  switch (type) {
    case 'subscription.updated':
      // What changed: a cancel set for the period's end, a skipped charge, a new card (the subscriber's own changes).
      return context.cause === 'cancel_scheduled'
        ? 'cancel_scheduled'
        : context.cause === 'skip'
          ? 'skipped'
          : context.cause === 'card'
            ? 'card_updated'
            : null;
    case 'subscription.created':
      return 'welcome';
    case 'subscription.renewed':
      return 'renewal_receipt';
    case 'subscription.payment_failed':
      return context.chargeStatus === 'declined' ? 'payment_failed' : null;
    case 'subscription.paused':
      return context.cause === 'dunning' ? null : 'paused';
    case 'subscription.cancelled':
      return context.cause === 'dunning' ? null : 'cancelled';
    case 'subscription.resumed':
      return 'resumed';
    default:
      // subscription.past_due is only ever the dunning's end: the failed-payment email tells it.
      return null;
  }
}

/** What follows a declined renewal, from the subscription as the attempt's transaction left it. */
export function afterFailedPayment(subscription: { status: string; nextChargeAt: Date }): AfterFailedPayment {
  if (
    subscription.status === 'past_due' ||
    subscription.status === 'paused' ||
    subscription.status === 'cancelled'
  )
    return { kind: subscription.status };
  return { kind: 'retry', at: subscription.nextChargeAt };
}

/**
 * Whether the scan finds a subscription's next charge within its reminder window: an active subscription between
 * dunning retries gets no reminder (the failed-payment email gave the date), nor one renewed every `daysBefore` days
 * or more often (a reminder would follow each receipt). The scan's SQL says the same (subscription-emails-repository.ts).
 */
export function isChargeReminderDue(
  subscription: { status: string; retryCount: number; nextChargeAt: Date; intervalDays: number },
  daysBefore: number | null,
  now: Date,
): boolean {
  if (daysBefore === null || subscription.status !== 'active' || subscription.retryCount !== 0) return false;
  if (subscription.intervalDays <= daysBefore) return false;
  const due = subscription.nextChargeAt.getTime();
  return due > now.getTime() && due <= now.getTime() + daysBefore * 86_400_000;
}

/**
 * Whether a reminder enqueued for the charge on `remindedFor` is still true when its job runs: the subscription is
 * still active with that same next charge date, not yet passed, and the organization still sends reminders. A
 * subscription paused, skipped or moved since gets nothing.
 */
export function isChargeReminderStillTrue(
  subscription: { status: string; retryCount: number; nextChargeAt: Date },
  remindedFor: Date,
  daysBefore: number | null,
  now: Date,
): boolean {
  return (
    daysBefore !== null &&
    subscription.status === 'active' &&
    subscription.retryCount === 0 &&
    subscription.nextChargeAt.getTime() === remindedFor.getTime() &&
    remindedFor.getTime() > now.getTime()
  );
}
