// The dashboard's screens by address (docs/dashboard.md): one page, its screens moved between without a reload.
// An address is /admin/<area>/<rest…>; each area's screen reads its own rest (an id, a tab, "new").
import { useEffect, useState } from 'react';

export type StaffRole = 'owner' | 'staff';

export const AREAS = [
  { area: 'home', label: 'Home', path: '/admin', ownerOnly: false },
  { area: 'orders', label: 'Orders', path: '/admin/orders', ownerOnly: false },
  { area: 'subscriptions', label: 'Subscriptions', path: '/admin/subscriptions', ownerOnly: false },
  { area: 'catalogue', label: 'Catalogue', path: '/admin/catalogue', ownerOnly: false },
  { area: 'shipping', label: 'Shipping and tax', path: '/admin/shipping', ownerOnly: false },
  { area: 'settings', label: 'Settings', path: '/admin/settings', ownerOnly: true },
  { area: 'developers', label: 'Developers', path: '/admin/developers', ownerOnly: true },
  { area: 'staff', label: 'Staff', path: '/admin/staff', ownerOnly: true },
] as const;

export type Area = (typeof AREAS)[number]['area'];

export type Route =
  { area: 'link' } | { area: 'sign-in' } | { area: 'not-found' } | { area: Area; rest: string[] };

/** The areas a member's menu shows: staff do not see the owner's (the API refuses them those routes anyway). */
export function areasFor(role: StaffRole) {
  return AREAS.filter((entry) => role === 'owner' || !entry.ownerOnly);
}

export function routeOf(pathname: string): Route {
  const segments = pathname.replace(/\/+$/, '').split('/').filter(Boolean);
  if (segments[0] !== 'admin') return { area: 'not-found' };
  const [area = 'home', ...rest] = segments.slice(1);
  if (area === 'link' || area === 'sign-in') return { area };
  const known = AREAS.find((entry) => entry.area === area && entry.area !== 'home');
  if (segments.length === 1) return { area: 'home', rest: [] };
  return known ? { area: known.area, rest } : { area: 'not-found' };
}

/** Moves to a dashboard address (a path under /admin, with its query) without reloading the page. */
export function navigate(path: string, options: { replace?: boolean } = {}): void {
  if (options.replace) window.history.replaceState(null, '', path);
  else window.history.pushState(null, '', path);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

export interface Location {
  pathname: string;
  search: string;
}

/** The page's address, followed as it changes. */
export function useLocation(): Location {
  const read = () => ({ pathname: window.location.pathname, search: window.location.search });
  const [location, setLocation] = useState(read);
  useEffect(() => {
    const follow = () => setLocation(read());
    window.addEventListener('popstate', follow);
    return () => window.removeEventListener('popstate', follow);
  }, []);
  return location;
}
