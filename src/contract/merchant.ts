// The merchant API's contract (docs/api.md): the organization, orders and subscriptions as read, and API keys; the
// catalogue's schemas are in catalogue.ts, re-exported here.
import { isCalendarDay } from '../domain/calendar-day.js';
import {
  ClientOptionsSchema,
  DunningSchema,
  SubscriptionEmailsSchema,
  AbandonedCheckoutSchema,
  AbandonedCheckoutPatchSchema,
  TranslatedLegalLinksSchema,
  SectionsSchema,
  SelfServiceSchema,
  StoreLanguagesSchema,
  TranslatedSubscriptionTermsSchema,
} from './organization.js';
import { listOf, ListQuerySchema } from './common.js';
import { BillingPlanSchema } from './cart.js';
import { OrderPaymentStatusSchema, RefundSchema } from './refund.js';
import { ImageUrlSchema, requiredText, text } from './merchant-fields.js';
import { unlessUnused, z } from './zod.js';

import { BumpOfferIdsSchema } from './catalogue.js';

export * from './catalogue.js';

// ---------- organization ----------

export const OrganizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  currency: z.string(),
  /** true once carts exist: their amounts are in this currency, so a PATCH of another answers 409 */
  currency_locked: z.boolean(),
  client_options: ClientOptionsSchema,
  sections: SectionsSchema,
  /** with their text per language in `translations` (docs/api.md, "Translations") */
  subscription_terms: TranslatedSubscriptionTermsSchema,
  legal: TranslatedLegalLinksSchema,
  logo_url: z.nullable(z.string()),
  dunning: DunningSchema,
  subscription_emails: SubscriptionEmailsSchema,
  abandoned_checkout: AbandonedCheckoutSchema,
  self_service: SelfServiceSchema,
  /** order bumps of carts whose checkout link names none (docs/checkout-rules.md, "Order bumps") */
  bump_offer_ids: z.array(z.int()),
  /** the store's default language and those its pages may speak (docs/languages.md) */
  languages: StoreLanguagesSchema,
});
export type Organization = z.infer<typeof OrganizationSchema>;

export const UpdateOrganizationSchema = z.strictObject({
  name: z.optional(requiredText(200)),
  currency: z.optional(z.string().check(z.regex(/^[A-Z]{3}$/, 'Use an ISO 4217 currency code such as USD.'))),
  client_options: z.optional(
    z.strictObject({
      cart: z.optional(ClientOptionsSchema.shape.cart),
      testCards: z.optional(ClientOptionsSchema.shape.testCards),
      subscriptionTermsCheckbox: z.optional(ClientOptionsSchema.shape.subscriptionTermsCheckbox),
      emailOptInCheckbox: z.optional(ClientOptionsSchema.shape.emailOptInCheckbox),
    }),
  ),
  sections: z.optional(SectionsSchema),
  subscription_terms: z.optional(TranslatedSubscriptionTermsSchema),
  legal: z.optional(TranslatedLegalLinksSchema),
  logo_url: z.optional(z.nullable(ImageUrlSchema)),
  dunning: z.optional(DunningSchema),
  subscription_emails: z.optional(SubscriptionEmailsSchema),
  abandoned_checkout: z.optional(AbandonedCheckoutPatchSchema),
  self_service: z.optional(SelfServiceSchema),
  bump_offer_ids: z.optional(BumpOfferIdsSchema),
  languages: z.optional(StoreLanguagesSchema),
});
export type UpdateOrganization = z.infer<typeof UpdateOrganizationSchema>;

// ---------- orders and subscriptions (read) ----------

const AddressSchema = z.object({
  fname: z.string(),
  lname: z.string(),
  address1: z.string(),
  address2: z.string(),
  city: z.string(),
  state: z.string(),
  zipcode: z.string(),
  country: z.string(),
  phone: z.string(),
});

