import type { FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import type { AppContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { handleStripeEvent } from './stripe-webhook-service.js';

export const STRIPE_WEBHOOK_PATH = '/checkout/api/webhooks/stripe';

// Stripe's events are a few KB; the largest objects (a PaymentIntent with its charges) stay well under this.
const WEBHOOK_BODY_LIMIT = 512 * 1024;

/**
 * POST /checkout/api/webhooks/stripe (docs/operations.md, "Stripe"). The signature covers the exact bytes Stripe sent,
 * so this scope keeps the body as its raw text instead of the app's JSON parser; the event is parsed only once its
 * signature is verified. No guard: the signature is the authentication.
 */
export async function registerPaymentWebhookRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: WEBHOOK_BODY_LIMIT },
      (_request, body, done) => done(null, body),
    );

    scope.post(STRIPE_WEBHOOK_PATH, async (request, reply) => {
      const stripe = context.config.stripe;
      if (stripe === null) {
        throw new AppError(404, 'not_found', 'Stripe is not configured on this checkout.');
      }
      if (stripe.webhookSecret === null) {
        // 503, not 404: Stripe keeps delivering until the operator sets the secret (docs/operations.md, "Stripe").
        throw new AppError(
          503,
          'webhook_not_configured',
          "Stripe webhooks are not configured: set STRIPE_WEBHOOK_SECRET to the endpoint's signing secret.",
        );
      }
      const signature = request.headers['stripe-signature'];
      if (typeof request.body !== 'string' || typeof signature !== 'string') {
        throw new AppError(
          400,
          'invalid_signature',
          'Send the event as Stripe signs it: a JSON body with its Stripe-Signature header.',
        );
      }
      let event: Stripe.Event;
      try {
        event = Stripe.webhooks.constructEvent(request.body, signature, stripe.webhookSecret);
      } catch {
        throw new AppError(
          400,
          'invalid_signature',
          "The Stripe-Signature header does not match this body and the endpoint's signing secret, or is too old.",
        );
      }
      const outcome = await handleStripeEvent(
        {
          db: context.db,
          clock: context.clock,
          logger: request.log,
          gateway: context.gateways.card,
        },
        event,
      );
      return reply.send({ received: true, outcome });
    });
  });
}
