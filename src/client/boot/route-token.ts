import { isUniqueCartToken } from '../../domain/cart-token.js';
import { cartTokenCookie } from '../../domain/router-status.js';

const PAGE_PATH = /^\/checkout\/([^/?#]+)\/?$/;

export interface RouteToken {
  token: string;
  /** false for a __c__ link or __g__ claim, which answers a new cart with its own token */
  isUnique: boolean;
}

/** The cart token from the route (/checkout/{token}) or the cart_token query parameter. */
export function readRouteToken(location: Pick<Location, 'pathname' | 'search'>): RouteToken | null {
  const match = PAGE_PATH.exec(location.pathname);
  let token: string | null = null;
  if (match?.[1]) {
    try {
      token = decodeURIComponent(match[1]);
    } catch {
      token = null;
    }
  } else token = new URLSearchParams(location.search).get('cart_token');
  if (!token) return null;
  return { token, isUnique: isUniqueCartToken(token) };
}

/** The address of the same page for another cart token, keeping the query (minus cart_token) and the hash. */
export function addressForToken(location: Pick<Location, 'search' | 'hash'>, token: string): string {
  const params = new URLSearchParams(location.search);
  params.delete('cart_token');
  const search = params.toString();
  return `/checkout/${encodeURIComponent(token)}${search ? `?${search}` : ''}${location.hash}`;
}

/** Points the address bar at the cart's own token, so a reload does not create another cart. */
export function replaceAddressToken(token: string): void {
  window.history.replaceState(window.history.state, '', addressForToken(window.location, token));
}

/** Remembers the cart for /checkout without a token (30 days, this path only, Secure over https). */
export function rememberCartToken(token: string): boolean {
  const cookie = cartTokenCookie(token, window.location.protocol === 'https:');
  if (cookie === null) return false;
  document.cookie = cookie;
  return true;
}

/** Removes one query parameter from the address bar (the express payment's token once it is dealt with). */
export function removeQueryParameter(name: string): void {
  const url = new URL(window.location.href);
  if (!url.searchParams.has(name)) return;
  url.searchParams.delete(name);
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}
