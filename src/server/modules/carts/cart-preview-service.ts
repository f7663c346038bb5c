// Tax and shipping for the address a shopper is typing, stored on the cart as its preview.
import type { PreviewQuery, PreviewResponse, StoredPreview } from '../../../contract/cart.js';
import { isCountryCode } from '../../../domain/countries.js';
import type { Database } from '../../platform/db/database.js';
import { validationError } from '../../platform/errors.js';
import type { ShopperContext } from '../organizations/request-context.js';
import { setCartPreview } from './carts-repository.js';
import { priceCartState, type PricingAddress } from './cart-pricing.js';
import { presentCart } from './cart-presenter.js';
import { refuseIfComplete, requireCartState } from './cart-service.js';

function previewAddress(query: PreviewQuery): PricingAddress {
  const sameAddress = query.same_address !== 'false';
  const shipCountry = query.ship_country ?? null;
  return {
    shipCountry,
    shipState: query.ship_state ?? null,
    billCountry: query.bill_country ?? (sameAddress ? shipCountry : null),
    billState: query.bill_state ?? (sameAddress ? (query.ship_state ?? null) : null),
  };
}

/**
 * Tax and shipping for an address and shipping profile. With ship_country the preview is stored on the cart;
 * without it the profiles are emptied, the chosen one cleared and the stored preview dropped. Echoes version.
 */
export async function previewCart(
  db: Database,
  shopper: ShopperContext,
  token: string,
  query: PreviewQuery,
  now: Date,
): Promise<PreviewResponse> {
  const fields: Record<string, string> = {};
  for (const key of ['ship_country', 'bill_country'] as const) {
    const value = query[key];
    if (value !== undefined && !isCountryCode(value))
      fields[key] = 'Use a two-letter ISO country code such as US.';
  }
  if (query.shipping_profile_id !== undefined && !/^\d{1,15}$/.test(query.shipping_profile_id)) {
    fields.shipping_profile_id = 'Choose one of the shipping options offered.';
  }
  if (query.same_address !== undefined && !['true', 'false'].includes(query.same_address)) {
    fields.same_address = 'Use true or false.';
  }
  if (Object.keys(fields).length > 0) throw validationError(fields);

  const address = previewAddress(query);
  return db.transaction(async (tx) => {
    // The shipping profiles and tax rates of the address come with the cart.
    const state = await requireCartState(tx, shopper, token, now, { lock: true, places: address });
    const { organization, cart } = state;
    refuseIfComplete(state);
    const requested =
      query.shipping_profile_id === undefined ? cart.shipping_profile_id : Number(query.shipping_profile_id);
    const pricing = await priceCartState(tx, state, { address, requestedProfileId: requested, now });
    const chosenId = pricing.chosenProfile?.id ?? null;
    const figures = presentCart(state, pricing, { subscriptions: [], paymentMethod: null });

    let stored: StoredPreview | null = null;
    if (address.shipCountry) {
      stored = {
        ship_country: address.shipCountry,
        ship_state: query.ship_state ?? '',
        ship_zipcode: query.ship_zipcode ?? '',
        ship_city: query.ship_city ?? '',
        bill_country: query.bill_country ?? '',
        bill_state: query.bill_state ?? '',
        bill_zipcode: query.bill_zipcode ?? '',
        same_address: query.same_address !== 'false',
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
      notice: pricing.shippingNotice,
    };
  });
}
