import { IdParamsSchema, ListQuerySchema } from '../../../contract/common.js';
import {
  CreatedWebhookEndpointSchema,
  CreateWebhookEndpointSchema,
  OrderWebhookDeliveryListSchema,
  OrderWebhookDeliveryQuerySchema,
  UpdateWebhookEndpointSchema,
  WebhookDeliveryListSchema,
  WebhookDeliveryParamsSchema,
  WebhookEndpointListSchema,
  WebhookEndpointSchema,
} from '../../../contract/webhooks.js';
import { z } from '../../../contract/zod.js';
import type { AppContext } from '../../platform/context.js';
import type { Router } from '../../platform/http/router.js';
import { merchantOf } from '../organizations/request-context.js';
import type { WebhookUrlPolicy } from './webhook-rules.js';
import {
  changeWebhookEndpoint,
  createWebhookEndpoint,
  getWebhookEndpoint,
  listOrderWebhookDeliveryPage,
  listWebhookDeliveryPage,
  listWebhookEndpointPage,
  resendWebhookDelivery,
} from './webhook-service.js';

const TAG = 'merchant: webhooks';
const BASE = '/checkout/api/merchant/webhook-endpoints';
const unauthorized = { description: 'Missing or invalid merchant key' };
const notFound = { description: 'No such endpoint (or delivery) in this organization' };

/** Which receivers the configuration allows (docs/webhooks.md, "Endpoints"). */
export function webhookUrlPolicyOf(config: AppContext['config']): WebhookUrlPolicy {
  return { requireHttps: config.webhooks.requireHttps, allowPrivate: config.webhooks.allowPrivateUrls };
}

export function registerWebhookRoutes(router: Router, context: AppContext): void {
  const { db, clock } = context;
  const policy = webhookUrlPolicyOf(context.config);
  const page = (query: { limit?: number | undefined; starting_after?: number | undefined }) => ({
    limit: query.limit,
    startingAfter: query.starting_after,
  });

  router.add({
    method: 'POST',
    url: BASE,
    summary: 'Create a webhook endpoint: the answer carries its signing secret, once',
    tags: [TAG],
    guard: 'merchant',
    body: CreateWebhookEndpointSchema,
    responses: {
      201: { description: 'The new endpoint, with its secret', schema: CreatedWebhookEndpointSchema },
      401: unauthorized,
      422: { description: 'Invalid fields (a URL this server may not send to, an unknown event)' },
    },
    async handler({ body, request, reply }) {
      reply.code(201);
      return createWebhookEndpoint(db, merchantOf(request), body, policy, clock.now());
    },
  });

  router.add({
    method: 'GET',
    url: BASE,
    summary: 'List webhook endpoints, newest first',
    tags: [TAG],
    guard: 'merchant',
    query: ListQuerySchema,
    responses: { 200: { description: 'A page', schema: WebhookEndpointListSchema }, 401: unauthorized },
    handler: ({ query, request }) => listWebhookEndpointPage(db, merchantOf(request), page(query)),
  });

  router.add({
    method: 'GET',
    url: `${BASE}/:id`,
    summary: 'Read a webhook endpoint',
    tags: [TAG],
    guard: 'merchant',
    params: IdParamsSchema,
    responses: {
      200: { description: 'The endpoint', schema: WebhookEndpointSchema },
      401: unauthorized,
      404: notFound,
    },
    handler: ({ params, request }) => getWebhookEndpoint(db, merchantOf(request), params.id),
  });

  router.add({
    method: 'PATCH',
    url: `${BASE}/:id`,
    summary: 'Change a webhook endpoint (only the fields sent); active: false stops its deliveries',
    tags: [TAG],
    guard: 'merchant',
    params: IdParamsSchema,
    body: UpdateWebhookEndpointSchema,
    responses: {
      200: { description: 'The endpoint', schema: WebhookEndpointSchema },
      401: unauthorized,
      404: notFound,
      422: { description: 'Invalid fields' },
    },
    handler: ({ params, body, request }) =>
      changeWebhookEndpoint(db, merchantOf(request), params.id, body, policy, clock.now()),
  });

  router.add({
    method: 'GET',
    url: `${BASE}/:id/deliveries`,
    summary: "The endpoint's deliveries, newest first, each with its attempts and the receiver's answers",
    tags: [TAG],
    guard: 'merchant',
    params: IdParamsSchema,
    query: ListQuerySchema,
    responses: {
      200: { description: 'A page', schema: WebhookDeliveryListSchema },
      401: unauthorized,
      404: notFound,
    },
    handler: ({ params, query, request }) =>
      listWebhookDeliveryPage(db, merchantOf(request), params.id, page(query)),
  });

  // Not under webhook-endpoints: staff read an order's deliveries on its screen, and endpoints are the owner's.
  router.add({
    method: 'GET',
    url: '/checkout/api/merchant/webhook-deliveries',
    summary:
      "The deliveries about one order (its order events), newest first, each with its endpoint's id and URL",
    description:
      'order_id is required. The order events (order.completed, order.payment_failed, order.refunded) name the ' +
      "order in their payload; each delivery has its attempts and the receiver's answers.",
    tags: [TAG],
    guard: 'merchant',
    query: OrderWebhookDeliveryQuerySchema,
    responses: {
      200: { description: 'A page', schema: OrderWebhookDeliveryListSchema },
      401: unauthorized,
      404: { description: 'No such order in this organization' },
      422: { description: 'No order_id, or one that is not a number' },
    },
    handler: ({ query, request }) =>
      listOrderWebhookDeliveryPage(db, merchantOf(request), query.order_id, page(query)),
  });

  router.add({
    method: 'POST',
    url: `${BASE}/:id/deliveries/:delivery_id/resend`,
    summary: 'Send a delivery again (same webhook-id), with its own retries',
    tags: [TAG],
    guard: 'merchant',
    params: WebhookDeliveryParamsSchema,
    responses: {
      202: {
        description: 'Queued',
        schema: z.object({ id: z.int(), status: z.literal('pending') }),
      },
      401: unauthorized,
      404: notFound,
    },
    async handler({ params, request, reply }) {
      reply.code(202);
      return resendWebhookDelivery(db, merchantOf(request), params.id, params.delivery_id, clock.now());
    },
  });
}
