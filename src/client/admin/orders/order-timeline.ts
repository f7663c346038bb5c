// An order's story on its screen (docs/dashboard.md, "Orders"): everything known about it with its time, oldest
// first, as one list. Pure (unit tested in order-timeline.test.ts).
import type { EmailSummary } from '../../../contract/email.js';
import type { OrderDetail } from '../../../contract/merchant.js';
import type { AuditEventSchema } from '../../../contract/staff.js';
import type { z } from '../../../contract/zod.js';
import type { OrderWebhookDelivery } from '../../../contract/webhooks.js';
import { describeAction } from '../kit/audit-trail.js';
import { formatMoney } from '../kit/format.js';
import { brandName } from './refund-rules.js';

type AuditEvent = z.infer<typeof AuditEventSchema>;

export interface TimelineEntry {
  key: string;
  /** ISO time */
  at: string;
  text: string;
}

/** "order_receipt" → "Order receipt". */
export function kindWords(kind: string): string {
  const words = kind.replace(/[_.]/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const ATTEMPT_WORDS: Record<OrderDetail['payment_attempts'][number]['status'], string> = {
  approved: 'approved',
  declined: 'declined',
  error: 'not made: the processor had an error',
  requires_action: "waiting for the shopper's bank to confirm it",
};

const REFUND_WORDS = {
  pending: 'pending: the processor has not confirmed it yet',
  succeeded: 'made',
  failed: 'failed',
} as const;

const EMAIL_WORDS: Record<EmailSummary['status'], string> = {
  queued: 'waiting to be sent',
  retrying: 'being retried',
  sent: 'sent',
  kept: 'kept (no mail server is set up)',
  failed: 'not sent',
};

const DELIVERY_WORDS = { pending: 'being sent', succeeded: 'delivered', failed: 'not delivered' } as const;

function paidWith(attempt: OrderDetail['payment_attempts'][number]): string {
  if (attempt.method === 'paypal') return 'PayPal';
  if (attempt.method === 'none') return 'no payment method';
  return attempt.card_last4 ? `${brandName(attempt.card_brand)} ending ${attempt.card_last4}` : 'card';
}

export interface TimelineInput {
  order: OrderDetail;
  emails: readonly EmailSummary[];
  deliveries: readonly OrderWebhookDelivery[];
  changes: readonly AuditEvent[];
}

/** Created, each payment attempt, completed, each refund, email, webhook delivery and dashboard change: oldest first. */
export function orderTimeline({ order, emails, deliveries, changes }: TimelineInput): TimelineEntry[] {
  const money = (amount: number) => formatMoney(amount, order.currency);
  const entries: TimelineEntry[] = [
    { key: 'created', at: order.created_at, text: `Order created for ${order.email || 'a shopper'}` },
  ];
  for (const attempt of order.payment_attempts) {
    const why = attempt.message && attempt.status !== 'approved' ? ` (${attempt.message})` : '';
    entries.push({
      key: `attempt-${attempt.id}`,
      at: attempt.created_at,
      text: `Payment of ${money(attempt.amount)} by ${paidWith(attempt)} ${ATTEMPT_WORDS[attempt.status]}${why}${
        attempt.is_test ? ', test' : ''
      }`,
    });
  }
  if (order.completed_at)
    entries.push({
      key: 'completed',
      at: order.completed_at,
      text: `Order completed: ${money(order.total)}`,
    });
  for (const refund of order.refunds) {
    const reason = refund.reason ? `, reason: ${refund.reason}` : '';
    const error = refund.status === 'failed' && refund.error ? ` (${refund.error})` : '';
    entries.push({
      key: `refund-${refund.id}`,
      at: refund.created_at,
      text: `Refund of ${money(refund.amount)} ${REFUND_WORDS[refund.status]}${error}${reason}`,
    });
  }
  for (const email of emails) {
    entries.push({
      key: `email-${email.id}`,
      at: email.sent_at ?? email.created_at,
      text: `${kindWords(email.kind)} email to ${email.to} ${EMAIL_WORDS[email.status]}`,
    });
  }
  for (const delivery of deliveries) {
    const tries = delivery.attempts.length;
    entries.push({
      key: `delivery-${delivery.id}`,
      at: delivery.created_at,
      text: `Webhook ${delivery.event_type} to ${delivery.endpoint_url} ${DELIVERY_WORDS[delivery.status]} (${tries} ${
        tries === 1 ? 'attempt' : 'attempts'
      })`,
    });
  }
  for (const change of changes) {
    const who = change.staff.name || change.staff.email;
    entries.push({
      key: `change-${change.id}`,
      at: change.created_at,
      text: `${describeAction(change.action)} in the dashboard by ${who}`,
    });
  }
  // Stable: entries at the same moment keep the order above (created before its first attempt, and so on).
  return entries
    .map((entry, index) => ({ entry, index, time: Date.parse(entry.at) }))
    .sort((a, b) => a.time - b.time || a.index - b.index)
    .map(({ entry }) => entry);
}
