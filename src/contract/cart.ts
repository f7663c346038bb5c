import { schemaMessage } from './errors.js';
import { unlessUnused, z } from './zod.js';
import { LANGUAGES } from '../i18n/languages.js';

// The page imports this module for the answers' schemas: every schema the page does not use (requests', query
// strings') is built in unlessUnused, so the page's bundle leaves it out (tests/e2e/page-bundle.test.ts).

export { ADDRESS_FIELDS, type AddressField } from './address-fields.js';

/** payment_method_id values of a cart (the method of its last order attempt). */
export const PAYMENT_METHOD_IDS = { card: 1, paypal: 2 } as const;

export const ShippingProfileOptionSchema = z.object({
  shipping_profile_id: z.string(),
  name: z.string(),
  /** what this profile costs for this cart now (0 when the free-over threshold is met) */
  price: z.number(),
  free_over: z.nullable(z.number()),
});
export type ShippingProfileOption = z.infer<typeof ShippingProfileOptionSchema>;

export const CartOrderStatusSchema = z.enum(['open', 'pending', 'declined', 'awaiting_payment', 'complete']);
export type CartOrderStatus = z.infer<typeof CartOrderStatusSchema>;

export const SubscriptionNoticeSchema = z.object({
  order_offer_id: z.int(),
  item_name: z.string(),
  amount: z.number(),
  interval_days: z.int(),
  next_charge_at: z.string(),
});

export const CartOrderSchema = z.object({
  /** null until the shopper's first order attempt */
  order_id: z.nullable(z.int()),
  status: CartOrderStatusSchema,
  /** "" when none is chosen */
  shipping_profile_id: z.string(),
  shipping_profiles: z.array(ShippingProfileOptionSchema),
  is_recurring: z.boolean(),
  shipping_information_required: z.boolean(),
  is_test: z.boolean(),
  /** true for a gift recipient's claim cart (total 0) */
  is_gift_claim: z.boolean(),
  /** on a gift recipient's claim cart: who sent the gift (the giver's name as they ordered it) and their message */
  gift_from: z.nullable(z.object({ name: z.string(), message: z.string() })),
  completed_at: z.nullable(z.string()),
  /** after completion: each subscription the order started */
  subscriptions: z.array(SubscriptionNoticeSchema),
  /** after completion: one-click offers follow (GET carts/{token}/orders/{order_id}/upsell) */
  has_upsells: z.optional(z.boolean()),
});
export type CartOrder = z.infer<typeof CartOrderSchema>;

export const ItemOptionOutSchema = z.object({ name: z.string(), value: z.string() });

/**
 * A recurring line's prices by cycle (docs/subscriptions.md, "Prices by cycle"), amounts in major units: its phases
 * from cycle 1 (charged with the order: the line's total) on, each `cycles` long (null: until cancelled) at `amount`
 * (items, offer shipping and tax) every `interval_days`; the plan in words for the page and the terms box.
 */
export const BillingPlanSchema = z.object({
  phases: z.array(z.object({ cycles: z.nullable(z.int()), amount: z.number(), interval_days: z.int() })),
  /** cycles in all, the first included; null = until cancelled */
  total_cycles: z.nullable(z.int()),
  /** whether the plan has a trial, discounted cycles or an end (else: the same charge every interval) */
  has_special_cycles: z.boolean(),
  description: z.string(),
  /**
   * a prepaid plan (docs/subscriptions.md, "Prepaid plans"): each phase's cycle is one payment covering `cycles`
   * cycles of `interval_days`, the later ones shipped as $0 fulfilment orders; null for any other plan
   */
  prepaid: z.nullable(
    z.object({ cycles: z.int(), renewal: z.enum(['renew', 'end']), interval_days: z.int() }),
  ),
});
export type BillingPlan = z.infer<typeof BillingPlanSchema>;

