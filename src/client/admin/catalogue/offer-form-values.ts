// An offer's form (docs/dashboard.md, "Catalogue"): every field of CreateOfferSchema, as typed, and its body.
import type { Offer } from '../../../contract/merchant.js';
import { amountOf, amountText, wholeOf } from './form-values.js';
import {
  translationFieldOrder,
  translationsBody,
  translationValues,
  type TranslationValues,
} from './offer-translation-values.js';

export const MAX_OPTIONS = 10;

export interface OfferFormValues {
  offer_name: string;
  offer_title: string;
  /** the order-bump box's one line; empty falls back to the title, then the name */
  bump_text: string;
  item_id: string;
  item_name: string;
  item_image: string;
  item_category: string;
  item_options: { name: string; value: string }[];
  override_initial_item_id: string;
  override_initial_item_name: string;
  price: string;
  is_recurring: boolean;
  billing_interval_days: string;
  next_price: string;
  /** prices by cycle (docs/subscriptions.md): each empty for none */
  trial_days: string;
  discounted_cycles: string;
  discounted_price: string;
  total_cycles: string;
  /** a prepaid plan (docs/subscriptions.md, "Prepaid plans"): empty for none */
  prepaid_cycles: string;
  prepaid_renewal: 'renew' | 'end';
  /** subscribe and save, on one-off offers only (docs/subscriptions.md) */
  has_subscribe_and_save: boolean;
  subscribe_interval_days: string;
  subscribe_percent_off: string;
  is_giftable: boolean;
  is_taxable: boolean;
  requires_shipping: boolean;
  shipping_price: string;
  has_digital_access: boolean;
  digital_url: string;
  digital_instructions: string;
  /** the offer's text in other languages (docs/api.md, "Translations"), each field empty to fall back */
  translations: TranslationValues;
  active: boolean;
}

/** A new offer's form: the API's defaults (taxable, shipped, active). */
export const NEW_OFFER: OfferFormValues = {
  offer_name: '',
  offer_title: '',
  bump_text: '',
  item_id: '',
  item_name: '',
  item_image: '',
  item_category: '',
  item_options: [],
  override_initial_item_id: '',
  override_initial_item_name: '',
  price: '',
  is_recurring: false,
  billing_interval_days: '30',
  next_price: '',
  trial_days: '',
  discounted_cycles: '',
  discounted_price: '',
  total_cycles: '',
  prepaid_cycles: '',
  prepaid_renewal: 'renew',
  has_subscribe_and_save: false,
  subscribe_interval_days: '30',
  subscribe_percent_off: '10',
  is_giftable: false,
  is_taxable: true,
  requires_shipping: true,
  shipping_price: '0',
  has_digital_access: false,
  digital_url: '',
  digital_instructions: '',
  translations: {},
  active: true,
};

export function offerFormValues(offer: Offer): OfferFormValues {
  return {
    offer_name: offer.offer_name,
    offer_title: offer.offer_title,
    bump_text: offer.bump_text ?? '',
    item_id: offer.item_id,
    item_name: offer.item_name,
    item_image: offer.item_image ?? '',
    item_category: offer.item_category,
    item_options: offer.item_options.map((option) => ({ ...option })),
    override_initial_item_id: offer.override_initial_item_id ?? '',
    override_initial_item_name: offer.override_initial_item_name ?? '',
    price: amountText(offer.price),
    is_recurring: offer.is_recurring,
    billing_interval_days: offer.billing_interval_days === null ? '30' : String(offer.billing_interval_days),
    next_price: amountText(offer.next_price),
    trial_days: amountText(offer.trial_days),
    discounted_cycles: amountText(offer.discounted_cycles),
    discounted_price: amountText(offer.discounted_price),
    total_cycles: amountText(offer.total_cycles),
    prepaid_cycles: amountText(offer.prepaid_cycles),
    prepaid_renewal: offer.prepaid_renewal ?? 'renew',
    has_subscribe_and_save: offer.subscribe_and_save !== null,
    subscribe_interval_days: String(offer.subscribe_and_save?.interval_days ?? 30),
    subscribe_percent_off: String(offer.subscribe_and_save?.percent_off ?? 10),
    is_giftable: offer.is_giftable,
    is_taxable: offer.is_taxable,
    requires_shipping: offer.requires_shipping,
    shipping_price: amountText(offer.shipping_price),
    has_digital_access: offer.digital_access !== null,
    digital_url: offer.digital_access?.url ?? '',
    digital_instructions: offer.digital_access?.instructions ?? '',
    translations: translationValues(offer),
    active: offer.active,
  };
}

