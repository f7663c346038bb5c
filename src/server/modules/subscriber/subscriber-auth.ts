// Who may use the subscriber API: whoever holds a subscription's signed, unexpired self-service link
// (docs/subscriptions.md, "Self-service"). The page sends the link's token as "Authorization: Bearer <token>".
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import type { TokenService } from '../../platform/security/tokens.js';
import { clientIpOf } from '../organizations/request-context.js';
import { findOrganizationById } from '../organizations/organizations-repository.js';
import { subscriptionGone, type SubscriberSubject } from './subscriber-service.js';

const LINK_MESSAGES = {
  missing: 'Open the link from your subscription email to manage your subscription.',
  invalid: 'This link is not valid. Ask the store for a new link to manage your subscription.',
  expired: 'This link has expired. Ask the store for a new link to manage your subscription.',
} as const;

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  return /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
}

export type SubscriberChange = 'none' | 'status' | 'card';

/**
 * The subscription the request's link names, after the abuse limits (docs/security.md, "Abuse limits"): a refused
 * link counts against the client's address too. 401 for a missing, bad or expired link; 404 when the subscription is
 * not (or no longer) the link's organization's.
 */
export async function subscriberOf(
  request: FastifyRequest,
  context: AppContext,
  tokens: Pick<TokenService, 'verifySubscriberToken'>,
  change: SubscriberChange,
): Promise<SubscriberSubject> {
  const token = bearerToken(request);
  const checked = await tokens.verifySubscriberToken(token);
  const ip = clientIpOf(request, context.config.trustedProxies);
  await context.limits.subscriberRequest({ ip, subscription: checked.ok ? checked.value : null, change });
  if (!checked.ok) {
    const reason = token === undefined ? 'missing' : checked.reason;
    throw new AppError(401, `subscriber_link_${reason}`, LINK_MESSAGES[reason]);
  }
  const organization = await findOrganizationById(context.db, checked.value.organizationId);
  if (!organization) throw subscriptionGone();
  return { organization, subscriptionId: checked.value.subscriptionId };
}
