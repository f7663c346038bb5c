// What a subscription's change asks of the emails module (docs/emails.md, "Subscription emails"): the email's job,
// enqueued in the change's transaction. Imports the platform and pure rules only, so the subscriptions and orders
// modules can use it without an import cycle.
import type { Queryable } from '../../platform/db/database.js';
import { enqueueJob } from '../../platform/jobs/job-queue.js';
import type { SubscriptionChargeRow, SubscriptionRow } from '../subscriptions/subscriptions-repository.js';
import {
  afterFailedPayment,
  subscriptionEmailFor,
  type SubscriptionEmailKind,
  type SubscriptionEventCause,
  type SubscriptionEventType,
} from './subscription-email-rules.js';

/** The job that sends a subscription email of `kind`. */
export function subscriptionEmailJob(kind: SubscriptionEmailKind): string {
  return `email.subscription_${kind}`;
}

/** The kind the email log lists (GET /checkout/api/merchant/emails). */
export function subscriptionEmailLogKind(kind: SubscriptionEmailKind): string {
  return `subscription_${kind}`;
}

/**
 * The job's key, and its email's: one email of a kind per subscription and occurrence (a cycle, an attempt, the time
 * of a change, the date a reminder is for), however often the change is retried.
 */
export function subscriptionEmailKey(
  kind: SubscriptionEmailKind,
  subscriptionId: number,
  occurrence: string,
): string {
  return `${subscriptionEmailKeyPrefix(kind)}${subscriptionId}:${occurrence}`;
}

/** What every key of a kind starts with (the reminder scan writes its keys in SQL). */
export function subscriptionEmailKeyPrefix(kind: SubscriptionEmailKind): string {
  return `subscription_email:${kind}:`;
}

/** The reminder's occurrence: the charge date it is for, so one reminder per charge date. */
export function chargeReminderOccurrence(nextChargeAt: Date): string {
  return String(nextChargeAt.getTime());
}

/**
 * What the email says of the change, as the change's transaction sees it, so a late send (a retry hours later) still
 * tells the change it reports. Amounts in minor units, dates as ISO strings.
 */
export type SubscriptionEmailFacts = Record<string, string | number | null | Record<string, unknown>>;

export async function enqueueSubscriptionEmail(
  tx: Queryable,
  email: {
    kind: SubscriptionEmailKind;
    organizationId: number;
    subscriptionId: number;
    occurrence: string;
    facts: SubscriptionEmailFacts;
  },
  now: Date,
): Promise<void> {
  await enqueueJob(
    tx,
    {
      kind: subscriptionEmailJob(email.kind),
      key: subscriptionEmailKey(email.kind, email.subscriptionId, email.occurrence),
      payload: { subscription_id: email.subscriptionId, occurrence: email.occurrence, ...email.facts },
      organizationId: email.organizationId,
    },
    now,
  );
}

/** The welcome, in the transaction of the order that started the subscription. */
export async function enqueueSubscriptionWelcome(
  tx: Queryable,
  organizationId: number,
  subscription: {
    subscription_id: number;
    cycle_amount: number;
    next_charge_at: Date;
    later_cycles?: string | null;
    /** a prepaid plan that ends after its period: it says so, and nothing more is charged */
    paid_in_full?: string;
  },
  now: Date,
): Promise<void> {
  await enqueueSubscriptionEmail(
    tx,
    {
      kind: 'welcome',
      organizationId,
      subscriptionId: subscription.subscription_id,
      occurrence: 'created',
      facts: {
        cycle_amount: subscription.cycle_amount,
        next_charge_at: subscription.next_charge_at.toISOString(),
        ...(subscription.later_cycles ? { later_cycles: subscription.later_cycles } : {}),
        ...(subscription.paid_in_full ? { paid_in_full: subscription.paid_in_full } : {}),
      },
    },
    now,
  );
}

/** The payment method a subscription is charged with, as its emails name it. */
function paymentFacts(row: SubscriptionRow): SubscriptionEmailFacts[string] {
  if (row.pm_method === null) return null;
  return {
    method: row.pm_method === 'paypal' ? 'paypal' : 'card',
    brand: row.pm_card_brand,
    last4: row.pm_card_last4,
  };
}

/**
 * The email a subscription event sends (subscription-email-rules.ts), enqueued in the event's transaction. `row` and
 * `charges` are the subscription as that transaction left it; the last charge is the attempt a renewal or failure
 * reports (recorded by the same transaction).
 */
export async function enqueueSubscriptionEventEmail(
  tx: Queryable,
  event: {
    type: SubscriptionEventType;
    occurrence: string;
    cause: SubscriptionEventCause | null;
    row: SubscriptionRow;
    charges: readonly SubscriptionChargeRow[];
  },
  now: Date,
): Promise<void> {
  const { row } = event;
  const charge = event.charges.at(-1) ?? null;
  const kind = subscriptionEmailFor(event.type, { cause: event.cause, chargeStatus: charge?.status ?? null });
  if (kind === null) return;
  const facts: SubscriptionEmailFacts = {
    cycle_amount: row.cycle_amount,
    next_charge_at: row.next_charge_at.toISOString(),
  };
  if (kind === 'cancel_scheduled' && row.cancel_at) facts.ends_at = row.cancel_at.toISOString();
  if (kind === 'card_updated') facts.payment = paymentFacts(row);
  if (kind === 'renewal_receipt' && charge) {
    facts.cycle = charge.cycle;
    facts.amount = charge.amount;
    facts.payment =
      row.pm_method === null
        ? null
        : {
            method: row.pm_method === 'paypal' ? 'paypal' : 'card',
            brand: row.pm_card_brand,
            last4: row.pm_card_last4,
          };
  }
  if (kind === 'payment_failed' && charge) {
    facts.amount = charge.amount;
    const next = afterFailedPayment({ status: row.status, nextChargeAt: row.next_charge_at });
    facts.next = next.kind === 'retry' ? { kind: 'retry', at: next.at.toISOString() } : { kind: next.kind };
  }
  await enqueueSubscriptionEmail(
    tx,
    {
      kind,
      organizationId: row.organization_id,
      subscriptionId: row.id,
      occurrence: event.occurrence,
      facts,
    },
    now,
  );
}
