import { isRetryableFailure, type ApiFailure, type Say } from './api-error-catalogue.js';

/**
 * One order attempt = one Idempotency-Key. A retryable failure (no answer, 5xx) is retried as the SAME attempt with
 * the same key, so the server answers the first result instead of charging twice; any answered outcome (a decline,
 * invalid fields) ends the attempt, and the next press starts a new one with a new key.
 */
export type OrderFailureKind =
  'declined' | 'invalid' | 'already_complete' | 'rate_limited' | 'retryable' | 'not_authorized' | 'refused';

export function classifyOrderFailure(failure: ApiFailure): OrderFailureKind {
  if (failure.status === 402) return 'declined';
  if (failure.status === 409) return 'already_complete';
  if (failure.status === 429) return 'rate_limited';
  if (failure.status === 401 || failure.status === 403) return 'not_authorized';
  if (failure.status === 400 || failure.status === 422) return 'invalid';
  if (isRetryableFailure(failure)) return 'retryable';
  return 'refused';
}

/** Keep the key for a retry of the same attempt only when the last try may not have reached the server's answer. */
export function shouldKeepIdempotencyKey(kind: OrderFailureKind): boolean {
  return kind === 'retryable';
}

/**
 * What the page says when orders are refused for a while. The store's own refusals (codes `too_many_…`) already say
 * how long to wait; a refusal from something on the way (a proxy's 429) gets the wait from its Retry-After, said in
 * the page's language.
 */
export function rateLimitedMessage(failure: ApiFailure, say: Say): string {
  const seconds = failure.retryAfterSeconds;
  if (failure.code.startsWith('too_many_') || !seconds) return failure.message;
  const wait =
    seconds < 60
      ? say('common.try_again_in_seconds', { count: seconds })
      : say('common.try_again_in_minutes', { count: Math.ceil(seconds / 60) });
  return `${failure.message} ${wait}`;
}

/** The first attempt creates the order; once the cart has an order (after a decline) it is updated instead. */
export function orderRequestFor(
  orderId: number | null,
): { method: 'POST'; path: 'orders' } | { method: 'PUT'; path: string } {
  return orderId === null ? { method: 'POST', path: 'orders' } : { method: 'PUT', path: `orders/${orderId}` };
}

export type PaymentChoice = 'none' | 'paypal' | 'card';

/** A free, one-off order pays nothing; an approved express payment pays by PayPal; otherwise by card. */
export function paymentChoiceFor(facts: {
  total: number;
  isRecurring: boolean;
  expressPaymentTokenId: string | null;
}): PaymentChoice {
  if (facts.total === 0 && !facts.isRecurring) return 'none';
  if (facts.expressPaymentTokenId) return 'paypal';
  return 'card';
}
