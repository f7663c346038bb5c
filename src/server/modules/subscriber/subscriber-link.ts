// A subscriber's self-service link (docs/subscriptions.md, "Self-service"): signed, expiring, one subscription.
import type { TokenService } from '../../platform/security/tokens.js';

/** How long a link in an email opens the subscription: long enough to act on an email read late. */
export const SUBSCRIBER_LINK_LIFETIME_SECONDS = 30 * 24 * 3600;

/** The page's path before the token; the page route and the link agree on it. */
export const SUBSCRIBER_PAGE_PATH = '/checkout/manage/';

export function subscriberPageUrl(publicUrl: string, token: string): string {
  return `${publicUrl}${SUBSCRIBER_PAGE_PATH}${token}`;
}

/** Makes a fresh link to one subscription's self-service page (emails, and the merchant who passes one on). */
export interface SubscriberLinks {
  linkFor(subscription: { organizationId: number; subscriptionId: number }): { url: string; expiresAt: Date };
}

export function createSubscriberLinks(
  tokens: Pick<TokenService, 'issueSubscriberToken'>,
  publicUrl: string,
  now: () => Date,
): SubscriberLinks {
  return {
    linkFor(subscription) {
      const token = tokens.issueSubscriberToken(subscription, SUBSCRIBER_LINK_LIFETIME_SECONDS);
      const issuedAt = Math.floor(now().getTime() / 1000) * 1000;
      return {
        url: subscriberPageUrl(publicUrl, token),
        expiresAt: new Date(issuedAt + SUBSCRIBER_LINK_LIFETIME_SECONDS * 1000),
      };
    },
  };
}
