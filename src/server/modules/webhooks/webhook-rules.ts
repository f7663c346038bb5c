// The webhooks' decisions (docs/webhooks.md): which URLs may receive events, when a failed delivery is tried again,
// what one event's message says.
import { isIpAddress, isPublicIp } from '../../../domain/client-ip.js';

export interface WebhookUrlPolicy {
  /** production: only https receivers */
  requireHttps: boolean;
  /** WEBHOOKS_ALLOW_PRIVATE_URLS: receivers on loopback and private networks (a merchant's own machine, tests) */
  allowPrivate: boolean;
}

/** Why a URL cannot receive events, in words the merchant can act on; null when it can. */
export function webhookUrlProblem(text: string, policy: WebhookUrlPolicy): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'Enter a full URL, such as https://example.com/webhooks.';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'Use an https:// URL.';
  if (policy.requireHttps && url.protocol !== 'https:')
    return 'Use an https:// URL: events carry customer data.';
  if (url.username || url.password) return 'Leave the user name and password out of the URL.';
  if (!policy.allowPrivate && !isPublicHost(url.hostname)) {
    return 'Use a public address: this URL names this machine or a private network.';
  }
  return null;
}

/** A host name that does not name this machine or a private network by itself (a name's addresses are checked when sent). */
export function isPublicHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.endsWith('.local') ||
    host.endsWith('.internal')
  )
    return false;
  return isIpAddress(host) ? isPublicIp(host) : host.includes('.');
}

/**
 * Seconds between a delivery's attempts: the first at once, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, 24 h and
 * 24 h, about three and a half days in all, so a receiver that is down over a weekend still gets its events.
 */
export const WEBHOOK_RETRY_DELAYS_SECONDS = [
  5, 300, 1800, 7200, 18_000, 36_000, 36_000, 86_400, 86_400,
] as const;

/** A 2xx answer is a delivery; anything else (a redirect too: it is not followed) is tried again. */
export function isDelivered(statusCode: number | null): boolean {
  return statusCode !== null && statusCode >= 200 && statusCode < 300;
}

/** The message body of one event (Standard Webhooks' shape: type, timestamp, data). */
export function webhookMessage(
  type: string,
  data: unknown,
  at: Date,
): { type: string; timestamp: string; data: unknown } {
  return { type, timestamp: at.toISOString(), data };
}
