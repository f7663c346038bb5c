// Pricing a cart for an address and storing the answer as its preview: for the shopper's preview and for a merchant's
// cart made with its shipping address.
import type { PreviewQuery, PreviewResponse, StoredPreview } from '../../../contract/cart.js';
import type { Queryable } from '../../platform/db/database.js';
import { setCartPreview } from './carts-repository.js';
import type { Language } from '../../../i18n/languages.js';
import { priceCartState, sayNotice, type PricingAddress } from './cart-pricing.js';
import { presentCart } from './cart-presenter.js';
import type { CartState } from './cart-state.js';

/** The billing address is the shipping address while same_address holds, as it is when the order is placed. */
export function previewAddress(query: PreviewQuery): PricingAddress {
  const shipCountry = query.ship_country ?? null;
  const shipState = query.ship_state ?? null;
  if (query.same_address !== 'false' && shipCountry) {
    return { shipCountry, shipState, billCountry: shipCountry, billState: shipState };
  }
  return {
    shipCountry,
    shipState,
    billCountry: query.bill_country ?? null,
    billState: query.bill_state ?? null,
  };
}

/**
 * Prices a cart read with the query's places (and locked) for the query's address, and stores the answer as the
 * cart's preview: also used when a merchant creates a cart that already has its shipping address.
 */
export async function storeCartPreview(
  tx: Queryable,
  state: CartState,
  query: PreviewQuery,
  now: Date,
  language: Language,
): Promise<PreviewResponse> {
  const address = previewAddress(query);
  const { organization, cart } = state;
  const requested =
    query.shipping_profile_id === undefined ? cart.shipping_profile_id : Number(query.shipping_profile_id);
  const pricing = await priceCartState(tx, state, { address, requestedProfileId: requested, now });
  const chosenId = pricing.chosenProfile?.id ?? null;
  const figures = presentCart(state, pricing, { subscriptions: [], paymentMethod: null, language });

  let stored: StoredPreview | null = null;
  if (address.shipCountry) {
    const sameAddress = query.same_address !== 'false';
    stored = {
      ship_country: address.shipCountry,
      ship_state: query.ship_state ?? '',
      ship_zipcode: query.ship_zipcode ?? '',
      ship_city: query.ship_city ?? '',
      bill_country: sameAddress ? address.shipCountry : (query.bill_country ?? ''),
      bill_state: sameAddress ? (query.ship_state ?? '') : (query.bill_state ?? ''),
      bill_zipcode: sameAddress ? (query.ship_zipcode ?? '') : (query.bill_zipcode ?? ''),
      same_address: sameAddress,
      shipping_profile_id: chosenId === null ? '' : String(chosenId),
      subtotal: figures.subtotal,
      total_tax: figures.total_tax,
      total_campaign_shipping: figures.total_campaign_shipping,
      total_offer_shipping: figures.total_offer_shipping,
      total: figures.total,
      computed_at: now.toISOString(),
    };
  }
  await setCartPreview(tx, organization.id, cart.id, stored, stored ? chosenId : null, now);
  const view = { ...figures, preview: stored };
  return {
    version: query.version ?? null,
    order: view.order,
    customer: view.customer,
    offers: view.offers,
    subtotal: view.subtotal,
    subtotal_items: view.subtotal_items,
    total_discount: view.total_discount,
    total_tax: view.total_tax,
    total_campaign_shipping: view.total_campaign_shipping,
    total_offer_shipping: view.total_offer_shipping,
    total_gift_cards: view.total_gift_cards,
    total: view.total,
    preview: stored,
    notice: pricing.shippingNotice && sayNotice(pricing.shippingNotice, language),
  };
}
