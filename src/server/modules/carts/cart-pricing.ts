import type { StoredPreview } from '../../../contract/cart.js';
import {
  checkDiscountCode,
  discountRefusalMessage,
  type DiscountCheck,
} from '../../../domain/discount-rules.js';
import type { Language } from '../../../i18n/languages.js';
import { translatorFor } from '../../i18n/translator.js';
import type { RefusalMessage } from '../../platform/errors.js';
import type { DiscountCodeRow } from '../catalog/discount-codes-repository.js';
import { minor, ZERO } from '../../../domain/money.js';
import {
  priceCart,
  type PricingDiscount,
  type PricingLine,
  type PricingResult,
} from '../../../domain/pricing.js';
import type { Queryable } from '../../platform/db/database.js';
import {
  addressAsking,
  findAddressPlaces,
  pricingPlacesFrom,
  type PricingAddress,
} from './pricing-repository.js';
import type { ShippingProfileRow } from '../catalog/shipping-profiles-repository.js';
import { isGiftClaimCart, isShippingRequired, shipsWithOrder, type CartState } from './cart-state.js';

// The services' name for it too: they import it from here.
export type { PricingAddress };

/** What the cart tells its shopper: a stable code and a message said in the reader's language when answered. */
export interface Notice {
  code: string;
  message: RefusalMessage;
}

/** A notice as the answer carries it: its message in the request's language (docs/languages.md), the code unchanged. */
export function sayNotice(notice: Notice, language: Language): { code: string; message: string } {
  const { key, values } = typeof notice.message === 'function' ? notice.message(language) : notice.message;
  return { code: notice.code, message: translatorFor(language)(key, values) };
}

export type DiscountRefusalCheck = Extract<DiscountCheck, { ok: false }>;

export interface ShippingOption {
  profile: ShippingProfileRow;
  /** what this profile costs this cart now (0 past its free-over threshold) */
  price: number;
}

export interface CartPricing {
  result: PricingResult;
  /** the cart's code is attached but does not apply now (expired, minimum no longer met…) */
  discountNotice: Notice | null;
  /** why, to say in a reader's language (discountRefusalMessage) */
  discountRefusal: DiscountRefusalCheck | null;
  discountApplied: boolean;
  shippingOptions: ShippingOption[];
  chosenProfile: ShippingProfileRow | null;
  /** e.g. the requested shipping profile does not serve the country */
  shippingNotice: Notice | null;
}

/** Whether a code may discount this cart now (its window, uses, minimum and offers), and if not why. */
export function checkCartDiscount(state: CartState, code: DiscountCodeRow, now: Date): DiscountCheck {
  return checkDiscountCode(
    {
      code: code.code,
      active: code.active,
      startsAt: code.starts_at,
      endsAt: code.ends_at,
      usageLimit: code.usage_limit,
      usageCount: code.usage_count,
      minSubtotal: minor(code.min_subtotal),
      offerIds: code.offer_ids,
    },
    {
      now,
      subtotal: minor(
        state.lines.reduce((sum, line) => sum + (line.price_override ?? line.price) * line.quantity, 0),
      ),
      offerIds: state.lines.map((line) => line.offer_id),
      currency: state.organization.currency,
    },
  );
}

export function addressFromPreview(preview: StoredPreview | null): PricingAddress | null {
  if (!preview) return null;
  return {
    shipCountry: preview.ship_country || null,
    shipState: preview.ship_state || null,
    billCountry: preview.bill_country || null,
    billState: preview.bill_state || null,
  };
}

function pricingLines(state: CartState): PricingLine[] {
  const claim = isGiftClaimCart(state);
  return state.lines.map((line) => ({
    id: line.id,
    offerId: line.offer_id,
    unitPrice: minor(line.price_override ?? line.price),
    quantity: line.quantity,
    taxable: line.is_taxable,
    // The giver paid shipping with the gift: a claim is free.
    shippingPerUnit: claim ? ZERO : minor(line.shipping_price),
    shipsWithOrder: shipsWithOrder(line),
    recurring:
      line.is_recurring && line.billing_interval_days !== null
        ? {
            intervalDays: line.billing_interval_days,
            nextUnitPrice: minor(line.next_price ?? line.price),
            cycles: {
              trialDays: line.trial_days,
              discountedCycles: line.discounted_cycles,
              discountedUnitPrice: line.discounted_price === null ? null : minor(line.discounted_price),
              totalCycles: line.total_cycles,
            },
            prepaid:
              line.prepaid_cycles !== null && line.prepaid_renewal !== null
                ? { cycles: line.prepaid_cycles, renewal: line.prepaid_renewal }
                : null,
          }
        : null,
  }));
}

