// A checkout link's form (docs/dashboard.md, "Catalogue"): every field of CreateCheckoutLinkSchema, as typed.
import type { CheckoutLink, Offer } from '../../../contract/merchant.js';
import { ApiFailure } from '../admin-api.js';
import { failureOf, type FormFailure } from '../kit/form-failure.js';
import { isoToLocal, localToIso, wholeOf } from './form-values.js';

export interface LinkLineValues {
  /** the chosen offer's id as the select holds it; empty until one is chosen */
  offer_id: string;
  quantity: string;
  is_gift: boolean;
  /** starts subscribed in the carts the link makes (subscribe and save; docs/api.md) */
  subscribe: boolean;
}

/** An upsell step after the purchase (docs/api.md, "Upsells"): its offer and its downsell, as the selects hold them. */
export interface LinkUpsellValues {
  offer_id: string;
  /** empty: no downsell */
  downsell_offer_id: string;
}

export interface LinkFormValues {
  public_id: string;
  name: string;
  lines: LinkLineValues[];
  /** the order bumps' offer ids as the selects hold them ('' until one is chosen); none: the store's default */
  bumps: string[];
  upsells: LinkUpsellValues[];
  discount_code: string;
  active: boolean;
  expires_at: string;
}

export const MAX_LINES = 50;

/** The most order bumps a link names (docs/checkout-rules.md, "Order bumps"). */
export const MAX_BUMPS = 3;

export const NEW_LINE: LinkLineValues = { offer_id: '', quantity: '1', is_gift: false, subscribe: false };

export const MAX_UPSELLS = 3;

export const NEW_UPSELL: LinkUpsellValues = { offer_id: '', downsell_offer_id: '' };

export const NEW_LINK: LinkFormValues = {
  public_id: '',
  name: '',
  lines: [NEW_LINE],
  bumps: [],
  upsells: [],
  discount_code: '',
  active: true,
  expires_at: '',
};

export function linkFormValues(link: CheckoutLink): LinkFormValues {
  return {
    public_id: link.public_id,
    name: link.name,
    lines: link.offers.map((line) => ({
      offer_id: String(line.offer_id),
      quantity: String(line.quantity),
      is_gift: line.is_gift,
      subscribe: line.subscribe,
    })),
    bumps: link.bump_offer_ids.map(String),
    upsells: link.upsells.map((step) => ({
      offer_id: String(step.offer_id),
      downsell_offer_id: step.downsell_offer_id === null ? '' : String(step.downsell_offer_id),
    })),
    discount_code: link.discount_code ?? '',
    active: link.active,
    expires_at: isoToLocal(link.expires_at),
  };
}

/**
 * The subscribe-and-save box of a line: shown when its offer allows it, or when the line is preset though the offer
 * no longer allows it (so the merchant can untick what the server refuses); null hides it.
 */
export function subscribeBoxLabel(
  offer: Pick<Offer, 'subscribe_and_save'> | undefined,
  line: Pick<LinkLineValues, 'subscribe'>,
): string | null {
  const terms = offer?.subscribe_and_save ?? null;
  if (terms === null) return line.subscribe ? 'Subscribe and save (the offer no longer allows it)' : null;
  return `Subscribe and save: every ${terms.interval_days} days at ${terms.percent_off} % off`;
}

/** The API's body; the public id only when making a link (it cannot change), and only when one is given. */
export function linkBody(values: LinkFormValues, creating: boolean): Record<string, unknown> {
  return {
    ...(creating && values.public_id.trim() !== '' ? { public_id: values.public_id.trim() } : {}),
    name: values.name,
    offers: values.lines.map((line) => ({
      offer_id: wholeOf(line.offer_id),
      quantity: wholeOf(line.quantity),
      is_gift: line.is_gift,
      subscribe: line.subscribe,
    })),
    // A bump row left on "Choose an offer" names nothing.
    bump_offer_ids: values.bumps.filter((id) => id !== '').map(wholeOf),
    upsells: values.upsells.map((step) => ({
      offer_id: wholeOf(step.offer_id),
      downsell_offer_id: step.downsell_offer_id === '' ? null : wholeOf(step.downsell_offer_id),
    })),
    discount_code: values.discount_code.trim() === '' ? null : values.discount_code.trim(),
    active: values.active,
    expires_at: values.expires_at === '' ? null : localToIso(values.expires_at),
  };
}

export function linkFieldOrder(values: LinkFormValues): string[] {
  return [
    'public_id',
    'name',
    'offers',
    ...values.lines.flatMap((_, i) => [
      `offers.${i}.offer_id`,
      `offers.${i}.quantity`,
      `offers.${i}.is_gift`,
      `offers.${i}.subscribe`,
    ]),
    'bump_offer_ids',
    ...values.bumps.map((_, i) => `bump_offer_ids.${i}`),
    'upsells',
    ...values.upsells.flatMap((_, i) => [`upsells.${i}.offer_id`, `upsells.${i}.downsell_offer_id`]),
    'discount_code',
    'active',
    'expires_at',
  ];
}

/** What the server refused; a public id that is taken (409) is said by its field. */
export function linkFailure(error: unknown): FormFailure {
  if (error instanceof ApiFailure && error.status === 409)
    return { message: null, fields: { public_id: error.message } };
  return failureOf(error);
}