/**
 * A cart line ("order offer"). Amounts in major units:
 * item_price = the offer's unit price (less its percent on a subscribed line); order_offer_price = the unit price
 * charged here (0 on a gift claim);
 * subtotal_offer = order_offer_price × quantity; discount = this line's share of the discount;
 * shipping = this line's per-offer shipping; tax = this line's tax; total = subtotal_offer − discount + shipping + tax.
 */
export const CartOfferSchema = z.object({
  id: z.int(),
  order_offer_id: z.int(),
  offer_id: z.int(),
  offer_name: z.string(),
  offer_title: z.string(),
  item_id: z.string(),
  item_name: z.string(),
  item_image: z.nullable(z.string()),
  item_category: z.string(),
  items_option_variation_name: z.string(),
  order_offer_item_options: z.array(ItemOptionOutSchema),
  override_initial_item_id: z.nullable(z.string()),
  override_initial_item_name: z.nullable(z.string()),
  order_offer_quantity: z.int(),
  item_price: z.number(),
  order_offer_price: z.number(),
  subtotal_offer: z.number(),
  discount: z.number(),
  discount_code: z.nullable(z.string()),
  shipping: z.number(),
  tax: z.number(),
  total: z.number(),
  is_taxable: z.boolean(),
  is_giftable: z.boolean(),
  is_gift: z.boolean(),
  /** the line came from an order-bump box (docs/checkout-rules.md, "Order bumps") */
  is_bump: z.boolean(),
  gift_name: z.string(),
  gift_email: z.string(),
  /** YYYY-MM-DD or null */
  gift_date: z.nullable(z.string()),
  gift_message: z.string(),
  gift_phone: z.string(),
  order_offer_notes: z.string(),
  is_recurring: z.boolean(),
  billing_interval_days: z.nullable(z.int()),
  /** later-cycle unit price */
  next_price: z.nullable(z.number()),
  /** what the next (second) cycle of this line charges: items, offer shipping and tax */
  next_cycle_total: z.nullable(z.number()),
  /** what each cycle charges, for a recurring line; null for a one-off line */
  billing_plan: z.nullable(BillingPlanSchema),
  /**
   * Subscribe and save, when this line may take it (a one-off offer that allows it, not a gift): the interval, the
   * percent off and the unit price each way; `subscribed` says which the shopper chose (docs/subscriptions.md).
   */
  subscribe_and_save: z.nullable(
    z.object({
      interval_days: z.int(),
      percent_off: z.int(),
      once_price: z.number(),
      subscribe_price: z.number(),
    }),
  ),
  subscribed: z.boolean(),
});
export type CartOffer = z.infer<typeof CartOfferSchema>;

/**
 * An order-bump box (docs/checkout-rules.md, "Order bumps"): `text` is its one line; `price` the unit price a ticked
 * box adds to the subtotal before any discount; a recurring one also says its interval and later-cycle price.
 */
export const CartBumpSchema = z.object({
  offer_id: z.int(),
  item_name: z.string(),
  item_image: z.nullable(z.string()),
  text: z.string(),
  price: z.number(),
  is_recurring: z.boolean(),
  billing_interval_days: z.nullable(z.int()),
  next_price: z.nullable(z.number()),
  selected: z.boolean(),
});
export type CartBump = z.infer<typeof CartBumpSchema>;

export const CustomerSchema = z.object({
  email: z.string(),
  phone: z.string(),
  same_address: z.boolean(),
  ship_fname: z.string(),
  ship_lname: z.string(),
  ship_address1: z.string(),
  ship_address2: z.string(),
  ship_city: z.string(),
  ship_state: z.string(),
  ship_zipcode: z.string(),
  ship_country: z.string(),
  bill_fname: z.string(),
  bill_lname: z.string(),
  bill_address1: z.string(),
  bill_address2: z.string(),
  bill_city: z.string(),
  bill_state: z.string(),
  bill_zipcode: z.string(),
  bill_country: z.string(),
});
export type Customer = z.infer<typeof CustomerSchema>;

