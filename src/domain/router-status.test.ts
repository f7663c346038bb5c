import { describe, expect, it } from 'vitest';
import {
  cartTokenCookie,
  initialRouterStatus,
  readCartTokenCookie,
  routerStatusReducer,
} from './router-status.js';

const TOKEN = 'Ab3dEf6hIj9kLm2nOp5qRs8t';

describe('router status', () => {
  it('starts with the route changing and no cookie', () => {
    expect(initialRouterStatus(TOKEN)).toEqual({
      routeChanging: true,
      dynamicLink: false,
      cartTokenCookieSet: false,
    });
  });

  it('knows a dynamic link (__c__ or __g__)', () => {
    expect(initialRouterStatus('__c__coffee').dynamicLink).toBe(true);
    expect(initialRouterStatus('__g__AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA').dynamicLink).toBe(true);
  });

  it('stops changing route once the cart answered, and records the cookie', () => {
    const resolved = routerStatusReducer(initialRouterStatus('__c__coffee'), {
      type: 'route_resolved',
      cartToken: TOKEN,
    });
    expect(resolved).toEqual({ routeChanging: false, dynamicLink: true, cartTokenCookieSet: false });
    expect(routerStatusReducer(resolved, { type: 'cookie_set' }).cartTokenCookieSet).toBe(true);
  });
});

describe('cart token cookie', () => {
  it('remembers plain tokens only, for /checkout, securely over https', () => {
    expect(cartTokenCookie(TOKEN, true)).toBe(
      `checkout_cart=${TOKEN}; Path=/checkout; Max-Age=2592000; SameSite=Lax; Secure`,
    );
    expect(cartTokenCookie('__c__coffee', false)).toBeNull();
    expect(cartTokenCookie('x;y', false)).toBeNull();
  });

  it('reads the token back, ignoring other cookies and garbage', () => {
    expect(readCartTokenCookie(`a=1; checkout_cart=${TOKEN}; b=2`)).toBe(TOKEN);
    expect(readCartTokenCookie('checkout_cart=<script>')).toBeNull();
    expect(readCartTokenCookie(undefined)).toBeNull();
  });
});
