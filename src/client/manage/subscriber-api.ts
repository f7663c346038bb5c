// The page's calls to the subscriber API (docs/api.md, "Subscriber API"): the link's token goes in the
// Authorization header, never in a query string; every answer is parsed with the contract's schema.
import {
  CardActionSchema,
  SubscriberSubscriptionSchema,
  type CardAction,
  type SubscriberSubscription,
} from '../../contract/subscriber.js';

const BASE = '/checkout/api/subscriber/subscription';

export type SubscriberAnswer =
  | { ok: true; subscription: SubscriberSubscription }
  /** `link`: the link itself is refused (bad, expired, or its subscription is gone); the page says to ask the store */
  | { ok: false; kind: 'link' | 'refused'; message: string }
  /** a new card's bank asks the subscriber to authenticate it first (3-D Secure): nothing is saved yet */
  | { ok: false; kind: 'authenticate'; action: CardAction; message: string };

const UNREACHABLE = 'We could not reach the store. Check your connection and try again.';

async function call(
  token: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<SubscriberAnswer> {
  let response: Response;
  try {
    response = await fetch(`${BASE}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch {
    return { ok: false, kind: 'refused', message: UNREACHABLE };
  }
  const payload: unknown = await response.json().catch(() => null);
  if (response.status === 202) {
    const action = CardActionSchema.safeParse(payload);
    if (action.success) return { ok: false, kind: 'authenticate', action: action.data, message: '' };
  }
  if (response.ok) {
    const parsed = SubscriberSubscriptionSchema.safeParse(payload);
    return parsed.success
      ? { ok: true, subscription: parsed.data }
      : { ok: false, kind: 'refused', message: 'The store answered something unexpected. Please try again.' };
  }
  const message =
    payload && typeof payload === 'object' && typeof (payload as { message?: unknown }).message === 'string'
      ? (payload as { message: string }).message
      : UNREACHABLE;
  const kind = response.status === 401 || response.status === 404 ? 'link' : 'refused';
  return { ok: false, kind, message };
}

export type SubscriberAction = 'pause' | 'resume' | 'cancel' | 'skip' | 'card';

export const subscriberApi = {
  read: (token: string) => call(token, 'GET', ''),
  act: (token: string, action: SubscriberAction, body: Record<string, unknown> = {}) =>
    call(token, 'POST', `/${action}`, body),
};
