import type { CartBump } from '../../../contract/cart.js';
import { bumpTextOf, cartBumpOffers, chooseBumpOfferIds } from '../../../domain/order-bumps.js';
import { major, majorOrNull } from '../../platform/http/money-input.js';
import { settingsOf } from '../organizations/organization-service.js';
import type { BumpOfferRow } from './cart-snapshot-repository.js';
import { isGiftClaimCart, type CartState } from './cart-state.js';

/**
 * The order bumps a cart shows (docs/checkout-rules.md, "Order bumps"): its link's, else the organization's default;
 * active offers not already a plain line of the cart; none once its order is complete.
 */
export function bumpsOfCart(state: CartState): { offer: BumpOfferRow; selected: boolean }[] {
  if (state.order?.status === 'complete') return [];
  const ids = chooseBumpOfferIds({
    linkBumpOfferIds: state.linkBumpOfferIds,
    organizationBumpOfferIds: settingsOf(state.organization).bumpOfferIds,
    isGiftClaim: isGiftClaimCart(state),
  });
  return cartBumpOffers(ids, state.bumpOffers, state.lines);
}

/** The boxes as the shopper API answers them: the unit price a ticked box adds, before any discount. */
export function presentBumps(state: CartState): CartBump[] {
  const currency = state.organization.currency;
  return bumpsOfCart(state).map(({ offer, selected }) => ({
    offer_id: offer.id,
    item_name: offer.item_name,
    item_image: offer.item_image,
    text: bumpTextOf(offer),
    price: major(offer.price, currency),
    is_recurring: offer.is_recurring,
    billing_interval_days: offer.billing_interval_days,
    next_price: offer.is_recurring ? majorOrNull(offer.next_price ?? offer.price, currency) : null,
    selected,
  }));
}