export const StoredPreviewSchema = z.object({
  ship_country: z.string(),
  ship_state: z.string(),
  ship_zipcode: z.string(),
  ship_city: z.string(),
  bill_country: z.string(),
  bill_state: z.string(),
  bill_zipcode: z.string(),
  same_address: z.boolean(),
  shipping_profile_id: z.string(),
  subtotal: z.number(),
  total_tax: z.number(),
  total_campaign_shipping: z.number(),
  total_offer_shipping: z.number(),
  total: z.number(),
  computed_at: z.string(),
});
export type StoredPreview = z.infer<typeof StoredPreviewSchema>;

/**
 * The cart. subtotal = items before discount; subtotal_items = items after discount (what tax and free-shipping
 * thresholds apply to); total_items = number of units; total = subtotal − total_discount + total_offer_shipping +
 * total_campaign_shipping + total_tax − total_gift_cards.
 */
export const CartSchema = z.object({
  cart_token: z.string(),
  order: CartOrderSchema,
  offers: z.array(CartOfferSchema),
  customer: CustomerSchema,
  discount_code: z.nullable(z.string()),
  /** set when the attached code does not apply now (expired, minimum no longer met…): why, in words */
  discount_notice: z.optional(z.nullable(z.object({ code: z.string(), message: z.string() }))),
  subtotal: z.number(),
  subtotal_items: z.number(),
  total: z.number(),
  total_discount: z.number(),
  total_gift_cards: z.number(),
  total_items: z.int(),
  total_tax: z.number(),
  total_campaign_shipping: z.number(),
  total_offer_shipping: z.number(),
  currency_value: z.string(),
  /** 1 card, 2 express (PayPal-style); null before any order attempt */
  payment_method_id: z.nullable(z.int()),
  preview: z.nullable(StoredPreviewSchema),
  /** whether the shopper may change quantities (cart.editable, override winning) */
  editable: z.boolean(),
  /** the order-bump boxes shown above the pay button; empty once the order is complete */
  bumps: z.array(CartBumpSchema),
});
export type Cart = z.infer<typeof CartSchema>;

const checkoutMarker = unlessUnused(() => ({
  _is_vrio_checkout: z.optional(z.union([z.literal(1), z.literal('1'), z.literal(true)])),
  ip_address: z.optional(z.string().check(z.maxLength(64))),
}));

export const DiscountCodeRequestSchema = unlessUnused(() =>
  z.strictObject({
    discount_code: z
      .string({ error: schemaMessage('errors.field_discount_code_required') })
      .check(z.maxLength(64, schemaMessage('errors.field_discount_code_too_long'))),
    ...checkoutMarker,
  }),
);
export type DiscountCodeRequest = z.infer<typeof DiscountCodeRequestSchema>;

export const QuantityRequestSchema = unlessUnused(() =>
  z.strictObject({
    id: z.int({ error: schemaMessage('errors.field_line_id') }),
    quantity: z.int({ error: schemaMessage('errors.field_quantity_whole') }),
    ...checkoutMarker,
  }),
);
export type QuantityRequest = z.infer<typeof QuantityRequestSchema>;

export const SubscribeRequestSchema = unlessUnused(() =>
  z.strictObject({
    id: z.int({ error: schemaMessage('errors.field_line_id') }),
    subscribe: z.boolean({ error: schemaMessage('errors.field_subscribe_choice') }),
    ...checkoutMarker,
  }),
);
export type SubscribeRequest = z.infer<typeof SubscribeRequestSchema>;
export const BumpRequestSchema = unlessUnused(() =>
  z.strictObject({
    offer_id: z.int({ error: schemaMessage('errors.field_bump_offer') }),
    selected: z.boolean({ error: schemaMessage('errors.field_bump_selected') }),
    ...checkoutMarker,
  }),
);
export type BumpRequest = z.infer<typeof BumpRequestSchema>;
export const LanguageRequestSchema = unlessUnused(() =>
  z.strictObject({
    language: z.enum(LANGUAGES, { error: schemaMessage('errors.field_language') }),
    ...checkoutMarker,
  }),
);
export type LanguageRequest = z.infer<typeof LanguageRequestSchema>;

