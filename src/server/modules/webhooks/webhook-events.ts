// Telling the merchant's systems what happened (docs/webhooks.md): called inside the transaction of the change, so
// an event is sent exactly when its change is committed, and never lost with a crash.
import { randomBytes } from 'node:crypto';
import type { WebhookEventType } from '../../../contract/webhooks.js';
import type { Queryable } from '../../platform/db/database.js';
import { enqueueJob } from '../../platform/jobs/job-queue.js';
import { webhookMessage, WEBHOOK_RETRY_DELAYS_SECONDS } from './webhook-rules.js';
import { findSubscribedEndpoints, insertWebhookDelivery } from './webhooks-repository.js';

export const DELIVER_WEBHOOK_JOB = 'webhook.deliver';

/** The job that sends a delivery: its first sending, or its nth resend. */
export function deliveryJobKey(deliveryId: number, resend: number): string {
  return resend === 0 ? `webhook:${deliveryId}` : `webhook:${deliveryId}:resend:${resend}`;
}

/**
 * Records the event for every active endpoint of the organization that asked for it, each a delivery sent by the
 * job queue with its retries. `eventKey` names the event and its object (subscription.created:7): emitted again, an
 * event adds no delivery an endpoint has. `data` is the object as the merchant API shows it, as of this transaction.
 */
export async function emitWebhookEvent(
  tx: Queryable,
  organizationId: number,
  type: WebhookEventType,
  data: unknown,
  now: Date,
  options: { eventKey: string },
): Promise<void> {
  const endpoints = await findSubscribedEndpoints(tx, organizationId, type);
  if (endpoints.length === 0) return;
  const payload = webhookMessage(type, data, now);
  for (const endpoint of endpoints) {
    const deliveryId = await insertWebhookDelivery(
      tx,
      {
        organizationId,
        endpointId: endpoint.id,
        messageId: `msg_${randomBytes(16).toString('base64url')}`,
        eventType: type,
        eventKey: options.eventKey,
        payload,
      },
      now,
    );
    if (deliveryId === null) continue;
    await enqueueJob(
      tx,
      {
        kind: DELIVER_WEBHOOK_JOB,
        payload: { delivery_id: deliveryId },
        organizationId,
        key: deliveryJobKey(deliveryId, 0),
        retryDelaysSeconds: WEBHOOK_RETRY_DELAYS_SECONDS,
      },
      now,
    );
  }
}
