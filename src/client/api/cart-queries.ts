import type { Cart, PreviewResponse } from '../../contract/cart.js';
import type { CheckoutApi } from './checkout-api.js';
import { createQueryCache, type QueryCache } from './query-cache.js';
import type { CachedQuery } from './use-cached-query.js';

/** Cached query data is kept 60 s after last use (docs/checkout-rules.md#cached-server-data). */
export const QUERY_GC_TIME_MS = 60_000;

/** The cart changes only through this page's own calls, which write their answers into the cache. */
export function createCartCache(): QueryCache {
  return createQueryCache({ gcTimeMs: QUERY_GC_TIME_MS });
}

export const cartKey = (token: string) => `cart/${token}`;

/**
 * Writes a cart into the cache. A failed cache update must not break the page: it is logged to the console
 * (docs/checkout-rules.md#cached-server-data) and the page keeps its previous data.
 */
export function setCachedCart(cache: QueryCache, token: string, cart: Cart): void {
  try {
    cache.setData(cartKey(token), cart);
  } catch (error) {
    console.error('Could not update the cached cart', error);
  }
}

export function updateCachedCart(cache: QueryCache, token: string, update: (cart: Cart) => Cart): void {
  try {
    cache.updateData<Cart>(cartKey(token), update);
  } catch (error) {
    console.error('Could not update the cached cart', error);
  }
}

/**
 * GET carts/{token}. A __c__ link or __g__ claim answers a new cart with its own token: the answer is cached under
 * both tokens so the page (and a reload at the new address) reads the same cart.
 */
export function cartQuery(api: CheckoutApi, cache: QueryCache, token: string): CachedQuery<Cart> {
  return {
    key: cartKey(token),
    fetch: async () => {
      const cart = await api.getCart(token);
      if (cart.cart_token !== token) setCachedCart(cache, cart.cart_token, cart);
      return cart;
    },
  };
}

/**
 * The cart with a preview's amounts, shipping profiles and stored preview. A preview only prices the cart: the
 * order's own state (its id, status, completion) stays the cart's, so a preview answered after the order was placed
 * or declined never takes the page back; a completed cart ignores previews.
 */
export function withPreview(cart: Cart, preview: PreviewResponse): Cart {
  if (cart.order.status === 'complete') return cart;
  return {
    ...cart,
    order: {
      ...cart.order,
      shipping_profile_id: preview.order.shipping_profile_id,
      shipping_profiles: preview.order.shipping_profiles,
      is_recurring: preview.order.is_recurring,
      shipping_information_required: preview.order.shipping_information_required,
    },
    offers: preview.offers,
    subtotal: preview.subtotal,
    subtotal_items: preview.subtotal_items,
    total_discount: preview.total_discount,
    total_tax: preview.total_tax,
    total_campaign_shipping: preview.total_campaign_shipping,
    total_offer_shipping: preview.total_offer_shipping,
    total_gift_cards: preview.total_gift_cards,
    total: preview.total,
    preview: preview.preview,
  };
}

/** A gift answer replaces its line. */
export function withOffer(cart: Cart, offer: Cart['offers'][number]): Cart {
  return { ...cart, offers: cart.offers.map((line) => (line.id === offer.id ? offer : line)) };
}
