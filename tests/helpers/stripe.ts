import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import type { Config } from '../../src/server/platform/config.js';
import type { Database } from '../../src/server/platform/db/database.js';
import { STRIPE_API_VERSION } from '../../src/server/platform/payments/stripe-client.js';
import { createPaymentGateways } from '../../src/server/platform/payments/select-gateway.js';
import {
  SECRET_KEY,
  stripeReplay,
  type Step,
  type StripeReplay,
} from '../../src/server/platform/payments/testing/stripe-replay.js';
import { createTestApp, type TestApp } from './test-app.js';

export const WEBHOOK_SECRET = 'whsec_testEndpointSigningSecretForTests';
export const WEBHOOK_URL = '/checkout/api/webhooks/stripe';

/**
 * The real app with Stripe configured, its card gateway on a replaying fetch: each test says what Stripe answers
 * with `stripe.expect(...)`, and checks with verifyStripeReplays (afterEach) that it was asked exactly that.
 */
export async function createStripeTestApp(): Promise<
  TestApp & { stripe: { expect(...steps: Step[]): StripeReplay } }
> {
  let current: StripeReplay = stripeReplay();
  const fetchThroughReplay = ((input: string | URL | Request, init?: RequestInit) =>
    current.fetch(input, init)) as typeof fetch;
  const t = await createTestApp({
    config: {
      stripe: {
        secretKey: SECRET_KEY,
        publishableKey: 'pk_test_51QvRtJ2eZvKYlo2C',
        webhookSecret: WEBHOOK_SECRET,
      },
    },
    // The app's own choice of gateways (select-gateway.ts): Stripe for cards, as its keys are set.
    gateways: (db: Database, config: Config) =>
      createPaymentGateways(config, { db, fetch: fetchThroughReplay, timeoutMs: 200 }),
  });
  return {
    ...t,
    stripe: {
      expect(...steps: Step[]) {
        current = stripeReplay(...steps);
        return current;
      },
    },
  };
}

/** An event as Stripe sends it, around `object`. */
export function stripeEvent(
  type: string,
  object: Record<string, unknown>,
  id = `evt_${randomBytes(12).toString('hex')}`,
) {
  return {
    id,
    object: 'event',
    api_version: STRIPE_API_VERSION,
    created: Math.floor(Date.now() / 1000),
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}

/** POSTs the event signed as Stripe signs it (or with the header given). */
export async function deliver(
  app: FastifyInstance,
  event: unknown,
  options: { secret?: string; signature?: string | null; contentType?: string } = {},
) {
  const payload = JSON.stringify(event);
  const signature =
    options.signature !== undefined
      ? options.signature
      : Stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? WEBHOOK_SECRET });
  const response = await app.inject({
    method: 'POST',
    url: WEBHOOK_URL,
    // Stripe sends its events as `application/json; charset=utf-8`.
    headers: {
      'content-type': options.contentType ?? 'application/json; charset=utf-8',
      ...(signature === null ? {} : { 'stripe-signature': signature }),
    },
    payload,
  });
  return { status: response.statusCode, body: JSON.parse(response.body) as Record<string, unknown> };
}

/** A PaymentIntent as the events carry it: the card is an id, never expanded. */
export function paymentIntent(
  id: string,
  order: { organizationId: number; orderId: number },
  overrides: Record<string, unknown> = {},
) {
  return {
    id,
    object: 'payment_intent',
    amount: 1800,
    currency: 'usd',
    status: 'succeeded',
    payment_method: 'pm_1QvRtJ2eZvKYlo2Cw8aVisa',
    customer: null,
    setup_future_usage: null,
    last_payment_error: null,
    metadata: {
      organization_id: String(order.organizationId),
      order_id: String(order.orderId),
      attempt: '1',
    },
    ...overrides,
  };
}

/** The order a cart's express start (or card payment) placed, as the webhook finds it. */
export async function orderOfCart(db: Database, cartToken: string) {
  const { rows } = await db.query<{ organizationId: number; orderId: number; status: string; total: number }>(
    `SELECT o.organization_id AS "organizationId", o.id AS "orderId", o.status, o.total
       FROM orders o JOIN carts c ON c.organization_id = o.organization_id AND c.id = o.cart_id
      WHERE c.token = $1`,
    [cartToken],
  );
  const row = rows[0];
  if (!row) throw new Error('the cart has no order');
  return row;
}
