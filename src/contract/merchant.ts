import { isCalendarDay } from '../domain/calendar-day.js';
import { containsCardNumber } from '../domain/card.js';
import {
  ClientOptionsSchema,
  DunningSchema,
  SubscriptionEmailsSchema,
  AbandonedCheckoutSchema,
  AbandonedCheckoutPatchSchema,
  LegalLinksSchema,
  SectionsSchema,
  SelfServiceSchema,
  SubscriptionTermsSchema,
} from './organization.js';
import {
  CountryCodeSchema,
  DateTimeSchema,
  IdSchema,
  listOf,
  ListQuerySchema,
  MoneySchema,
  QuantitySchema,
} from './common.js';
import { BillingPlanSchema } from './cart.js';
import { OrderPaymentStatusSchema, RefundSchema } from './refund.js';
import { unlessUnused, z } from './zod.js';

const text = (max: number) => z.string().check(z.maxLength(max));
const requiredText = (max: number) =>
  z.string().check(z.trim(), z.minLength(1, 'This field is required.'), z.maxLength(max));
const ImageUrlSchema = z.url({ protocol: /^https?$/, error: 'Enter a full http(s) URL of the image.' });

// ---------- offers ----------

export const ItemOptionSchema = z.strictObject({ name: requiredText(50), value: requiredText(100) });

/** How a shopper reaches an item used online: the order receipt gives its link and instructions (docs/emails.md). */
export const DigitalAccessSchema = z.strictObject({
  url: z.url({ protocol: /^https?$/, error: 'Enter the full http(s) URL where the shopper gets the item.' }),
  instructions: z.optional(text(1000)),
});

/**
 * Subscribe and save on a one-off offer: the shopper may subscribe every interval_days at percent_off % off instead of
 * buying once (docs/subscriptions.md, "Subscribe and save").
 */
export const SubscribeAndSaveSchema = z.strictObject({
  interval_days: z
    .int({ error: 'interval_days must be a whole number of days.' })
    .check(
      z.gte(1, 'interval_days must be from 1 to 730.'),
      z.lte(730, 'interval_days must be from 1 to 730.'),
    ),
  percent_off: z
    .int({ error: 'percent_off must be a whole percent.' })
    .check(z.gte(1, 'percent_off must be from 1 to 90.'), z.lte(90, 'percent_off must be from 1 to 90.')),
});

const offerFields = {
  offer_name: requiredText(200),
  offer_title: z.optional(text(200)),
  item_id: z.optional(text(100)),
  item_name: requiredText(200),
  item_image: z.optional(z.nullable(ImageUrlSchema)),
  item_category: z.optional(text(100)),
  item_options: z.optional(z.array(ItemOptionSchema).check(z.maxLength(10))),
  override_initial_item_id: z.optional(z.nullable(text(100))),
  override_initial_item_name: z.optional(z.nullable(text(200))),
  price: MoneySchema,
  is_recurring: z.optional(z.boolean()),
  billing_interval_days: z.optional(z.nullable(z.int().check(z.gte(1), z.lte(730)))),
  next_price: z.optional(z.nullable(MoneySchema)),
  /** prices by cycle (docs/subscriptions.md): the first cycle's length when it differs from the interval */
  trial_days: z.optional(
    z.nullable(z.int().check(z.gte(1, 'Must be at least 1 day.'), z.lte(730, 'Must be at most 730 days.'))),
  ),
  /** how many cycles after the first are charged discounted_price */
  discounted_cycles: z.optional(
    z.nullable(
      z.int().check(z.gte(1, 'Must be at least 1 cycle.'), z.lte(120, 'Must be at most 120 cycles.')),
    ),
  ),
  discounted_price: z.optional(z.nullable(MoneySchema)),
  /** cycles in all, the first included, after which the subscription ends; null = until cancelled */
  total_cycles: z.optional(
    z.nullable(
      z
        .int()
        .check(
          z.gte(2, 'Must be at least 2 cycles (an offer charged once is one-off).'),
          z.lte(999, 'Must be at most 999 cycles.'),
        ),
    ),
  ),
  /**
   * a prepaid plan (docs/subscriptions.md, "Prepaid plans"): one payment of `price` covers this many cycles, each
   * later one shipped as a $0 fulfilment order
   */
  prepaid_cycles: z.optional(
    z.nullable(
      z
        .int({ error: 'prepaid_cycles must be a whole number of cycles.' })
        .check(
          z.gte(2, 'prepaid_cycles must be from 2 to 24 (one cycle is not prepaid).'),
          z.lte(24, 'prepaid_cycles must be from 2 to 24.'),
        ),
    ),
  ),
  /** renew: the next whole period is charged when one ends; end: the subscription ends after its last cycle */
  prepaid_renewal: z.optional(
    z.nullable(z.enum(['renew', 'end'], { error: 'prepaid_renewal must be "renew" or "end".' })),
  ),
  is_giftable: z.optional(z.boolean()),
  is_taxable: z.optional(z.boolean()),
  requires_shipping: z.optional(z.boolean()),
  shipping_price: z.optional(MoneySchema),
  digital_access: z.optional(z.nullable(DigitalAccessSchema)),
  subscribe_and_save: z.optional(z.nullable(SubscribeAndSaveSchema)),
  /** the one line of its order-bump box; null falls back to offer_title, then offer_name */
  bump_text: z.optional(
    z.nullable(z.string().check(z.trim(), z.minLength(1, 'Write the line, or send null.'), z.maxLength(200))),
  ),
  active: z.optional(z.boolean()),
};