const orNull = (text: string) => (text.trim() === '' ? null : text);

/**
 * The API's body for the form's values; a one-off offer has no interval, later price or cycles, and only it may
 * offer subscribe and save.
 */
export function offerBody(values: OfferFormValues): Record<string, unknown> {
  return {
    offer_name: values.offer_name,
    offer_title: values.offer_title,
    bump_text: orNull(values.bump_text),
    item_id: values.item_id,
    item_name: values.item_name,
    item_image: orNull(values.item_image),
    item_category: values.item_category,
    item_options: values.item_options,
    override_initial_item_id: orNull(values.override_initial_item_id),
    override_initial_item_name: orNull(values.override_initial_item_name),
    price: amountOf(values.price),
    is_recurring: values.is_recurring,
    billing_interval_days: values.is_recurring ? wholeOf(values.billing_interval_days) : null,
    next_price: values.is_recurring ? (amountOf(values.next_price) ?? null) : null,
    trial_days: values.is_recurring ? (wholeOf(values.trial_days) ?? null) : null,
    discounted_cycles: values.is_recurring ? (wholeOf(values.discounted_cycles) ?? null) : null,
    discounted_price: values.is_recurring ? (amountOf(values.discounted_price) ?? null) : null,
    total_cycles: values.is_recurring ? (wholeOf(values.total_cycles) ?? null) : null,
    ...prepaidBody(values),
    subscribe_and_save:
      !values.is_recurring && values.has_subscribe_and_save
        ? {
            interval_days: wholeOf(values.subscribe_interval_days),
            percent_off: wholeOf(values.subscribe_percent_off),
          }
        : null,
    is_giftable: values.is_giftable,
    is_taxable: values.is_taxable,
    requires_shipping: values.requires_shipping,
    shipping_price: amountOf(values.shipping_price) ?? 0,
    digital_access: values.has_digital_access
      ? { url: values.digital_url, instructions: values.digital_instructions }
      : null,
    translations: translationsBody(values.translations),
    active: values.active,
  };
}

/** A recurring offer's prepaid fields: both null when the cycles are left empty. */
function prepaidBody(values: OfferFormValues): { prepaid_cycles: unknown; prepaid_renewal: unknown } {
  const cycles = values.is_recurring ? (wholeOf(values.prepaid_cycles) ?? null) : null;
  return { prepaid_cycles: cycles, prepaid_renewal: cycles === null ? null : values.prepaid_renewal };
}

/** The form's fields in the order it shows them, for its error summary. */
export function offerFieldOrder(values: OfferFormValues): string[] {
  return [
    'offer_name',
    'offer_title',
    'bump_text',
    'item_id',
    'item_name',
    'item_image',
    'item_category',
    'item_options',
    ...values.item_options.flatMap((_, i) => [`item_options.${i}.name`, `item_options.${i}.value`]),
    'override_initial_item_id',
    'override_initial_item_name',
    'price',
    'is_recurring',
    'billing_interval_days',
    'next_price',
    'trial_days',
    'discounted_cycles',
    'discounted_price',
    'total_cycles',
    'prepaid_cycles',
    'prepaid_renewal',
    'subscribe_and_save',
    'subscribe_and_save.interval_days',
    'subscribe_and_save.percent_off',
    'is_giftable',
    'is_taxable',
    'requires_shipping',
    'shipping_price',
    'digital_access',
    'digital_access.url',
    'digital_access.instructions',
    ...translationFieldOrder(values.translations),
    'active',
  ];
}