export const OrderLineSchema = z.object({
  order_offer_id: z.int(),
  offer_id: z.int(),
  item_name: z.string(),
  quantity: z.int(),
  unit_price: z.number(),
  subtotal: z.number(),
  discount: z.number(),
  shipping: z.number(),
  tax: z.number(),
  total: z.number(),
  is_gift: z.boolean(),
  /** the line came from an order-bump box the shopper ticked */
  is_bump: z.boolean(),
  is_recurring: z.boolean(),
  billing_interval_days: z.nullable(z.int()),
  next_cycle_total: z.nullable(z.number()),
  /** the line's prices by cycle as ordered; null for one-off lines and orders made before prices by cycle */
  billing_plan: z.nullable(BillingPlanSchema),
  /** the shopper subscribed to this one-off line (subscribe and save), at subscribe_and_save_percent_off % off */
  subscribe_and_save: z.boolean(),
  subscribe_and_save_percent_off: z.nullable(z.int()),
});

export const PaymentAttemptSchema = z.object({
  id: z.int(),
  method: z.enum(['card', 'paypal', 'none']),
  gateway: z.string(),
  status: z.enum(['approved', 'declined', 'error', 'requires_action']),
  amount: z.number(),
  decline_code: z.nullable(z.string()),
  message: z.nullable(z.string()),
  card_brand: z.nullable(z.string()),
  card_last4: z.nullable(z.string()),
  card_exp_month: z.nullable(z.int()),
  card_exp_year: z.nullable(z.int()),
  gateway_reference: z.nullable(z.string()),
  is_test: z.boolean(),
  created_at: z.string(),
});

export const GiftSchema = z.object({
  order_offer_id: z.int(),
  gift_name: z.string(),
  gift_email: z.string(),
  gift_date: z.nullable(z.string()),
  gift_message: z.string(),
  gift_phone: z.string(),
  order_offer_notes: z.string(),
  claim_url: z.nullable(z.string()),
  claimed_at: z.nullable(z.string()),
});

export const OrderStatusSchema = z.enum(['pending', 'declined', 'awaiting_payment', 'complete']);

export const OrderSummarySchema = z.object({
  order_id: z.int(),
  cart_token: z.string(),
  status: OrderStatusSchema,
  is_test: z.boolean(),
  currency: z.string(),
  email: z.string(),
  /** "First Last" of the billing address, else of the shipping address; "" when neither names anyone */
  customer_name: z.string(),
  total: z.number(),
  created_at: z.string(),
  completed_at: z.nullable(z.string()),
  /**
   * "prepaid_fulfilment": a $0 order shipping one cycle of a prepaid plan (docs/subscriptions.md, "Prepaid plans"),
   * with its subscription, the order that paid for it and the cycle; "order" for any other order
   */
  kind: z.enum(['order', 'prepaid_fulfilment']),
  fulfilment_of_subscription_id: z.nullable(z.int()),
  fulfilment_of_order_id: z.nullable(z.int()),
  fulfilment_cycle: z.nullable(z.int()),
  /** the order this one was an accepted upsell of (docs/api.md, "Upsells"); null for any other order */
  parent_order_id: z.nullable(z.int()),
});
export type OrderSummary = z.infer<typeof OrderSummarySchema>;
export const OrderListSchema = listOf(OrderSummarySchema);

const calendarDay = () =>
  z
    .string()
    .check(z.refine((day) => isCalendarDay(day), 'Use a date written YYYY-MM-DD, such as 2026-11-26.'));

/**
 * GET merchant/orders: the list's page and its filters (docs/api.md, "Orders: search and filters"). `q` is an order
 * number (all digits) or text found in the email or the customer's first or last name.
 */
