// Sending one delivery (docs/webhooks.md, "Delivery"): signed as Standard Webhooks says, one attempt per job run,
// every attempt recorded with the receiver's answer.
import type { LookupAddress, LookupAllOptions, LookupOptions } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { Agent, fetch } from 'undici';
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
}

/** The receiver's host resolves to an address inside: refused before any byte is sent. */
class PrivateAddressError extends Error {}

/**
 * A resolver for the receiver's connection that refuses loopback and private addresses. It is the connection's own
 * lookup, so the address checked is the address connected to: a name cannot pass the check and then resolve inside.
 */
export function publicOnlyLookup(
  resolve: (hostname: string, options: LookupAllOptions) => Promise<LookupAddress[]> = lookup,
) {
  return (
    hostname: string,
    options: LookupOptions,
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    resolve(hostname, { ...options, all: true, verbatim: true })
      .then((entries) => {
        const inside = entries.find((entry) => !isPublicIp(entry.address));
        if (inside) {
          throw new PrivateAddressError(
            `The URL's host resolves to a private address (${inside.address}): not sent.`,
          );
        }
        if (options.all) callback(null, entries);
        else callback(null, entries[0]!.address, entries[0]!.family);
      })
      .catch((error: Error) => callback(error, ''));
  };
}

/** The dispatcher a delivery goes through: any address when the operator allows private URLs, else public only. */
function receiverDispatcher(allowPrivate: boolean): Agent {
  return new Agent(allowPrivate ? {} : { connect: { lookup: publicOnlyLookup() } });
}

/** An IP literal in the URL needs no lookup (and gets none): it is checked here. */
function literalAddressProblem(hostname: string): string | null {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (!isIpAddress(host) || isPublicIp(host)) return null;
  return `The URL's host is a private address (${host}): not sent.`;
}

/** What a failed send says: the refusal's own words, not fetch's "fetch failed". */
function failureMessage(error: unknown): string {
  let cause: unknown = error;
  while (cause instanceof Error) {
    if (cause instanceof PrivateAddressError) return cause.message;
    if (cause.cause === undefined) break;
    cause = cause.cause;
  }
  if (error instanceof Error) {
    const detail = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${error.message}${detail}`;
  }
  return String(error);
}

export function createWebhookDeliveryHandler(options: WebhookDeliveryOptions): JobHandler {
  const dispatcher = receiverDispatcher(options.allowPrivate);
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
      const refused = options.allowPrivate ? null : literalAddressProblem(url.hostname);
      if (refused) throw new PrivateAddressError(refused);
      const body = JSON.stringify(delivery.payload);
      const signature = new Webhook(delivery.secret).sign(delivery.message_id, now, body);
      const answer = await fetch(url, {
        dispatcher,
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
      response = failureMessage(error).slice(0, KEPT_RESPONSE_CHARACTERS);
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
