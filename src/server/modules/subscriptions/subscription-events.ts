// What the merchant's systems hear of a subscription (docs/webhooks.md, "Events"), and what its subscriber is emailed
// (docs/emails.md, "Subscription emails"), in the change's transaction.
import type { WebhookEventType } from '../../../contract/webhooks.js';
import type { Queryable } from '../../platform/db/database.js';
import { enqueueSubscriptionEventEmail } from '../emails/subscription-email-enqueue.js';
import type { SubscriptionEventCause } from '../emails/subscription-email-rules.js';
import { presentSubscription } from '../merchant/merchant-read-service.js';
import { emitWebhookEvent } from '../webhooks/webhook-events.js';
import { findSubscription, findSubscriptionCharges } from './subscriptions-repository.js';
import { major } from '../../platform/http/money-input.js';

/**
 * Emits `type` with the subscription as the merchant API shows it, as of this transaction, and enqueues the email it
 * sends the subscriber. `occurrence` tells this event from the subscription's earlier ones of the same type (a cycle,
 * an attempt, a time). `cause: 'dunning'` marks the end of a declined renewal's dunning, which that attempt's
 * failed-payment email tells; the other causes say what a subscription.updated changed.
 */
export async function emitSubscriptionEvent(
  tx: Queryable,
  organizationId: number,
  subscriptionId: number,
  type: Extract<WebhookEventType, `subscription.${string}`>,
  occurrence: string,
  now: Date,
  options: {
    cause?: SubscriptionEventCause;
    /** subscription.renewed: the cycle this renewal paid and its amount (minor units) */
    charged?: { cycle: number; amount: number };
  } = {},
): Promise<void> {
  const row = await findSubscription(tx, organizationId, subscriptionId);
  if (!row) throw new Error(`subscription ${subscriptionId} is not there`);
  const charges = await findSubscriptionCharges(tx, organizationId, [subscriptionId]);
  const data = presentSubscription(row, charges);
  const charged = options.charged && {
    cycle: options.charged.cycle,
    amount: major(options.charged.amount, row.currency),
  };
  await emitWebhookEvent(tx, organizationId, type, charged ? { ...data, charged } : data, now, {
    eventKey: `${type}:${subscriptionId}:${occurrence}`,
  });
  await enqueueSubscriptionEventEmail(
    tx,
    { type, occurrence, cause: options.cause ?? null, row, charges },
    now,
  );
}
