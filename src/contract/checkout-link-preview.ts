import { z } from './zod.js';

/** One line of the checkout a link opens, priced as the checkout prices it (major units). */
export const CheckoutLinkPreviewLineSchema = z.object({
  offer_id: z.int(),
  offer_name: z.string(),
  item_name: z.string(),
  quantity: z.int(),
  is_gift: z.boolean(),
  unit_price: z.number(),
  /** unit_price × quantity */
  subtotal: z.number(),
  /** this line's share of the code's discount */
  discount: z.number(),
  /** the offer's own per-unit shipping × quantity */
  shipping: z.number(),
  /** subtotal − discount + shipping, before tax and the shipping method (they depend on the address) */
  total: z.number(),
  is_recurring: z.boolean(),
  billing_interval_days: z.nullable(z.int()),
  /** what each later charge of a recurring line is, before tax */
  next_cycle_total: z.nullable(z.number()),
});
export type CheckoutLinkPreviewLine = z.infer<typeof CheckoutLinkPreviewLineSchema>;

/** One order-bump box the link's checkout shows, as the checkout shows it (major units). */
export const CheckoutLinkPreviewBumpSchema = z.object({
  offer_id: z.int(),
  offer_name: z.string(),
  item_name: z.string(),
  item_image: z.nullable(z.string()),
  /** the box's one line */
  text: z.string(),
  /** the unit price a ticked box adds, before any discount */
  price: z.number(),
  is_recurring: z.boolean(),
  billing_interval_days: z.nullable(z.int()),
  /** what each later charge of a recurring bump is, per unit, before tax */
  next_price: z.nullable(z.number()),
});
export type CheckoutLinkPreviewBump = z.infer<typeof CheckoutLinkPreviewBumpSchema>;

/** An offer after the purchase (an upsell or its downsell), priced as one unit before tax and the shipping method. */
export const CheckoutLinkPreviewUpsellOfferSchema = z.object({
  offer_id: z.int(),
  offer_name: z.string(),
  item_name: z.string(),
  item_image: z.nullable(z.string()),
  /** the words the shopper is shown with it (the offer's title) */
  text: z.string(),
  /** false: its offer is no longer active */
  active: z.boolean(),
  subtotal: z.number(),
  /** the offer's own shipping */
  shipping: z.number(),
  /** subtotal + shipping: what accepting charges before the shipping method and tax */
  amount: z.number(),
  /** a recurring offer's later charges, before tax; null for a one-off offer */
  recurring: z.nullable(z.object({ amount: z.number(), interval_days: z.int() })),
});
export type CheckoutLinkPreviewUpsellOffer = z.infer<typeof CheckoutLinkPreviewUpsellOfferSchema>;

/** GET /checkout/api/merchant/checkout-links/{id}/preview: the checkout the link opens now, without opening it. */
export const CheckoutLinkPreviewSchema = z.object({
  checkout_link_id: z.int(),
  checkout_url: z.string(),
  currency: z.string(),
  /** false when a visit opens no checkout (the link is inactive, expired, or none of its offers is active) */
  opens_checkout: z.boolean(),
  /** why it opens none, in words; null when it opens one */
  closed_reason: z.nullable(z.string()),
  lines: z.array(CheckoutLinkPreviewLineSchema),
  /** the link's lines the checkout leaves out: their offer is no longer active */
  left_out: z.array(z.object({ offer_id: z.int(), offer_name: z.string(), reason: z.string() })),
  discount_code: z.nullable(z.string()),
  discount_applied: z.boolean(),
  /** why the link's code takes nothing off now (inactive, expired, used up, minimum not met…); null when it applies */
  discount_notice: z.nullable(z.string()),
  subtotal: z.number(),
  total_discount: z.number(),
  total_offer_shipping: z.number(),
  /** charged when the order is placed, before the shipping method and tax */
  due_today: z.number(),
  /** each recurring line's later charges, before tax */
  later_charges: z.array(
    z.object({
      offer_id: z.int(),
      item_name: z.string(),
      /** the next charge's amount */
      amount: z.number(),
      interval_days: z.int(),
      /** prices by cycle (a trial, discounted cycles, an end): the charges after the first cycle in words; else null */
      plan_description: z.nullable(z.string()),
    }),
  ),
  /** the order-bump boxes a visit shows (docs/api.md, "Order bumps"), in the merchant's order */
  bumps: z.array(CheckoutLinkPreviewBumpSchema),
  /** whose bumps they are: the link's own, the store's default (the link names none), or none at all */
  bumps_from: z.enum(['link', 'organization', 'none']),
  /** the offers after the purchase (docs/api.md, "Upsells"), each with the downsell shown when it is declined */
  upsells: z.array(
    z.object({
      step: z.int(),
      offer: CheckoutLinkPreviewUpsellOfferSchema,
      downsell: z.nullable(CheckoutLinkPreviewUpsellOfferSchema),
    }),
  ),
  /** what the preview cannot know: shipping and tax follow the shopper's address */
  address_note: z.string(),
  priced_at: z.string(),
});
export type CheckoutLinkPreview = z.infer<typeof CheckoutLinkPreviewSchema>;
