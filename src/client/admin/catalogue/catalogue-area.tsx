// The dashboard's Catalogue (docs/dashboard.md, "Catalogue"): offers, discount codes and checkout links, each a tab
// with its list, and a screen per object at /admin/catalogue/<tab>/<id> (or /new).
import { NoSuchScreen } from '../kit/no-such-screen.js';
import type { AreaProps } from '../area.js';
import { AdminLink } from '../kit/admin-link.js';
import { CheckoutLinkScreen } from './checkout-link-screen.js';
import { CheckoutLinksList } from './checkout-links-list.js';
import { DiscountCodeScreen } from './discount-code-screen.js';
import { DiscountCodesList } from './discount-codes-list.js';
import { OfferScreen } from './offer-screen.js';
import { OffersList } from './offers-list.js';
import './catalogue.css';

const TABS = [
  { tab: 'offers', label: 'Offers' },
  { tab: 'discount-codes', label: 'Discount codes' },
  { tab: 'checkout-links', label: 'Checkout links' },
] as const;

/** "new" → null; a positive whole number → it; anything else → undefined (no such screen). */
function idOf(segment: string): number | null | undefined {
  if (segment === 'new') return null;
  return /^[1-9]\d{0,15}$/.test(segment) ? Number(segment) : undefined;
}

function Screen({ tab, rest }: { tab: string; rest: string[] }) {
  const [segment, ...more] = rest;
  if (segment === undefined) {
    if (tab === 'offers') return <OffersList />;
    if (tab === 'discount-codes') return <DiscountCodesList />;
    if (tab === 'checkout-links') return <CheckoutLinksList />;
  } else if (more.length === 0) {
    const id = idOf(segment);
    if (id !== undefined) {
      if (tab === 'offers') return <OfferScreen key={segment} id={id} />;
      if (tab === 'discount-codes') return <DiscountCodeScreen key={segment} id={id} />;
      if (tab === 'checkout-links') return <CheckoutLinkScreen key={segment} id={id} />;
    }
  }
  return (
    <NoSuchScreen
      heading="No such screen"
      says="This address is not a screen of the catalogue."
      back={{ to: '/admin/catalogue', label: 'Go to the catalogue' }}
    />
  );
}

export default function CatalogueArea({ rest }: AreaProps) {
  const [tab = 'offers', ...more] = rest;
  return (
    <div className="catalogue">
      <nav className="admin-tabs" aria-label="Catalogue">
        <ul>
          {TABS.map((entry) => (
            <li key={entry.tab}>
              <AdminLink
                to={`/admin/catalogue/${entry.tab}`}
                current={entry.tab === tab && more.length === 0}
              >
                {entry.label}
              </AdminLink>
            </li>
          ))}
        </ul>
      </nav>
      <Screen tab={tab} rest={more} />
    </div>
  );
}
