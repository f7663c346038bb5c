// The dashboard's Shipping and tax (docs/dashboard.md, "Shipping and tax"): /admin/shipping lists both;
// /admin/shipping/profiles/<id|new> and /admin/shipping/tax-rates/<id|new> open one.
import { NoSuchScreen } from '../kit/no-such-screen.js';
import type { AreaProps } from '../area.js';
import { useLocation } from '../navigation.js';
import { ProfileScreen } from './profile-screen.js';
import { ShippingHome } from './shipping-home.js';
import { objectIdOf } from './shipping-queries.js';
import { TaxRateScreen } from './tax-rate-screen.js';
import './shipping.css';

export default function ShippingArea({ rest }: AreaProps) {
  const { search } = useLocation();
  const created = search === '?created';
  const [kind, segment, ...more] = rest;
  const id = more.length === 0 ? objectIdOf(segment) : undefined;
  if (kind === undefined) return <ShippingHome />;
  if (kind === 'profiles' && id !== undefined)
    return <ProfileScreen key={id ?? 'new'} id={id} created={created} />;
  if (kind === 'tax-rates' && id !== undefined)
    return <TaxRateScreen key={id ?? 'new'} id={id} created={created} />;
  return (
    <NoSuchScreen
      heading="No such screen"
      says="This address is not a screen of shipping and tax."
      back={{ to: '/admin/shipping', label: 'Go to shipping and tax' }}
    />
  );
}
