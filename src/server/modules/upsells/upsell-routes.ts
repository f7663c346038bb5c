import type { FastifyRequest } from 'fastify';
import { UpsellDecisionSchema, UpsellStateSchema, type UpsellDecision } from '../../../contract/upsell.js';
import { z } from '../../../contract/zod.js';
import type { AppContext } from '../../platform/context.js';
import type { Router } from '../../platform/http/router.js';
import { SHOPPER_BASE } from '../carts/cart-routes.js';
import {
  checkIdempotencyKey,
  hashIdempotencyKey,
  hashRequest,
  runIdempotent,
} from '../orders/idempotency.js';
import { shopperOf } from '../organizations/request-context.js';
import { declineUpsell } from './upsell-decline.js';
import { acceptUpsell } from './upsell-accept.js';
import { readUpsell, type UpsellDependencies } from './upsell-service.js';

const UpsellParamsSchema = z.strictObject({
  cart_token: z.string().check(z.maxLength(80)),
  order_id: z.pipe(z.string().check(z.regex(/^\d{1,15}$/)), z.transform(Number)),
});

const responses = {
  200: {
    description: 'The offer shown now (null when none is left) and the orders upsells made',
    schema: UpsellStateSchema,
  },
  401: { description: 'Missing, invalid or expired access token' },
  403: { description: 'Missing, invalid or expired CSRF token' },
  404: { description: 'No such cart, completed order or offer step' },
};

export function registerUpsellRoutes(
  router: Router,
  context: AppContext,
  deps: UpsellDependencies & { idempotencySecret: Uint8Array },
): void {
  const { clock } = context;
  const base = `${SHOPPER_BASE}/carts/:cart_token/orders/:order_id/upsell`;

  /** An accept or a decline, once per Idempotency-Key. */
  const answer = async (
    request: FastifyRequest,
    params: { cart_token: string; order_id: number },
    decision: UpsellDecision,
    kind: 'accept' | 'decline',
  ) => {
    const shopper = shopperOf(request);
    const now = clock.now();
    const key = checkIdempotencyKey(request.headers['idempotency-key']);
    const outcome = await runIdempotent(
      deps.db,
      {
        organizationId: shopper.organizationId,
        scope: 'upsells',
        keyHash:
          key === undefined
            ? undefined
            : hashIdempotencyKey(deps.idempotencySecret, shopper.organizationId, key),
        requestHash: hashRequest({ kind, params, step: decision.step, auth: decision.authenticated_payment }),
        now,
        leaseMs: deps.paymentLeaseMs,
      },
      async (answers) => {
        const input = {
          shopper,
          cartToken: params.cart_token,
          orderId: params.order_id,
          now,
          decision,
          answers,
        };
        const body = kind === 'accept' ? await acceptUpsell(deps, input) : await declineUpsell(deps, input);
        return { status: 200, body };
      },
    );
    return outcome;
  };

  router.add({
    method: 'GET',
    url: base,
    summary: 'Read the one-click offer shown after a completed order, if any',
    description:
      'The first read shows the first offer; its countdown ends at expires_at (docs/api.md, "Upsells").',
    tags: ['shopper'],
    guard: 'shopper',
    params: UpsellParamsSchema,
    responses,
    handler: ({ params, request }) =>
      readUpsell(deps, {
        shopper: shopperOf(request),
        cartToken: params.cart_token,
        orderId: params.order_id,
        now: clock.now(),
      }),
  });

  router.add({
    method: 'POST',
    url: `${base}/accept`,
    summary: "Accept an offer: charge the order's card for it once and make its linked order",
    description:
      'Send an Idempotency-Key header. A retry, a second click or a second tab never charges twice; a payment the bank ' +
      'wants authenticated answers action.type "authenticate", then send the accept again with authenticated_payment.',
    tags: ['shopper'],
    guard: 'shopper',
    params: UpsellParamsSchema,
    body: UpsellDecisionSchema,
    responses: {
      ...responses,
      402: {
        description:
          "The card was declined, or the bank's authentication failed; nothing was charged and the offer may be declined",
      },
      409: {
        description:
          'The offer was declined, its charge is in progress (Retry-After), or the authenticated payment is not for its amount',
      },
      410: { description: 'The offer ended; nothing was charged' },
      422: { description: 'Invalid fields' },
      503: { description: 'The payment service did not answer; send the same request again (Retry-After)' },
    },
    handler: async ({ params, body, request, reply }) => {
      const outcome = await answer(request, params, body, 'accept');
      return reply.code(outcome.status).send(outcome.body);
    },
  });

  router.add({
    method: 'POST',
    url: `${base}/decline`,
    summary: 'Decline an offer: the downsell, the next offer or none follows',
    description:
      'Send an Idempotency-Key header. Declining the same step again answers the same. A step whose accept waits for ' +
      "the bank's authentication is asked about at the processor first: paid, the offer stays bought (409 " +
      'upsell_accepted); not paid, it is cancelled there and the step declined.',
    tags: ['shopper'],
    guard: 'shopper',
    params: UpsellParamsSchema,
    body: UpsellDecisionSchema,
    responses: {
      ...responses,
      409: {
        description:
          'The offer was accepted (also when the bank confirmed its yes before this no), or its accept is still being charged (Retry-After)',
      },
      410: { description: 'The offer ended; nothing was charged' },
      422: { description: 'Invalid fields' },
      503: { description: 'The payment service did not answer; send the same request again (Retry-After)' },
    },
    handler: async ({ params, body, request, reply }) => {
      const outcome = await answer(request, params, body, 'decline');
      return reply.code(outcome.status).send(outcome.body);
    },
  });
}
