// The merchant's catalogue in the contract (docs/api.md): offers, discount codes, shipping profiles, tax rates, carts
// and checkout links.
import { containsCardNumber } from '../domain/card.js';
import { LANGUAGES } from '../i18n/languages.js';
import {
  CountryCodeSchema,
  DateTimeSchema,
  IdSchema,
  listOf,
  MoneySchema,
  QuantitySchema,
} from './common.js';
import { ImageUrlSchema, requiredText, text } from './merchant-fields.js';
import { translationsOf } from './translations.js';
import { unlessUnused, z } from './zod.js';

// ---------- offers ----------

export const ItemOptionSchema = z.strictObject({ name: requiredText(50), value: requiredText(100) });

/**
 * An option in another language: the base option at the same place in the list; a name or value left out or empty
 * reads the base one (docs/api.md, "Translations").
 */
export const TranslatedItemOptionSchema = z.strictObject({
  name: z.optional(z.string().check(z.trim(), z.maxLength(50))),
  value: z.optional(z.string().check(z.trim(), z.maxLength(100))),
});

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

const BumpTextSchema = z
  .string()
  .check(z.trim(), z.minLength(1, 'Write the line, or send null.'), z.maxLength(200));

/** The offer fields a shopper reads that the merchant may give in another language. */
export const TRANSLATED_OFFER_FIELDS = [
  'offer_name',
  'offer_title',
  'item_name',
  'override_initial_item_name',
  'bump_text',
] as const;
export type TranslatedOfferField = (typeof TRANSLATED_OFFER_FIELDS)[number];

export const OfferTranslationsSchema = unlessUnused(() =>
  translationsOf({
    offer_name: requiredText(200),
    offer_title: text(200),
    item_name: requiredText(200),
    override_initial_item_name: text(200),
    bump_text: BumpTextSchema,
    /** as many as item_options, in the same order (offer-service checks it against the offer) */
    item_options: z.array(TranslatedItemOptionSchema).check(z.maxLength(10)),
  }),
);
export type OfferTranslations = z.infer<typeof OfferTranslationsSchema>;

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
  bump_text: z.optional(z.nullable(BumpTextSchema)),
  active: z.optional(z.boolean()),
  /** the shopper-facing text in other languages (docs/api.md, "Translations"); what is left out reads the above */
  translations: z.optional(OfferTranslationsSchema),
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
  /** the shopper-facing text in other languages, by language (docs/api.md, "Translations") */
  translations: z.partialRecord(
    z.enum(LANGUAGES),
    z.object({
      offer_name: z.optional(z.string()),
      offer_title: z.optional(z.string()),
      item_name: z.optional(z.string()),
      override_initial_item_name: z.optional(z.string()),
      bump_text: z.optional(z.string()),
      item_options: z.optional(
        z.array(z.object({ name: z.optional(z.string()), value: z.optional(z.string()) })),
      ),
    }),
  ),
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

/**
 * A line of a cart or a checkout link may also start subscribed (subscribe and save), as if the shopper had chosen
 * it; the page can undo it.
 */
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
  offers: cartLines,
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
  /** subscribe: the line starts subscribed in the carts the link makes (subscribe and save) */
  offers: z.array(
    z.object({ offer_id: z.int(), quantity: z.int(), is_gift: z.boolean(), subscribe: z.boolean() }),
  ),
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
