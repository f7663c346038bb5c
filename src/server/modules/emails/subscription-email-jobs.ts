// Sends the subscription emails (docs/emails.md, "Subscription emails"): each job writes its email's record once
// under its key, then sends it unless it was sent already (notice-jobs.ts, email-delivery.ts).
import type { Queryable } from '../../platform/db/database.js';
import type { Job, JobHandler } from '../../platform/jobs/job-queue.js';
import { findOrganizationById } from '../organizations/organizations-repository.js';
import { settingsOf } from '../organizations/organization-service.js';
import { orderEmailSpeech, type EmailSpeech } from './email-language.js';
import type { Mailer } from './mailer.js';
import { idOf, noticeHandler, type NoticeOptions } from './notice-jobs.js';
import type { ReceiptInput, RenderedEmail } from './receipt-template.js';
import {
  subscriptionEmailJob,
  subscriptionEmailKey,
  subscriptionEmailLogKind,
} from './subscription-email-enqueue.js';
import {
  isChargeReminderStillTrue,
  SUBSCRIPTION_EMAIL_KINDS,
  type SubscriptionEmailKind,
} from './subscription-email-rules.js';
import { findSubscriptionForEmail, type SubscriptionEmailRow } from './subscription-emails-repository.js';
import {
  renderChargeReminder,
  renderFailedPayment,
  renderRenewalReceipt,
  renderStatusChange,
  renderSubscriberChange,
  renderSubscriptionWelcome,
  type AfterFailedPayment,
  type SubscriptionEmailBase,
} from './subscription-templates.js';

function dateOf(value: unknown, what: string): Date {
  const date = typeof value === 'string' ? new Date(value) : null;
  if (date === null || Number.isNaN(date.getTime()))
    throw new Error(`A subscription email job names its ${what}.`);
  return date;
}

function occurrenceOf(job: Job): string {
  const occurrence = job.payload.occurrence;
  if (typeof occurrence !== 'string' || occurrence === '')
    throw new Error('A subscription email job names its occurrence.');
  return occurrence;
}

function paymentOf(value: unknown): ReceiptInput['payment'] {
  if (typeof value !== 'object' || value === null) return null;
  const payment = value as Record<string, unknown>;
  const text = (field: unknown) => (typeof field === 'string' ? field : null);
  return {
    method: payment.method === 'paypal' ? 'paypal' : 'card',
    brand: text(payment.brand),
    last4: text(payment.last4),
  };
}

function nextOf(value: unknown): AfterFailedPayment {
  const next = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  if (next.kind === 'past_due' || next.kind === 'paused' || next.kind === 'cancelled')
    return { kind: next.kind };
  return { kind: 'retry', at: dateOf(next.at, 'next retry') };
}

/** The email of `kind` from the facts its job carries (subscription-email-enqueue.ts). */
function renderSubscriptionEmail(
  kind: SubscriptionEmailKind,
  base: SubscriptionEmailBase,
  facts: Record<string, unknown>,
  speech: EmailSpeech,
): RenderedEmail {
  const cycleAmount = idOf(facts.cycle_amount, 'cycle amount');
  const nextChargeAt = dateOf(facts.next_charge_at, 'next charge date');
  switch (kind) {
    case 'welcome':
      return renderSubscriptionWelcome(
        {
          ...base,
          cycleAmount,
          nextChargeAt,
          laterCycles: typeof facts.later_cycles === 'string' ? facts.later_cycles : null,
          paidInFull: typeof facts.paid_in_full === 'string' ? facts.paid_in_full : null,
        },
        speech,
      );
    case 'renewal_receipt':
      return renderRenewalReceipt(
        {
          ...base,
          cycle: idOf(facts.cycle, 'cycle'),
          amount: idOf(facts.amount, 'amount'),
          payment: paymentOf(facts.payment),
          nextChargeAt,
        },
        speech,
      );
    case 'payment_failed':
      return renderFailedPayment(
        { ...base, amount: idOf(facts.amount, 'amount'), next: nextOf(facts.next) },
        speech,
      );
    case 'paused':
    case 'resumed':
    case 'cancelled':
      return renderStatusChange({ ...base, change: kind, cycleAmount, nextChargeAt }, speech);
    case 'charge_reminder':
      return renderChargeReminder({ ...base, cycleAmount, nextChargeAt }, speech);
    case 'cancel_scheduled':
    case 'skipped':
    case 'card_updated':
      return renderSubscriberChange(
        kind,
        {
          ...base,
          cycleAmount,
          nextChargeAt,
          endsAt: facts.ends_at === undefined ? null : dateOf(facts.ends_at, 'end date'),
          payment: paymentOf(facts.payment),
        },
        speech,
      );
  }
}

/** Whether a reminder still holds when its job runs (subscription-email-rules.ts). */
async function isReminderStillTrue(
  db: Queryable,
  subscription: SubscriptionEmailRow,
  job: Job,
  now: Date,
): Promise<boolean> {
  const organization = await findOrganizationById(db, subscription.organization_id);
  const daysBefore = organization ? settingsOf(organization).subscriptionEmails.reminder_days_before : null;
  return isChargeReminderStillTrue(
    {
      status: subscription.status,
      retryCount: subscription.retry_count,
      nextChargeAt: subscription.next_charge_at,
    },
    dateOf(job.payload.next_charge_at, 'next charge date'),
    daysBefore,
    now,
  );
}

/**
 * A subscription email's handler. It goes to the email of the order that started the subscription (none when that
 * order had none) and carries a fresh self-service link; a reminder is sent only if it still holds.
 */
function subscriptionEmailHandler(
  mailer: Mailer,
  options: NoticeOptions,
  kind: SubscriptionEmailKind,
): JobHandler {
  return noticeHandler(mailer, options, {
    kind: subscriptionEmailLogKind(kind),
    keyOf: (job) =>
      subscriptionEmailKey(kind, idOf(job.payload.subscription_id, 'subscription'), occurrenceOf(job)),
    async compose(db, organizationId, job, store, now) {
      const subscriptionId = idOf(job.payload.subscription_id, 'subscription');
      const subscription = await findSubscriptionForEmail(db, organizationId, subscriptionId);
      if (!subscription)
        throw new Error(`subscription ${subscriptionId} of organization ${organizationId} is gone`);
      const to = subscription.order_email.trim();
      if (to === '') return null;
      if (kind === 'charge_reminder' && !(await isReminderStillTrue(db, subscription, job, now))) return null;
      const base: SubscriptionEmailBase = {
        store,
        subscription: {
          id: subscription.id,
          itemName: subscription.item_name,
          quantity: subscription.quantity,
          currency: subscription.currency,
          intervalDays: subscription.interval_days,
          isTest: subscription.is_test,
        },
        manage: options.subscriberLinks.linkFor({ organizationId, subscriptionId }),
      };
      return {
        orderId: subscription.order_id,
        to,
        // The language of the cart its order came from (docs/emails.md, "Languages").
        rendered: renderSubscriptionEmail(
          kind,
          base,
          job.payload,
          await orderEmailSpeech(db, organizationId, subscription.order_id),
        ),
      };
    },
  });
}

/** Every subscription email's job and its handler (email-jobs.ts registers them). */
export function subscriptionEmailHandlers(
  mailer: Mailer,
  options: NoticeOptions,
): Record<string, JobHandler> {
  return Object.fromEntries(
    SUBSCRIPTION_EMAIL_KINDS.map((kind) => [
      subscriptionEmailJob(kind),
      subscriptionEmailHandler(mailer, options, kind),
    ]),
  );
}