export const CreateOfferSchema = z.strictObject(offerFields);
export type CreateOffer = z.infer<typeof CreateOfferSchema>;
export const UpdateOfferSchema = z.partial(z.strictObject(offerFields));
export type UpdateOffer = z.infer<typeof UpdateOfferSchema>;

export const OfferSchema = z.object({
  id: z.int(),
  offer_name: z.string(),
  offer_title: z.string(),
  item_id: z.string(),
  item_name: z.string(),
  item_image: z.nullable(z.string()),
  item_category: z.string(),
  item_options: z.array(z.object({ name: z.string(), value: z.string() })),
  override_initial_item_id: z.nullable(z.string()),
  override_initial_item_name: z.nullable(z.string()),
  price: z.number(),
  is_recurring: z.boolean(),
  billing_interval_days: z.nullable(z.int()),
  next_price: z.nullable(z.number()),
  trial_days: z.nullable(z.int()),
  discounted_cycles: z.nullable(z.int()),
  discounted_price: z.nullable(z.number()),
  total_cycles: z.nullable(z.int()),
  /** a prepaid plan: cycles one payment (of `price`) covers; null when the offer is not prepaid */
  prepaid_cycles: z.nullable(z.int()),
  prepaid_renewal: z.nullable(z.enum(['renew', 'end'])),
  /** the offer's cycles in words, at its unit prices (before tax and shipping); null for one-off offers */
  billing_plan_description: z.nullable(z.string()),
  is_giftable: z.boolean(),
  is_taxable: z.boolean(),
  requires_shipping: z.boolean(),
  shipping_price: z.number(),
  digital_access: z.nullable(z.object({ url: z.string(), instructions: z.string() })),
  /** one-off offers only: the shopper may subscribe instead, every interval_days at percent_off % off */
  subscribe_and_save: z.nullable(z.object({ interval_days: z.int(), percent_off: z.int() })),
  bump_text: z.nullable(z.string()),
  active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Offer = z.infer<typeof OfferSchema>;
export const OfferListSchema = listOf(OfferSchema);

// ---------- discount codes ----------

const discountCodeFields = {
  code: z.string().check(
    z.trim(),
    z.regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'Use 1 to 64 letters, digits, dashes or underscores.'),
    // The checkout refuses card numbers in every field, so a shopper could never apply such a code.
    z.refine(
      (code) => !containsCardNumber(code),
      'This code looks like a card number, which shoppers cannot enter as a code. Choose another code.',
    ),
  ),
  kind: z.enum(['percent', 'fixed']),
  /** percent codes: 0.01 to 100 */
  percent_off: z.optional(
    z.nullable(z.number().check(z.gt(0, 'Must be more than 0.'), z.lte(100, 'Must be at most 100.'))),
  ),
  /** fixed codes: major units */
  amount_off: z.optional(z.nullable(MoneySchema)),
  starts_at: z.optional(z.nullable(DateTimeSchema)),
  ends_at: z.optional(z.nullable(DateTimeSchema)),
  usage_limit: z.optional(z.nullable(z.int().check(z.gte(1), z.lte(100_000_000)))),
  min_subtotal: z.optional(MoneySchema),
  /** Restrict to these offers; empty or absent = the whole order. */
  offer_ids: z.optional(z.array(IdSchema).check(z.maxLength(100))),
  active: z.optional(z.boolean()),
};

export const CreateDiscountCodeSchema = z.strictObject(discountCodeFields);
export type CreateDiscountCode = z.infer<typeof CreateDiscountCodeSchema>;
export const UpdateDiscountCodeSchema = z.partial(z.strictObject(discountCodeFields));
export type UpdateDiscountCode = z.infer<typeof UpdateDiscountCodeSchema>;

export const DiscountCodeSchema = z.object({
  id: z.int(),
  code: z.string(),
  kind: z.enum(['percent', 'fixed']),
  percent_off: z.nullable(z.number()),
  amount_off: z.nullable(z.number()),
  starts_at: z.nullable(z.string()),
  ends_at: z.nullable(z.string()),
  usage_limit: z.nullable(z.int()),
  usage_count: z.int(),
  min_subtotal: z.number(),
  offer_ids: z.array(z.int()),
  active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type DiscountCode = z.infer<typeof DiscountCodeSchema>;
export const DiscountCodeListSchema = listOf(DiscountCodeSchema);

// ---------- shipping profiles ----------

const shippingProfileFields = {
  name: requiredText(200),
  countries: z.array(CountryCodeSchema).check(z.minLength(1, 'List at least one country.'), z.maxLength(249)),
  price: MoneySchema,
  free_over: z.optional(z.nullable(MoneySchema)),
  active: z.optional(z.boolean()),
};
export const CreateShippingProfileSchema = z.strictObject(shippingProfileFields);
export type CreateShippingProfile = z.infer<typeof CreateShippingProfileSchema>;
export const UpdateShippingProfileSchema = z.partial(z.strictObject(shippingProfileFields));
export type UpdateShippingProfile = z.infer<typeof UpdateShippingProfileSchema>;

export const ShippingProfileSchema = z.object({
  id: z.int(),
  name: z.string(),
  countries: z.array(z.string()),
  price: z.number(),
  free_over: z.nullable(z.number()),
  active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ShippingProfile = z.infer<typeof ShippingProfileSchema>;
export const ShippingProfileListSchema = listOf(ShippingProfileSchema);

// ---------- tax rates ----------

const taxRateFields = {
  country: CountryCodeSchema,
  state: z.optional(z.nullable(z.string().check(z.regex(/^[A-Z0-9]{1,3}$/, 'Use the state code, e.g. TX.')))),
  /** percent, up to 4 decimals: 8.875 */
  rate: z.number().check(z.gte(0, 'Must be zero or more.'), z.lte(100, 'Must be at most 100.')),
  name: z.optional(text(100)),
};
export const CreateTaxRateSchema = z.strictObject(taxRateFields);
export type CreateTaxRate = z.infer<typeof CreateTaxRateSchema>;
export const UpdateTaxRateSchema = z.partial(z.strictObject(taxRateFields));
export type UpdateTaxRate = z.infer<typeof UpdateTaxRateSchema>;

export const TaxRateSchema = z.object({
  id: z.int(),
  country: z.string(),
  state: z.nullable(z.string()),
  rate: z.number(),
  name: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TaxRate = z.infer<typeof TaxRateSchema>;
export const TaxRateListSchema = listOf(TaxRateSchema);

// ---------- carts and checkout links ----------

export const CartLineInputSchema = z.strictObject({
  offer_id: IdSchema,
  quantity: z.optional(QuantitySchema),
  is_gift: z.optional(z.boolean()),
});
export type CartLineInput = z.infer<typeof CartLineInputSchema>;

/** One upsell step of a checkout link: its offer, and the downsell offered when the shopper declines it. */
export const UpsellStepInputSchema = z.strictObject({
  offer_id: IdSchema,
  downsell_offer_id: z.optional(z.nullable(IdSchema)),
});
export type UpsellStepInput = z.infer<typeof UpsellStepInputSchema>;

const lines = z.array(CartLineInputSchema).check(z.minLength(1, 'Add at least one offer.'), z.maxLength(50));

/** A cart's line may also start subscribed (subscribe and save), as if the shopper had chosen it; the page can undo it. */
export const CartLineWithChoiceSchema = z.extend(CartLineInputSchema, {
  subscribe: z.optional(z.boolean({ error: 'subscribe must be true or false.' })),
});
const cartLines = z
  .array(CartLineWithChoiceSchema)
  .check(z.minLength(1, 'Add at least one offer.'), z.maxLength(50));
/** Up to 3 offers shown as order-bump boxes (docs/checkout-rules.md, "Order bumps"); the rule says more than 3 in words. */
export const BumpOfferIdsSchema = z.array(IdSchema).check(z.maxLength(50));

/** Details the merchant already knows, prefilled on the page. */
export const CartCustomerInputSchema = z.partial(
  z.strictObject({
    email: z.email({ error: 'Enter a valid email address.' }),
    phone: text(40),
    ship_fname: text(100),
    ship_lname: text(100),
    ship_address1: text(200),
    ship_address2: text(200),
    ship_city: text(100),
    ship_state: text(100),
    ship_zipcode: text(20),
    ship_country: CountryCodeSchema,
  }),
);
export type CartCustomerInput = z.infer<typeof CartCustomerInputSchema>;

export const CreateCartSchema = z.strictObject({
  offers: cartLines,
  discount_code: z.optional(z.nullable(text(64))),
  customer: z.optional(CartCustomerInputSchema),
});
export type CreateCart = z.infer<typeof CreateCartSchema>;

export const CreatedCartSchema = z.object({ cart_token: z.string(), checkout_url: z.string() });

const checkoutLinkFields = {
  public_id: z.optional(
    z
      .string()
      .check(
        z.regex(/^[A-Za-z0-9][A-Za-z0-9_-]{2,63}$/, 'Use 3 to 64 letters, digits, dashes or underscores.'),
      ),
  ),
  name: z.optional(text(200)),
  offers: lines,
  /** the link's order bumps; empty uses the organization's default bump_offer_ids */
  bump_offer_ids: z.optional(BumpOfferIdsSchema),
  discount_code: z.optional(z.nullable(text(64))),
  active: z.optional(z.boolean()),
  expires_at: z.optional(z.nullable(DateTimeSchema)),
  /** one-click offers shown after the order completes, in order (docs/api.md, "Upsells") */
  upsells: z.optional(
    z
      .array(UpsellStepInputSchema)
      .check(z.maxLength(3, 'A link offers at most 3 upsell steps after the purchase.')),
  ),
};
export const CreateCheckoutLinkSchema = z.strictObject(checkoutLinkFields);
export type CreateCheckoutLink = z.infer<typeof CreateCheckoutLinkSchema>;
const { public_id: _publicId, ...updatableLinkFields } = checkoutLinkFields;
export const UpdateCheckoutLinkSchema = z.partial(z.strictObject(updatableLinkFields));
export type UpdateCheckoutLink = z.infer<typeof UpdateCheckoutLinkSchema>;

export const CheckoutLinkSchema = z.object({
  id: z.int(),
  public_id: z.string(),
  cart_token: z.string(),
  checkout_url: z.string(),
  name: z.string(),
  offers: z.array(z.object({ offer_id: z.int(), quantity: z.int(), is_gift: z.boolean() })),
  bump_offer_ids: z.array(z.int()),
  discount_code: z.nullable(z.string()),
  active: z.boolean(),
  expires_at: z.nullable(z.string()),
  upsells: z.array(z.object({ offer_id: z.int(), downsell_offer_id: z.nullable(z.int()) })),
  created_at: z.string(),
  updated_at: z.string(),
});
export type CheckoutLink = z.infer<typeof CheckoutLinkSchema>;
export const CheckoutLinkListSchema = listOf(CheckoutLinkSchema);

// ---------- organization ----------

export const OrganizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  currency: z.string(),
  /** true once carts exist: their amounts are in this currency, so a PATCH of another answers 409 */
  currency_locked: z.boolean(),
  client_options: ClientOptionsSchema,
  sections: SectionsSchema,
  subscription_terms: SubscriptionTermsSchema,
  legal: LegalLinksSchema,
  logo_url: z.nullable(z.string()),
  dunning: DunningSchema,
  subscription_emails: SubscriptionEmailsSchema,
  abandoned_checkout: AbandonedCheckoutSchema,
  self_service: SelfServiceSchema,
  /** order bumps of carts whose checkout link names none (docs/checkout-rules.md, "Order bumps") */
  bump_offer_ids: z.array(z.int()),
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
  subscription_terms: z.optional(SubscriptionTermsSchema),
  legal: z.optional(LegalLinksSchema),
  logo_url: z.optional(z.nullable(ImageUrlSchema)),
  dunning: z.optional(DunningSchema),
  subscription_emails: z.optional(SubscriptionEmailsSchema),
  abandoned_checkout: z.optional(AbandonedCheckoutPatchSchema),
  self_service: z.optional(SelfServiceSchema),
  bump_offer_ids: z.optional(BumpOfferIdsSchema),
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
});
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
  /** the order this one was an accepted upsell of (docs/api.md, "Upsells"); null for any other order */
  parent_order_id: z.nullable(z.int()),
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
