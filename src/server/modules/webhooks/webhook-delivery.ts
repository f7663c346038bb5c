// Sending one delivery (docs/webhooks.md, "Delivery"): signed as Standard Webhooks says, one attempt per job run,
// every attempt recorded with the receiver's answer.
import { lookup } from 'node:dns/promises';
import { Webhook } from 'standardwebhooks';
import { isIpAddress, isPublicIp } from '../../../domain/client-ip.js';
import type { JobHandler } from '../../platform/jobs/job-queue.js';
import { afterFailure } from '../../platform/jobs/retry-delays.js';
import { isDelivered, WEBHOOK_RETRY_DELAYS_SECONDS } from './webhook-rules.js';
import { findDeliveryToSend, recordWebhookAttempt } from './webhooks-repository.js';

/** How long a receiver may take to answer. */
const RECEIVER_TIMEOUT_MS = 15_000;
/** How much of the receiver's answer is kept with the attempt. */
const KEPT_RESPONSE_CHARACTERS = 1000;

export interface WebhookDeliveryOptions {
  /** WEBHOOKS_ALLOW_PRIVATE_URLS: send to names that resolve to loopback or private addresses */
  allowPrivate: boolean;
  fetch?: typeof fetch;
}

/** Whether the host's addresses are public: checked when sending too, since a name may point elsewhere by then. */
async function publicAddressProblem(hostname: string): Promise<string | null> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const addresses = isIpAddress(host)
    ? [host]
    : (await lookup(host, { all: true })).map((entry) => entry.address);
  const inside = addresses.find((address) => !isPublicIp(address));
  return inside === undefined ? null : `The URL's host resolves to a private address (${inside}): not sent.`;
}

export function createWebhookDeliveryHandler(options: WebhookDeliveryOptions): JobHandler {
  const send = options.fetch ?? fetch;
  return async (job, { db, now }) => {
    const deliveryId = Number(job.payload.delivery_id);
    const delivery = await findDeliveryToSend(db, deliveryId);
    if (!delivery || delivery.status === 'succeeded') return;

    const started = Date.now();
    let statusCode: number | null = null;
    let response: string;
    try {
      if (!delivery.active) throw new Error('The endpoint is disabled: not sent.');
      const url = new URL(delivery.url);
      const refused = options.allowPrivate ? null : await publicAddressProblem(url.hostname);
      if (refused) throw new Error(refused);
      const body = JSON.stringify(delivery.payload);
      const signature = new Webhook(delivery.secret).sign(delivery.message_id, now, body);
      const answer = await send(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'SecureCheckout-Webhooks/1',
          'webhook-id': delivery.message_id,
          'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
          'webhook-signature': signature,
        },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(RECEIVER_TIMEOUT_MS),
      });
      statusCode = answer.status;
      response = (await answer.text().catch(() => '')).slice(0, KEPT_RESPONSE_CHARACTERS);
    } catch (error) {
      response = (error instanceof Error ? error.message : String(error)).slice(0, KEPT_RESPONSE_CHARACTERS);
    }

    const delivered = isDelivered(statusCode);
    const next = delivered ? null : afterFailure(job.attempt, WEBHOOK_RETRY_DELAYS_SECONDS, now);
    await recordWebhookAttempt(
      db,
      {
        delivery_id: deliveryId,
        attempted_at: now,
        status_code: statusCode,
        response,
        duration_ms: Date.now() - started,
      },
      {
        status: delivered ? 'succeeded' : next?.retry ? 'pending' : 'failed',
        nextAttemptAt: next?.retry ? next.runAt : null,
      },
    );
    // The queue plans the next attempt by the same schedule.
    if (!delivered) throw new Error(statusCode === null ? response : `The receiver answered ${statusCode}.`);
  };
}
