import { schemaMessage } from './errors.js';
import { unlessUnused, z } from './zod.js';

// The shopper's one-click offers after the purchase (docs/api.md, "Upsells"). The page imports this module only from
// its upsell chunk, loaded when an order has upsells.

/** POST …/upsell/accept and …/upsell/decline: the step answered (the page's, so a late repeat never answers the next). */
export const UpsellDecisionSchema = unlessUnused(() =>
  z.strictObject({
    step: z.int().check(z.gte(1, schemaMessage('errors.field_upsell_step')), z.lte(6)),
    /** after the bank asked to authenticate the charge: the reference its answer gave (docs/payments.md) */
    authenticated_payment: z.optional(z.string().check(z.maxLength(255))),
    /** the page's marker on every shopper request */
    _is_vrio_checkout: z.optional(z.union([z.literal(1), z.literal('1'), z.literal(true)])),
  }),
);
export type UpsellDecision = z.infer<typeof UpsellDecisionSchema>;

export const UpsellOfferSchema = z.object({
  /** the number of this offer among those shown after the order (1, 2, …): send it back to accept or decline */
  step: z.int(),
  is_downsell: z.boolean(),
  offer_id: z.int(),
  name: z.string(),
  /** the offer's title, a line of text under the name ("" when it has none) */
  text: z.string(),
  image: z.nullable(z.string()),
  /** what accepting charges today (major units), priced for the first order's addresses: items, shipping, tax */
  subtotal: z.number(),
  shipping: z.number(),
  tax: z.number(),
  amount: z.number(),
  /** a recurring offer: what each later cycle charges, and how often */
  recurring: z.nullable(z.object({ amount: z.number(), interval_days: z.int() })),
  /** when the offer ends (the server's clock); the page counts down to it */
  expires_at: z.string(),
  seconds_left: z.int(),
});
export type UpsellOffer = z.infer<typeof UpsellOfferSchema>;

export const LinkedOrderSchema = z.object({
  order_id: z.int(),
  total: z.number(),
  lines: z.array(z.object({ item_name: z.string(), quantity: z.int(), total: z.number() })),
});
export type LinkedOrder = z.infer<typeof LinkedOrderSchema>;

/**
 * The bank wants the shopper to authenticate the accept's charge: as an order's authenticate action (order.ts), kept
 * apart so the page's upsell chunk does not pull the order's schemas out of their own chunk.
 */
const UpsellActionSchema = z.object({
  type: z.literal('authenticate'),
  reference: z.string(),
  payment_action: z.union([
    z.object({ type: z.literal('challenge'), url: z.string() }),
    z.object({ type: z.literal('stripe'), client_secret: z.string() }),
  ]),
});

/** The current upsell step of an order (null when there is none left) and the orders accepted upsells made. */
export const UpsellStateSchema = z.object({
  order_id: z.int(),
  currency: z.string(),
  offer: z.nullable(UpsellOfferSchema),
  linked_orders: z.array(LinkedOrderSchema),
  /** the bank asks the shopper to authenticate the accept's charge: the page shows it, then sends the accept again */
  action: z.optional(UpsellActionSchema),
});
export type UpsellState = z.infer<typeof UpsellStateSchema>;
