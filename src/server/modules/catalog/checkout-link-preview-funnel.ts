// What a checkout link's preview shows around its lines (docs/api.md, "Checkout link preview"): the order-bump boxes
// a visit shows and the offers after the purchase, each priced by the checkout's own pricing (priceCartState).
import type {
  CheckoutLinkPreviewBump,
  CheckoutLinkPreviewUpsellOffer,
} from '../../../contract/checkout-link-preview.js';
import { bumpTextOf, cartBumpOffers, chooseBumpOfferIds } from '../../../domain/order-bumps.js';
import { pricedAsChosen } from '../../../domain/subscribe-and-save.js';
import type { Queryable } from '../../platform/db/database.js';
import { major, majorOrNull } from '../../platform/http/money-input.js';
import { priceCartState } from '../carts/cart-pricing.js';
import type { CartLineRow } from '../carts/carts-repository.js';
import type { CartState } from '../carts/cart-state.js';
import { settingsOf } from '../organizations/organization-service.js';
import type { CheckoutLinkRow } from './checkout-links-repository.js';
import { findOffers, type OfferRow } from './offers-repository.js';

/** An offer as the cart line a visit would make of it (the preview makes no cart). */
export function lineOf(
  offer: OfferRow,
  index: number,
  line: { quantity: number; is_gift: boolean; subscribe?: boolean },
): CartLineRow {
  const { id, organization_id: _org, active: _active, created_at: _c, updated_at: _u, ...fields } = offer;
  // Priced as the cart's snapshot prices it: a line the link starts subscribed is a recurring line.
  return pricedAsChosen({
    ...fields,
    // Stands for the cart line's id, which pricing only uses to match its answer to the line.
    id: index + 1,
    offer_id: id,
    position: index + 1,
    quantity: line.quantity,
    // As a visit makes its cart: a gift line of an offer no longer giftable is an ordinary line.
    is_gift: line.is_gift && offer.is_giftable,
    is_bump: false,
    price_override: null,
    // As the link starts it (the shopper may still change it on the page); a stale preset on a gift is not priced.
    subscribed: line.subscribe ?? false,
    once_unit_price: offer.price,
    gift_name: null,
    gift_email: null,
    gift_date: null,
    gift_message: null,
    gift_phone: null,
    order_offer_notes: null,
  });
}

/**
 * The boxes a visit shows, as the cart chooses them (bumpsOfCart): the link's bumps, else the store's default;
 * active offers that are not already a line of the link.
 */
export async function previewBumps(
  db: Queryable,
  state: CartState,
  link: CheckoutLinkRow,
): Promise<{ bumps: CheckoutLinkPreviewBump[]; from: 'link' | 'organization' | 'none' }> {
  const ids = chooseBumpOfferIds({
    linkBumpOfferIds: link.bump_offer_ids,
    organizationBumpOfferIds: settingsOf(state.organization).bumpOfferIds,
    isGiftClaim: false,
  });
  const offers = await findOffers(db, state.organization.id, ids);
  const shown = cartBumpOffers(ids, offers, state.lines);
  const currency = state.organization.currency;
  const bumps = shown.map(({ offer }) => ({
    offer_id: offer.id,
    offer_name: offer.offer_name,
    item_name: offer.item_name,
    item_image: offer.item_image,
    text: bumpTextOf(offer),
    price: major(offer.price, currency),
    is_recurring: offer.is_recurring,
    billing_interval_days: offer.is_recurring ? offer.billing_interval_days : null,
    next_price: offer.is_recurring ? majorOrNull(offer.next_price ?? offer.price, currency) : null,
  }));
  const from = bumps.length === 0 ? 'none' : link.bump_offer_ids.length > 0 ? 'link' : 'organization';
  return { bumps, from };
}

/** One offer after the purchase, priced as its linked order's one line before the shipping method and tax. */
async function priceUpsellOffer(
  db: Queryable,
  state: CartState,
  offer: OfferRow,
  now: Date,
): Promise<CheckoutLinkPreviewUpsellOffer> {
  const alone: CartState = {
    ...state,
    cart: { ...state.cart, discount_code_id: null },
    discountCode: null,
    lines: [lineOf(offer, 0, { quantity: 1, is_gift: false })],
    linkBumpOfferIds: [],
    bumpOffers: [],
  };
  const { result } = await priceCartState(db, alone, { address: null, requestedProfileId: null, now });
  const money = (amount: number) => major(amount, state.organization.currency);
  const line = result.lines[0];
  const prepaid = line?.billingPlan?.prepaid;
  const recurring =
    offer.is_recurring && offer.billing_interval_days !== null && line && line.nextCycleTotal !== null
      ? {
          amount: money(line.nextCycleTotal),
          // A prepaid plan's later charge is the next whole period's (docs/subscriptions.md, "Prepaid plans").
          interval_days: prepaid ? prepaid.cycles * prepaid.intervalDays : offer.billing_interval_days,
        }
      : null;
  return {
    offer_id: offer.id,
    offer_name: offer.offer_name,
    item_name: offer.item_name,
    item_image: offer.item_image,
    text: offer.offer_title,
    active: offer.active,
    subtotal: money(result.subtotal),
    shipping: money(result.totalOfferShipping),
    amount: money(result.total),
    recurring,
  };
}

/** The link's steps after the purchase, in order, each offer and its downsell priced. */
export async function previewUpsells(db: Queryable, state: CartState, link: CheckoutLinkRow, now: Date) {
  const ids = link.upsells.flatMap((step) =>
    step.downsell_offer_id === null ? [step.offer_id] : [step.offer_id, step.downsell_offer_id],
  );
  const offers = new Map(
    (await findOffers(db, state.organization.id, ids)).map((offer) => [offer.id, offer]),
  );
  const steps = [];
  // One after the other: the caller's connection may be a transaction's, which runs one query at a time.
  for (const [index, step] of link.upsells.entries()) {
    const offer = offers.get(step.offer_id);
    if (!offer) continue;
    const downsell = step.downsell_offer_id === null ? undefined : offers.get(step.downsell_offer_id);
    steps.push({
      step: index + 1,
      offer: await priceUpsellOffer(db, state, offer, now),
      downsell: downsell ? await priceUpsellOffer(db, state, downsell, now) : null,
    });
  }
  return steps;
}
