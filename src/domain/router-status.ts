import { isUniqueCartToken } from './cart-token.js';

/**
 * Router status flags (docs/checkout-rules.md#cart-tokens): route changing (true until the address bar's token
 * names the cart itself), dynamic link (the page was opened through a __c__ link or a __g__ claim, which answer a
 * new cart), cart-token cookie set (the cart's token is remembered, so /checkout without a token resumes it).
 */
export interface RouterStatus {
  routeChanging: boolean;
  dynamicLink: boolean;
  cartTokenCookieSet: boolean;
}

export type RouterEvent =
  /** the first cart answer arrived: cartToken is the cart's own token */
  { type: 'route_resolved'; cartToken: string } | { type: 'cookie_set' };

export function initialRouterStatus(routeToken: string): RouterStatus {
  return { routeChanging: true, dynamicLink: !isUniqueCartToken(routeToken), cartTokenCookieSet: false };
}

export function routerStatusReducer(state: RouterStatus, event: RouterEvent): RouterStatus {
  switch (event.type) {
    case 'route_resolved':
      return state.routeChanging ? { ...state, routeChanging: false } : state;
    case 'cookie_set':
      return state.cartTokenCookieSet ? state : { ...state, cartTokenCookieSet: true };
  }
}

export const CART_TOKEN_COOKIE = 'checkout_cart';
/** As long as a cart stays open for checkout. */
const COOKIE_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

/** The Set-Cookie value remembering a cart token for /checkout (only plain tokens: a link would make a new cart). */
export function cartTokenCookie(cartToken: string, secure: boolean): string | null {
  if (!isUniqueCartToken(cartToken) || !/^[A-Za-z0-9]{20,64}$/.test(cartToken)) return null;
  return `${CART_TOKEN_COOKIE}=${cartToken}; Path=/checkout; Max-Age=${COOKIE_MAX_AGE_SECONDS}; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** The remembered cart token from a Cookie header or document.cookie, or null. */
export function readCartTokenCookie(cookieHeader: string | undefined): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === CART_TOKEN_COOKIE && value && /^[A-Za-z0-9]{20,64}$/.test(value)) return value;
  }
  return null;
}
