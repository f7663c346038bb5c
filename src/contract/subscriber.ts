// The subscriber's self-service API (docs/subscriptions.md, "Self-service"; docs/api.md): what the page reads and
// sends, one schema each, shared by the routes and the page.
import { schemaMessage } from './errors.js';
import { LANGUAGES } from '../i18n/languages.js';
import { CardProcessorSchema } from './page-config.js';
import { z } from './zod.js';

export const SubscriberStatusSchema = z.enum(['active', 'paused', 'past_due', 'cancelled']);

export const SubscriberChargeSchema = z.object({
  /** major units of `currency`, as every answer of the API */
  amount: z.number(),
  status: z.enum(['approved', 'declined', 'error']),
  created_at: z.string(),
});

export const SubscriberSubscriptionSchema = z.object({
  id: z.int(),
  store: z.object({ name: z.string(), logo_url: z.nullable(z.string()) }),
  item_name: z.string(),
  quantity: z.int(),
  currency: z.string(),
  /** what each renewal charges, in major units */
  cycle_amount: z.number(),
  interval_days: z.int(),
  /** prices by cycle: what is left to charge, in words (docs/subscriptions.md); null when every charge is alike */
  plan_remaining: z.nullable(z.string()),
  /**
   * It came from subscribe and save (docs/subscriptions.md, "Self-service"): its percent off, every how many days,
   * the items of one delivery subscribed and bought once (major units; null for orders before they were kept), and
   * the saving in words; null for any other subscription.
   */
  subscribe_and_save: z.nullable(
    z.object({
      percent_off: z.int(),
      interval_days: z.int(),
      subscribed_amount: z.nullable(z.number()),
      once_amount: z.nullable(z.number()),
      description: z.string(),
    }),
  ),
  status: SubscriberStatusSchema,
  /** the next renewal; null once nothing will be charged (paused, cancelled, or a cancel is scheduled) */
  next_charge_at: z.nullable(z.string()),
  /** the date a cancel takes effect when it is scheduled for the end of the paid period */
  cancel_at: z.nullable(z.string()),
  cancelled_at: z.nullable(z.string()),
  card: z.nullable(z.object({ brand: z.nullable(z.string()), last4: z.nullable(z.string()) })),
  charges: z.array(SubscriberChargeSchema),
  /** what this subscription's cancel does, as the store set it */
  cancel_effect: z.enum(['immediately', 'end_of_period']),
  /** the card processor whose frame takes a new card, or null when cards cannot be updated here */
  card_processor: z.nullable(CardProcessorSchema),
  is_test: z.boolean(),
  /** the page's language: the one of the cart the subscription came from, else the store's default (docs/languages.md) */
  language: z.enum(LANGUAGES),
});
export type SubscriberSubscription = z.infer<typeof SubscriberSubscriptionSchema>;

/** Skip: the charge date the page showed, so a second click skips nothing more. */
export const SkipChargeSchema = z.strictObject({
  next_charge_at: z.iso.datetime({
    offset: true,
    error: schemaMessage('errors.field_next_charge_date'),
  }),
});
export type SkipCharge = z.infer<typeof SkipChargeSchema>;

/** A new card: the processor frame's single-use token, never the card's number. */
export const UpdateCardSchema = z.strictObject({
  card_token: z
    .string()
    .check(z.minLength(1, schemaMessage('errors.field_card_token_required')), z.maxLength(500)),
  /** the reference of the 202 answer, once the subscriber authenticated the card with their bank */
  authenticated: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
});

/**
 * 202 to POST …/card: the bank asks the subscriber to authenticate the card first (3-D Secure). The page hands
 * `payment_action` to its processor adapter, then sends the card again with `authenticated: reference`.
 */
export const CardActionSchema = z.object({
  reference: z.string(),
  payment_action: z.union([
    z.object({ type: z.literal('challenge'), url: z.string() }),
    z.object({ type: z.literal('stripe'), client_secret: z.string() }),
  ]),
});
export type CardAction = z.infer<typeof CardActionSchema>;
export type UpdateCard = z.infer<typeof UpdateCardSchema>;

/** A fresh self-service link for the merchant to pass on. */
export const ManageLinkSchema = z.object({ url: z.string(), expires_at: z.string() });
export type ManageLink = z.infer<typeof ManageLinkSchema>;
