// Order bumps (docs/checkout-rules.md, "Order bumps"): which offers a cart shows as boxes above the pay button,
// what a merchant may name, what ticking or unticking a box does, and what its checkbox says.
import { formatMoney, fromMajor, minor } from './money.js';

/** The most bump offers a checkout link or an organization names. */
export const MAX_BUMP_OFFERS = 3;

/**
 * The bump offers a cart starts from: its checkout link's when the link names any, else the organization's default.
 * A gift recipient's claim cart has none: its one line is already paid for.
 */
export function chooseBumpOfferIds(input: {
  linkBumpOfferIds: readonly number[];
  organizationBumpOfferIds: readonly number[];
  isGiftClaim: boolean;
}): number[] {
  if (input.isGiftClaim) return [];
  const chosen = input.linkBumpOfferIds.length > 0 ? input.linkBumpOfferIds : input.organizationBumpOfferIds;
  return chosen.slice(0, MAX_BUMP_OFFERS);
}

export interface BumpOfferFacts {
  id: number;
  active: boolean;
}

export interface BumpLineFacts {
  offer_id: number;
  is_bump: boolean;
}

/**
 * The bumps a cart shows, in the merchant's order: offers still active, and not already in the cart as a line of
 * their own (the box would add a second line of the same thing). `selected` is whether its bump line is in the cart.
 */
export function cartBumpOffers<Offer extends BumpOfferFacts>(
  bumpOfferIds: readonly number[],
  offers: readonly Offer[],
  lines: readonly BumpLineFacts[],
): { offer: Offer; selected: boolean }[] {
  const byId = new Map(offers.map((offer) => [offer.id, offer]));
  const plainOfferIds = new Set(lines.filter((line) => !line.is_bump).map((line) => line.offer_id));
  const bumpOfferIdsInCart = new Set(lines.filter((line) => line.is_bump).map((line) => line.offer_id));
  const shown: { offer: Offer; selected: boolean }[] = [];
  for (const id of new Set(bumpOfferIds)) {
    const offer = byId.get(id);
    if (!offer || !offer.active || plainOfferIds.has(id)) continue;
    shown.push({ offer, selected: bumpOfferIdsInCart.has(id) });
  }
  return shown;
}

/** The box's one line: the offer's bump text, else its title, else its name. */
export function bumpTextOf(offer: {
  bump_text: string | null;
  offer_title: string;
  offer_name: string;
}): string {
  return offer.bump_text?.trim() || offer.offer_title.trim() || offer.offer_name;
}

export interface BumpCandidate {
  id: number;
  active: boolean;
}

/**
 * Problems with a merchant's list of bump offers, keyed `bump_offer_ids` or `bump_offer_ids.N`: at most 3, each once,
 * each an active offer of the organization (`offers`: those found), none already a line of the link.
 */
export function checkBumpOfferIds(
  ids: readonly number[],
  offers: readonly BumpCandidate[],
  lineOfferIds: readonly number[] = [],
): Record<string, string> {
  const fields: Record<string, string> = {};
  if (ids.length > MAX_BUMP_OFFERS) {
    fields.bump_offer_ids = `Name at most ${MAX_BUMP_OFFERS} bump offers; this list has ${ids.length}.`;
    return fields;
  }
  const byId = new Map(offers.map((offer) => [offer.id, offer]));
  const lines = new Set(lineOfferIds);
  const seen = new Set<number>();
  ids.forEach((id, index) => {
    const key = `bump_offer_ids.${index}`;
    const offer = byId.get(id);
    if (seen.has(id)) fields[key] = `Offer ${id} is named twice; name each bump offer once.`;
    else if (!offer) fields[key] = `No offer with id ${id} exists.`;
    else if (!offer.active) fields[key] = `Offer ${id} is not active; activate it or choose another.`;
    else if (lines.has(id)) {
      fields[key] = `Offer ${id} is already a line of this link, so it cannot also be a bump.`;
    }
    seen.add(id);
  });
  return fields;
}

/** A bump line of the cart for the offer, and whether the shopper removed it (unticked, or quantity 0). */
export interface BumpLineState {
  removed: boolean;
}

export type BumpChange = 'add' | 'restore' | 'remove' | 'none' | 'not_a_bump';

/**
 * What ticking (`selected`) or unticking a box does to the cart: ticking adds the line once (ticking again changes
 * nothing), unticking removes it (again: nothing). An offer that is not one of the cart's bumps can only be unticked,
 * and only while its line is there (the merchant may have taken it off the link meanwhile).
 */
export function bumpChange(input: {
  selected: boolean;
  isCartBump: boolean;
  line: BumpLineState | null;
}): BumpChange {
  const { selected, isCartBump, line } = input;
  const inCart = line !== null && !line.removed;
  if (selected) {
    if (!isCartBump) return 'not_a_bump';
    if (inCart) return 'none';
    return line ? 'restore' : 'add';
  }
  if (inCart) return 'remove';
  return isCartBump ? 'none' : 'not_a_bump';
}

/** What a box's checkbox needs of its bump (amounts in major units, as on the wire). */
export interface BumpLabelFacts {
  item_name: string;
  price: number;
  is_recurring: boolean;
  billing_interval_days: number | null;
  next_price: number | null;
}

function every(days: number): string {
  if (days === 1) return 'every day';
  if (days === 7) return 'every week';
  return `every ${days} days`;
}

/**
 * The checkbox's label, saying what ticking does: "Add Travel mug for $12.00"; a recurring bump also says what it
 * charges later, so ticking it never starts a subscription the words did not announce.
 */
export function bumpCheckboxLabel(bump: BumpLabelFacts, currency: string): string {
  const money = (amount: number) => formatMoney(fromMajor(amount, currency) ?? minor(0), currency);
  const today = `Add ${bump.item_name} for ${money(bump.price)}`;
  if (!bump.is_recurring || bump.billing_interval_days === null) return today;
  return `${today}, then ${money(bump.next_price ?? bump.price)} ${every(bump.billing_interval_days)}`;
}
