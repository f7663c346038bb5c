import { describe, expect, it } from 'vitest';
import { areasFor, routeOf } from './navigation.js';

describe('routeOf', () => {
  it('opens the link and sign-in screens by their address, and home at /admin', () => {
    expect(routeOf('/admin/link')).toEqual({ area: 'link' });
    expect(routeOf('/admin/sign-in')).toEqual({ area: 'sign-in' });
    expect(routeOf('/admin')).toEqual({ area: 'home', rest: [] });
    expect(routeOf('/admin/')).toEqual({ area: 'home', rest: [] });
  });

  it('gives an area the rest of its address, and says when there is no such area', () => {
    expect(routeOf('/admin/orders')).toEqual({ area: 'orders', rest: [] });
    expect(routeOf('/admin/orders/12')).toEqual({ area: 'orders', rest: ['12'] });
    expect(routeOf('/admin/catalogue/offers/new')).toEqual({ area: 'catalogue', rest: ['offers', 'new'] });
    expect(routeOf('/admin/home')).toEqual({ area: 'not-found' });
    expect(routeOf('/admin/nowhere')).toEqual({ area: 'not-found' });
  });
});

describe('areasFor', () => {
  it("shows staff the store's work and the owner everything", () => {
    expect(areasFor('staff').map((entry) => entry.area)).toEqual([
      'home',
      'orders',
      'subscriptions',
      'catalogue',
      'shipping',
    ]);
    expect(areasFor('owner').map((entry) => entry.area)).toContain('developers');
    expect(areasFor('owner').map((entry) => entry.area)).toContain('staff');
  });
});
