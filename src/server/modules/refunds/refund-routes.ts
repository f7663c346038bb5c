import { IdParamsSchema } from '../../../contract/common.js';
import { CreateRefundSchema, RefundSchema } from '../../../contract/refund.js';
import type { AppContext } from '../../platform/context.js';
import { AppError, validationError } from '../../platform/errors.js';
import { MoneyInput } from '../../platform/http/money-input.js';
import type { Router } from '../../platform/http/router.js';
import {
  checkIdempotencyKey,
  hashIdempotencyKey,
  hashRequest,
  runIdempotent,
} from '../orders/idempotency.js';
import { merchantOf } from '../organizations/request-context.js';
import { refundOrder } from './refund-service.js';

export function registerRefundRoutes(
  router: Router,
  context: AppContext,
  options: {
    /** what Idempotency-Keys are hashed with (idempotencySecret) */
    idempotencySecret: Uint8Array;
    /** how long a refund holds its order's refunds while the processor answers */
    leaseMs: number;
  },
): void {
  const { db, clock, gateways } = context;

  router.add({
    method: 'POST',
    url: '/checkout/api/merchant/orders/:id/refunds',
    summary: "Refund all or part of an order's payment",
    description:
      'Refunds through the processor that charged the order (the test processor, Stripe or PayPal). Without amount, ' +
      'all that is left is refunded. Send an Idempotency-Key header: a retry with the same key answers the same ' +
      'refund and never refunds twice; a new key is a new refund.',
    tags: ['merchant: orders'],
    guard: 'merchant',
    params: IdParamsSchema,
    body: CreateRefundSchema,
    responses: {
      201: { description: 'The refund, succeeded', schema: RefundSchema },
      400: { description: 'No Idempotency-Key header' },
      401: { description: 'Bad key' },
      404: { description: 'No such order' },
      409: {
        description:
          'The order is not complete or was not paid, or a refund of it is in progress (Retry-After)',
      },
      422: {
        description:
          'An amount that is not positive, not money, or more than is left to refund (the message says how much is left)',
      },
      502: { description: 'The processor refused the refund: it is recorded failed, nothing was refunded' },
      503: { description: 'The processor did not answer: retry with the same Idempotency-Key (Retry-After)' },
    },
    async handler({ params, body, request, reply }) {
      const organization = merchantOf(request);
      const key = checkIdempotencyKey(request.headers['idempotency-key']);
      if (key === undefined) {
        throw new AppError(
          400,
          'idempotency_key_required',
          'Send an Idempotency-Key header (1 to 255 visible ASCII characters): a retry with the same key never refunds twice.',
        );
      }
      const amounts = new MoneyInput(organization.currency);
      const requested = amounts.minor('amount', body.amount);
      if (Object.keys(amounts.fields).length > 0) throw validationError(amounts.fields);
      const keyHash = hashIdempotencyKey(options.idempotencySecret, organization.id, key);
      const outcome = await runIdempotent(
        db,
        {
          organizationId: organization.id,
          scope: 'refunds',
          keyHash,
          requestHash: hashRequest({ route: `POST orders/${params.id}/refunds`, body }),
          now: clock.now(),
          leaseMs: options.leaseMs,
        },
        (answers) =>
          refundOrder(
            { db, clock, gateways, leaseMs: options.leaseMs },
            {
              organizationId: organization.id,
              orderId: params.id,
              requested,
              reason: body.reason === undefined || body.reason === '' ? null : body.reason,
              keyHash,
              answers,
            },
          ),
      );
      return reply.code(outcome.status).send(outcome.body);
    },
  });
}