export const OrderListQuerySchema = unlessUnused(() =>
  z
    .extend(ListQuerySchema, {
      q: z.optional(z.string().check(z.maxLength(200, 'Use at most 200 characters.'))),
      status: z.optional(
        z.enum(['pending', 'declined', 'awaiting_payment', 'complete'], {
          error: 'Use one of: pending, declined, awaiting_payment, complete.',
        }),
      ),
      created_from: z.optional(calendarDay()),
      created_to: z.optional(calendarDay()),
      test: z.optional(
        z.pipe(
          z.enum(['true', 'false'], { error: 'Use true (test orders only) or false (live orders only).' }),
          z.transform((value) => value === 'true'),
        ),
      ),
    })
    .check(
      z.refine(
        (query) => !query.created_from || !query.created_to || query.created_from <= query.created_to,
        {
          message: 'Use a date on or after created_from.',
          path: ['created_to'],
        },
      ),
    ),
);
export type OrderListQuery = z.infer<typeof OrderListQuerySchema>;

export const UpsellStepOutcomeSchema = z.object({
  step: z.int(),
  position: z.int(),
  is_downsell: z.boolean(),
  offer_id: z.int(),
  status: z.enum(['offered', 'accepted', 'declined', 'expired']),
  offered_at: z.string(),
  expires_at: z.string(),
  decided_at: z.nullable(z.string()),
  /** the order the accept made; null unless accepted */
  linked_order_id: z.nullable(z.int()),
});

export const OrderDetailSchema = z.extend(OrderSummarySchema, {
  phone: z.string(),
  subtotal: z.number(),
  total_discount: z.number(),
  total_offer_shipping: z.number(),
  total_campaign_shipping: z.number(),
  total_tax: z.number(),
  total_gift_cards: z.number(),
  discount_code: z.nullable(z.string()),
  shipping_profile_id: z.nullable(z.int()),
  shipping_address: z.nullable(AddressSchema),
  billing_address: z.nullable(AddressSchema),
  same_address: z.boolean(),
  consent: z.object({
    subscription_terms_accepted: z.boolean(),
    subscription_terms_accepted_at: z.nullable(z.string()),
    subscription_terms_ip: z.nullable(z.string()),
    subscription_terms_version: z.nullable(z.string()),
    /** the language of the terms' text the shopper agreed to (docs/api.md, "Translations") */
    subscription_terms_language: z.nullable(z.string()),
    email_opt_in: z.boolean(),
  }),
  ip_address: z.nullable(z.string()),
  lines: z.array(OrderLineSchema),
  payment_attempts: z.array(PaymentAttemptSchema),
  gifts: z.array(GiftSchema),
  subscription_ids: z.array(z.int()),
  /** the payment's state after its refunds; null when nothing was paid (an open or a free order) */
  payment_status: z.nullable(OrderPaymentStatusSchema),
  /** refunded so far, ours and those made at the processor (docs/api.md, "Refunds") */
  amount_refunded: z.number(),
  refunds: z.array(RefundSchema),
  /** the orders accepted upsells made after this one, in the order accepted */
  linked_orders: z.array(z.object({ order_id: z.int(), status: OrderStatusSchema, total: z.number() })),
  /** each upsell offer shown after this order and how it ended */
  upsell_steps: z.array(UpsellStepOutcomeSchema),
});
export type OrderDetail = z.infer<typeof OrderDetailSchema>;

export const SubscriptionStatusSchema = z.enum(['active', 'paused', 'past_due', 'cancelled']);

