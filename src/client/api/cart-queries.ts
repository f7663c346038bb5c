import { QueryClient, queryOptions } from '@tanstack/react-query';
import type { Cart, PreviewResponse } from '../../contract/cart.js';
import type { CheckoutApi } from './checkout-api.js';

/** Cached query data is kept 60 s after last use (docs/checkout-rules.md#cached-server-data). */
export const QUERY_GC_TIME_MS = 60_000;

/**
 * The page's server state, one client per page. The cart changes only through the page's own calls, which write their
 * answers in: an answer is fresh until invalidated, and a failure is shown, not retried (docs/checkout-rules.md#cached-server-data).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        gcTime: QUERY_GC_TIME_MS,
        staleTime: Infinity,
        retry: false,
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
        // The HTTP client says when the store cannot be reached: ask even when the browser thinks it is offline.
        networkMode: 'always',
      },
    },
  });
}

export const cartKey = (token: string) => ['cart', token] as const;

/**
 * Writes a cart into the cache. A failed cache update must not break the page: it is logged to the console
 * (docs/checkout-rules.md#cached-server-data) and the page keeps its previous data.
 */
export function setCachedCart(client: QueryClient, token: string, cart: Cart): void {
  try {
    client.setQueryData<Cart>(cartKey(token), cart);
  } catch (error) {
    console.error('Could not update the cached cart', error);
  }
}

/** Changes the cached cart from its latest value; nothing happens when there is none. */
export function updateCachedCart(client: QueryClient, token: string, update: (cart: Cart) => Cart): void {
  try {
    client.setQueryData<Cart>(cartKey(token), (cached) =>
      cached === undefined ? undefined : update(cached),
    );
  } catch (error) {
    console.error('Could not update the cached cart', error);
  }
}

/**
 * Marks the cached cart stale and fetches it again for the page (a fetch already running may have left before the
 * change, so it is replaced); resolves when that fetch settled, never rejects: a failure shows on the page.
 */
export async function invalidateCart(client: QueryClient, token: string): Promise<void> {
  await client.invalidateQueries({ queryKey: cartKey(token), exact: true });
}

/**
 * GET carts/{token}. A __c__ link or __g__ claim answers a new cart with its own token: the answer is cached under
 * both tokens so the page (and a reload at the new address) reads the same cart.
 */
export function cartQuery(api: CheckoutApi, client: QueryClient, token: string) {
  return queryOptions({
    queryKey: cartKey(token),
    queryFn: async (): Promise<Cart> => {
      const cart = await api.getCart(token);
      if (cart.cart_token !== token) setCachedCart(client, cart.cart_token, cart);
      return cart;
    },
  });
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