/** A country's name in the reader's language, as the page's country list names it. */
function countryName(code: string, language: Language): string {
  try {
    return new Intl.DisplayNames([language], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * Prices a cart for an address and a requested shipping profile: the one place the server computes amounts.
 * The requested profile must serve the country, else the cheapest that does is chosen and a notice says so.
 */
export async function priceCartState(
  db: Queryable,
  state: CartState,
  options: { address: PricingAddress | null; requestedProfileId: number | null; now: Date },
): Promise<CartPricing> {
  const lines = pricingLines(state);
  const claim = isGiftClaimCart(state);

  let discount: PricingDiscount | null = null;
  let discountNotice: Notice | null = null;
  let discountRefusal: DiscountRefusalCheck | null = null;
  const code = state.discountCode;
  if (code && !claim) {
    const check = checkCartDiscount(state, code, options.now);
    if (check.ok) {
      discount = {
        kind: code.kind,
        percentOffBp: code.percent_off_bp,
        amountOff: code.amount_off === null ? null : minor(code.amount_off),
        offerIds: code.offer_ids,
      };
    } else {
      discountRefusal = check;
      discountNotice = {
        code: check.code,
        message: (language) => discountRefusalMessage(check, language),
      };
    }
  }

  const address = options.address;
  const shipping = isShippingRequired(state);
  const shipCountry = shipping && !claim && address?.shipCountry ? address.shipCountry : null;
  const taxPlace =
    shipping && address?.shipCountry
      ? { country: address.shipCountry, state: address.shipState }
      : address?.billCountry
        ? { country: address.billCountry, state: address.billState }
        : address?.shipCountry
          ? { country: address.shipCountry, state: address.shipState }
          : null;
  // The profiles for the country and the tax rate for the place: read with the cart when it was read for this
  // address, else in one statement for only these places; read by the same SQL and the same parser either way.
  const places =
    shipCountry === null && taxPlace === null
      ? null
      : ((state.places && pricingPlacesFrom(state.places, shipCountry, taxPlace)) ??
        pricingPlacesFrom(
          await findAddressPlaces(db, state.organization.id, addressAsking(shipCountry, taxPlace)),
          shipCountry,
          taxPlace,
        ));

  let shippingProfiles: ShippingProfileRow[] = [];
  let chosenProfile: ShippingProfileRow | null = null;
  let shippingNotice: Notice | null = null;
  if (shipCountry !== null && places) {
    shippingProfiles = places.shippingProfiles;
    const requested =
      options.requestedProfileId === null
        ? undefined
        : shippingProfiles.find((p) => p.id === options.requestedProfileId);
    chosenProfile = requested ?? shippingProfiles[0] ?? null;
    if (shippingProfiles.length === 0) {
      if (places.hasShippingProfiles) {
        shippingNotice = {
          code: 'shipping_unavailable',
          message: (language) => ({
            key: 'checkout.notice.shipping_unavailable',
            values: { country: countryName(shipCountry, language) },
          }),
        };
      }
    } else if (options.requestedProfileId !== null && !requested && chosenProfile) {
      const chosen = chosenProfile.name;
      shippingNotice = {
        code: 'shipping_profile_changed',
        message: (language) => ({
          key: 'checkout.notice.shipping_profile_changed',
          values: { country: countryName(shipCountry, language), name: chosen },
        }),
      };
    }
  }
  const taxRate = places?.taxRate ?? null;

  const result = priceCart({
    lines,
    discount,
    shipping: chosenProfile
      ? {
          price: minor(chosenProfile.price),
          freeOver: chosenProfile.free_over === null ? null : minor(chosenProfile.free_over),
        }
      : null,
    taxRatePpm: taxRate?.rate_ppm ?? 0,
    giftCards: ZERO,
  });

  const shippingOptions = shippingProfiles.map((profile) => ({
    profile,
    price: profile.free_over !== null && result.subtotalItems >= profile.free_over ? 0 : profile.price,
  }));

  return {
    result,
    discountNotice,
    discountRefusal,
    discountApplied: discount !== null,
    shippingOptions,
    chosenProfile,
    shippingNotice,
  };
}
