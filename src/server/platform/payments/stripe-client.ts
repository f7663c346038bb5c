import Stripe from 'stripe';

/**
 * The Stripe API version this adapter was written and recorded against (fixtures/stripe/). Pinned, so a change of the
 * account's default version in Stripe's dashboard does not change the shapes we read.
 */
export const STRIPE_API_VERSION = '2026-10-28.endive';

export interface StripeClientOptions {
  secretKey: string;
  /** tests pass a replaying fetch (testing/stripe-replay.ts); the global fetch otherwise */
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/**
 * The SDK client. No retries of its own: the order path retries with the attempt's idempotency key, and a call that
 * hangs must not hold the shopper longer than one timeout (docs/payments.md, "Stripe").
 */
export function createStripeClient(options: StripeClientOptions): Stripe {
  return new Stripe(options.secretKey, {
    apiVersion: STRIPE_API_VERSION,
    httpClient: Stripe.createFetchHttpClient(options.fetch ?? fetch),
    maxNetworkRetries: 0,
    timeout: options.timeoutMs ?? 20_000,
    telemetry: false,
  });
}
