import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  CreateOrderSchema,
  OrderResponseSchema,
  PaymentTokenSchema,
  UpdateOrderSchema,
  type CreateOrder,
  type UpdateOrder,
} from '../../../contract/order.js';
import { z } from '../../../contract/zod.js';
import type { AppContext } from '../../platform/context.js';
import { noteOrderAttempt } from '../../platform/observability/metrics.js';
import { shopperOf } from '../organizations/request-context.js';
import type { Router } from '../../platform/http/router.js';
import { readPaymentToken } from '../express/express-service.js';
import { checkIdempotencyKey, hashIdempotencyKey, hashRequest, runIdempotent } from './idempotency.js';
import { submitOrder, type OrderDependencies } from './order-service.js';
import { SHOPPER_BASE } from '../carts/cart-routes.js';
import { refuseCardData } from './card-data-refusal.js';

const OrderParamsSchema = z.strictObject({
  order_id: z.pipe(z.string().check(z.regex(/^\d{1,15}$/)), z.transform(Number)),
});
const PaymentTokenParamsSchema = z.strictObject({
  cart_token: z.string().check(z.maxLength(80)),
  payment_token_id: z.string().check(z.maxLength(80)),
});

/** What identifies a request for its Idempotency-Key (a card is a processor's token: no card data is in it). */
function requestFingerprint(route: string, body: CreateOrder | UpdateOrder): string {
  return hashRequest({ route, body });
}

const responses = {
  200: {
    description: 'The cart; order.status "complete", or an express redirect action',
    schema: OrderResponseSchema,
  },
  401: { description: 'Missing, invalid or expired access token' },
  402: { description: 'Declined: the order is kept; retry with PUT orders/{order_id}' },
  403: { description: 'Missing, invalid or expired CSRF token' },
  404: { description: 'No such cart or order' },
  409: { description: 'Already complete, or a payment for this cart is in progress' },
  422: {
    description:
      "Invalid fields (every problem in fields), a used-up code, a bad express payment token, a card token that is used or unknown, or card details (card_data_refused: cards go only into the processor's frames)",
  },
  429: { description: 'Too many failed payments (Retry-After)' },
  503: { description: 'The payment service did not answer; nothing was charged (Retry-After)' },
};

export function registerOrderRoutes(
  router: Router,
  context: AppContext,
  deps: OrderDependencies & {
    /** what Idempotency-Keys are hashed with (idempotencyKeySecret) */
    idempotencySecret: Uint8Array;
  },
): void {
  const { db, clock } = context;

  /** One attempt of POST or PUT orders, once per Idempotency-Key. */
  const attempt = async (
    request: FastifyRequest,
    reply: FastifyReply,
    order: { kind: 'create' | 'update'; orderId: number | null; body: CreateOrder | UpdateOrder },
  ) => {
    const shopper = shopperOf(request);
    const now = clock.now();
    const route = order.kind === 'create' ? 'POST orders' : `PUT orders/${order.orderId}`;
    const key = checkIdempotencyKey(request.headers['idempotency-key']);
    const outcome = await runIdempotent(
      db,
      {
        organizationId: shopper.organizationId,
        scope: 'orders',
        keyHash:
          key === undefined
            ? undefined
            : hashIdempotencyKey(deps.idempotencySecret, shopper.organizationId, key),
        requestHash: requestFingerprint(route, order.body),
        now,
        leaseMs: deps.paymentLeaseMs,
      },
      async (answers) => {
        // Counted in the metrics by the request that ran it, never again by an Idempotency-Key replay.
        const counted = noteOrderAttempt(request);
        const body = await submitOrder(deps, { ...order, shopper, now, answers });
        if (body.order?.status === 'complete') counted.completed();
        return { status: 200, body };
      },
    );
    return reply.code(outcome.status).send(outcome.body);
  };

  router.add({
    method: 'POST',
    url: `${SHOPPER_BASE}/orders`,
    summary: 'Place the order of a cart',
    description: 'Send an Idempotency-Key header: a retry with the same key answers the first result.',
    tags: ['shopper'],
    guard: 'shopper',
    body: CreateOrderSchema,
    refuseBody: refuseCardData,
    responses,
    handler: ({ body, request, reply }) => attempt(request, reply, { kind: 'create', orderId: null, body }),
  });

  router.add({
    method: 'PUT',
    url: `${SHOPPER_BASE}/orders/:order_id`,
    summary: 'Retry the payment of an order, or update its details before it completes',
    description: 'The body of POST orders without offers and gift_cards. Send an Idempotency-Key header.',
    tags: ['shopper'],
    guard: 'shopper',
    params: OrderParamsSchema,
    body: UpdateOrderSchema,
    refuseBody: refuseCardData,
    responses,
    handler: ({ params, body, request, reply }) =>
      attempt(request, reply, { kind: 'update', orderId: params.order_id, body }),
  });

  router.add({
    method: 'GET',
    url: `${SHOPPER_BASE}/carts/:cart_token/payment_tokens/:payment_token_id`,
    summary: 'Read an express (PayPal-style) payment: its status and the payer the provider returned',
    tags: ['shopper'],
    guard: 'shopper',
    params: PaymentTokenParamsSchema,
    responses: {
      200: { description: 'The payment token', schema: PaymentTokenSchema },
      401: responses[401],
      403: responses[403],
      404: { description: 'No such payment for this cart' },
    },
    handler: ({ params, request }) =>
      readPaymentToken(db, shopperOf(request), params.cart_token, params.payment_token_id, clock.now()),
  });
}