/** The text 'null' (and an empty value) means absent, so every parameter accepts at least those 4 characters. */
const queryText = (max: number) =>
  z.optional(
    z.pipe(
      z
        .string()
        .check(z.maxLength(Math.max(max, 4), schemaMessage('errors.field_max_length', { maximum: max }))),
      z.transform((value) => (value === 'null' || value.trim() === '' ? undefined : value.trim())),
    ),
  );

export const PreviewQuerySchema = unlessUnused(() =>
  z.strictObject({
    ship_country: queryText(2),
    ship_state: queryText(100),
    ship_zipcode: queryText(20),
    ship_city: queryText(100),
    bill_country: queryText(2),
    bill_state: queryText(100),
    bill_zipcode: queryText(20),
    same_address: queryText(5),
    shipping_profile_id: queryText(20),
    version: queryText(40),
    cypress: z.optional(z.string().check(z.maxLength(5))),
  }),
);
export type PreviewQuery = z.infer<typeof PreviewQuerySchema>;

export const PreviewResponseSchema = z.object({
  version: z.nullable(z.string()),
  order: CartOrderSchema,
  customer: CustomerSchema,
  offers: z.array(CartOfferSchema),
  subtotal: z.number(),
  subtotal_items: z.number(),
  total_discount: z.number(),
  total_tax: z.number(),
  total_campaign_shipping: z.number(),
  total_offer_shipping: z.number(),
  total_gift_cards: z.number(),
  total: z.number(),
  preview: z.nullable(StoredPreviewSchema),
  /** e.g. the requested shipping profile does not serve the country and the cheapest was chosen instead */
  notice: z.nullable(z.object({ code: z.string(), message: z.string() })),
});
export type PreviewResponse = z.infer<typeof PreviewResponseSchema>;

export const GIFT_MESSAGE_MAX_LENGTH = 500;
export const GIFT_NOTES_MAX_LENGTH = 500;

export const GiftRequestSchema = unlessUnused(() =>
  z.strictObject({
    order_offer_id: z.int({ error: schemaMessage('errors.field_gift_line') }),
    cart_token: z
      .string()
      .check(z.minLength(1, schemaMessage('errors.field_cart_token_required')), z.maxLength(64)),
    gift_name: z.string().check(z.maxLength(100, schemaMessage('errors.field_gift_name_too_long'))),
    gift_email: z.string().check(z.maxLength(254)),
    /** YYYY-MM-DD, today or later */
    gift_date: z.string().check(z.maxLength(10)),
    gift_message: z
      .string()
      .check(z.maxLength(GIFT_MESSAGE_MAX_LENGTH, schemaMessage('errors.field_gift_message_too_long'))),
    gift_phone: z.optional(z.string().check(z.maxLength(40))),
    order_offer_notes: z.optional(
      z.string().check(z.maxLength(GIFT_NOTES_MAX_LENGTH, schemaMessage('errors.field_gift_notes_too_long'))),
    ),
    ...checkoutMarker,
  }),
);
export type GiftRequest = z.infer<typeof GiftRequestSchema>;

export const GiftResponseSchema = z.object({ offer: CartOfferSchema });
export type GiftResponse = z.infer<typeof GiftResponseSchema>;

export const ClientErrorReportSchema = unlessUnused(() =>
  z.strictObject({
    message: z.string().check(z.maxLength(2000)),
    stack: z.optional(z.string().check(z.maxLength(10_000))),
    component_stack: z.optional(z.string().check(z.maxLength(10_000))),
    url: z.optional(z.string().check(z.maxLength(2000))),
    cart_token: z.optional(z.string().check(z.maxLength(64))),
    ...checkoutMarker,
  }),
);
export type ClientErrorReport = z.infer<typeof ClientErrorReportSchema>;