export const SubscriptionSchema = z.object({
  id: z.int(),
  order_id: z.int(),
  offer_id: z.int(),
  status: SubscriptionStatusSchema,
  quantity: z.int(),
  cycle_amount: z.number(),
  currency: z.string(),
  interval_days: z.int(),
  /** started by a shopper who subscribed to a one-off offer (subscribe and save), at this percent off */
  subscribe_and_save: z.boolean(),
  subscribe_and_save_percent_off: z.nullable(z.int()),
  cycle: z.int(),
  next_charge_at: z.string(),
  retry_count: z.int(),
  is_test: z.boolean(),
  customer_email: z.string(),
  payment_method: z.nullable(
    z.object({ method: z.string(), card_brand: z.nullable(z.string()), card_last4: z.nullable(z.string()) }),
  ),
  charges: z.array(
    z.object({
      cycle: z.int(),
      attempt: z.int(),
      amount: z.number(),
      status: z.enum(['approved', 'declined', 'error']),
      message: z.nullable(z.string()),
      created_at: z.string(),
    }),
  ),
  created_at: z.string(),
  paused_at: z.nullable(z.string()),
  cancelled_at: z.nullable(z.string()),
  /** when a cancel made for the end of the paid period takes effect; null when none is scheduled */
  cancel_at: z.nullable(z.string()),
  /** who made the last pause, resume, skip or cancel: the merchant's API, or the subscriber's self-service page */
  changed_by: z.nullable(z.enum(['merchant', 'subscriber'])),
  /** its prices by cycle, kept from the order (docs/subscriptions.md); null for subscriptions made before them */
  billing_plan: z.nullable(BillingPlanSchema),
  /** the cycle the next charge is for, its amount and length; null once the subscription has ended or is cancelled */
  next_cycle: z.nullable(
    z.object({ cycle: z.int(), amount: z.number(), interval_days: z.int(), is_last: z.boolean() }),
  ),
  /** prices by cycle: what it has left to charge, in words; null when its charges are all alike or it has ended */
  plan_remaining: z.nullable(z.string()),
  /** plan_completed: it ended after the last of its total cycles (status cancelled); null otherwise */
  end_reason: z.nullable(z.enum(['plan_completed'])),
  /**
   * a prepaid plan (docs/subscriptions.md, "Prepaid plans"): cycles each payment covers, what follows them, the last
   * cycle had (1 = the order's) and what its next date does; null for any other subscription
   */
  prepaid: z.nullable(
    z.object({
      cycles: z.int(),
      renewal: z.enum(['renew', 'end']),
      shipped_cycle: z.int(),
      next: z.nullable(
        z.object({
          kind: z.enum(['fulfilment', 'charge']),
          cycle: z.int(),
          /** the charge's amount; 0 for a fulfilment */
          amount: z.number(),
          at: z.string(),
        }),
      ),
    }),
  ),
});
export type Subscription = z.infer<typeof SubscriptionSchema>;
export const SubscriptionListSchema = listOf(SubscriptionSchema);

export const SUBSCRIPTION_STATUSES = ['active', 'paused', 'past_due', 'cancelled'] as const;

/** ?status=&test=&q= on the subscriptions list, besides its page (docs/api.md). */
export const SubscriptionListQuerySchema = unlessUnused(() =>
  z.extend(ListQuerySchema, {
    status: z.optional(
      z.enum(SUBSCRIPTION_STATUSES, { error: `Use one of: ${SUBSCRIPTION_STATUSES.join(', ')}.` }),
    ),
    test: z.optional(
      z.pipe(
        z.enum(['true', 'false'], { error: 'Use true (test subscriptions) or false (live ones).' }),
        z.transform((value) => value === 'true'),
      ),
    ),
    q: z.optional(
      z
        .string()
        .check(
          z.trim(),
          z.minLength(1, 'Enter part of an email, or a subscription id.'),
          z.maxLength(200, 'Use at most 200 characters.'),
        ),
    ),
  }),
);
export type SubscriptionListQuery = z.infer<typeof SubscriptionListQuerySchema>;

// ---------- merchant API keys ----------

export const CreateApiKeySchema = z.strictObject({ label: z.optional(text(100)) });
export type CreateApiKey = z.infer<typeof CreateApiKeySchema>;

export const ApiKeySchema = z.object({
  id: z.int(),
  key_prefix: z.string(),
  label: z.string(),
  created_at: z.string(),
  revoked_at: z.nullable(z.string()),
  /** whether this request was made with it */
  current: z.boolean(),
});
export type ApiKey = z.infer<typeof ApiKeySchema>;
export const ApiKeyListSchema = z.object({ data: z.array(ApiKeySchema) });

/** A new key: the only time the key itself is shown (only its hash is kept). */
export const CreatedApiKeySchema = z.extend(ApiKeySchema, { key: z.string() });
