import { ListQuerySchema } from './common.js';
import { z } from './zod.js';

/** The events an endpoint can ask for (docs/webhooks.md, "Events"). */
export const WEBHOOK_EVENT_TYPES = [
  'order.completed',
  'order.payment_failed',
  'order.refunded',
  'subscription.created',
  'subscription.renewed',
  'subscription.payment_failed',
  'subscription.past_due',
  'subscription.paused',
  'subscription.resumed',
  'subscription.cancelled',
  'subscription.updated',
  'gift.claimed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

const EventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES, {
  error: `Use one of: ${WEBHOOK_EVENT_TYPES.join(', ')}.`,
});

export const CreateWebhookEndpointSchema = z.strictObject({
  url: z.string().check(z.trim(), z.minLength(1, 'Enter the URL to send events to.'), z.maxLength(2000)),
  events: z.array(EventTypeSchema).check(z.minLength(1, 'Name at least one event.')),
  description: z.optional(z.string().check(z.maxLength(200))),
});
export type CreateWebhookEndpoint = z.infer<typeof CreateWebhookEndpointSchema>;

export const UpdateWebhookEndpointSchema = z.strictObject({
  url: z.optional(
    z.string().check(z.trim(), z.minLength(1, 'Enter the URL to send events to.'), z.maxLength(2000)),
  ),
  events: z.optional(z.array(EventTypeSchema).check(z.minLength(1, 'Name at least one event.'))),
  description: z.optional(z.string().check(z.maxLength(200))),
  active: z.optional(z.boolean()),
});
export type UpdateWebhookEndpoint = z.infer<typeof UpdateWebhookEndpointSchema>;

export const WebhookEndpointSchema = z.object({
  id: z.int(),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string(),
  active: z.boolean(),
  /** the first characters of the signing secret, to tell secrets apart */
  secret_prefix: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;
export const WebhookEndpointListSchema = z.object({
  data: z.array(WebhookEndpointSchema),
  has_more: z.boolean(),
});

/** A new endpoint: the only answer that carries its whole signing secret. */
export const CreatedWebhookEndpointSchema = z.extend(WebhookEndpointSchema, { secret: z.string() });

export const WebhookAttemptSchema = z.object({
  attempted_at: z.string(),
  /** the receiver's HTTP status, null when no answer came */
  status_code: z.nullable(z.int()),
  /** the start of the receiver's answer, or why there was none */
  response: z.string(),
  duration_ms: z.int(),
});

export const WebhookDeliverySchema = z.object({
  id: z.int(),
  /** the webhook-id header: the same on every attempt and on a resend, so a receiver can drop repeats */
  message_id: z.string(),
  event_type: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  attempts: z.array(WebhookAttemptSchema),
  next_attempt_at: z.nullable(z.string()),
  payload: z.unknown(),
  created_at: z.string(),
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;
export const WebhookDeliveryListSchema = z.object({
  data: z.array(WebhookDeliverySchema),
  has_more: z.boolean(),
});

export const WebhookDeliveryParamsSchema = z.strictObject({
  id: z.pipe(z.string().check(z.regex(/^\d{1,15}$/, 'Use a numeric id.')), z.transform(Number)),
  delivery_id: z.pipe(z.string().check(z.regex(/^\d{1,15}$/, 'Use a numeric id.')), z.transform(Number)),
});

/** GET merchant/webhook-deliveries?order_id=: the deliveries about one order, a page at a time. */
export const OrderWebhookDeliveryQuerySchema = z.extend(ListQuerySchema, {
  order_id: z.pipe(
    z.string().check(z.regex(/^\d{1,15}$/, 'Use the numeric id of an order.')),
    z.transform(Number),
  ),
});

/** A delivery with the endpoint it went to. */
export const OrderWebhookDeliverySchema = z.extend(WebhookDeliverySchema, {
  endpoint_id: z.int(),
  endpoint_url: z.string(),
});
export type OrderWebhookDelivery = z.infer<typeof OrderWebhookDeliverySchema>;
export const OrderWebhookDeliveryListSchema = z.object({
  data: z.array(OrderWebhookDeliverySchema),
  has_more: z.boolean(),
});
