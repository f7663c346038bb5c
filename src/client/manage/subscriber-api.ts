// The page's calls to the subscriber API (docs/api.md, "Subscriber API"): the link's token goes in the
// Authorization header, never in a query string; the page's language in Accept-Language, so a refusal comes back in
// it; every answer is parsed with the contract's schema.
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
  | { ok: false; kind: 'link' | 'refused'; message: string; code?: string }
  /** a new card's bank asks the subscriber to authenticate it first (3-D Secure): nothing is saved yet */
  | { ok: false; kind: 'authenticate'; action: CardAction; message: string };

/** The page's own words when the store's answer has none: its language's. */
export interface ApiWords {
  language: string;
  unreachable: string;
  unexpected: string;
}

async function call(
  words: ApiWords,
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
        'accept-language': words.language,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch {
    return { ok: false, kind: 'refused', message: words.unreachable };
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
      : { ok: false, kind: 'refused', message: words.unexpected };
  }
  const refusal = (payload && typeof payload === 'object' ? payload : {}) as {
    message?: unknown;
    code?: unknown;
  };
  const message = typeof refusal.message === 'string' ? refusal.message : words.unreachable;
  const kind = response.status === 401 || response.status === 404 ? 'link' : 'refused';
  return { ok: false, kind, message, ...(typeof refusal.code === 'string' ? { code: refusal.code } : {}) };
}

export type SubscriberAction = 'pause' | 'resume' | 'cancel' | 'skip' | 'card';

export const subscriberApi = {
  read: (words: ApiWords, token: string) => call(words, token, 'GET', ''),
  act: (words: ApiWords, token: string, action: SubscriberAction, body: Record<string, unknown> = {}) =>
    call(words, token, 'POST', `/${action}`, body),
};
