// Shipping and tax (docs/dashboard.md, "Shipping and tax"): the store's shipping profiles and tax rates, a page at a
// time, each opening its own screen.
import { useQuery } from '@tanstack/react-query';
import type { ShippingProfile, TaxRate } from '../../../contract/merchant.js';
import { AdminLink } from '../kit/admin-link.js';
import { formatMoney } from '../kit/format.js';
import { Pager, usePagedList } from '../kit/paged-list.js';
import { QueryState } from '../kit/query-state.js';
import { ScreenHeading } from '../screen-heading.js';
import { ORGANIZATION_KEY, readOrganization } from '../settings/organization-query.js';
import { PROFILES_KEY, readProfilePage, readTaxRatePage, TAX_RATES_KEY } from './shipping-queries.js';

function ProfileList({ currency }: { currency: string }) {
  const list = usePagedList<ShippingProfile>(PROFILES_KEY, readProfilePage, (profile) => profile.id);
  return (
    <section className="admin-card" aria-labelledby="profiles-heading">
      <div className="shipping-head">
        <h2 id="profiles-heading">Shipping profiles</h2>
        <AdminLink to="/admin/shipping/profiles/new" className="button button--secondary">
          New shipping profile
        </AdminLink>
      </div>
      <p>A price for the countries listed; free when the items after discount reach the free-over amount.</p>
      {!list.query.data ? (
        <QueryState error={list.query.error} loading="Reading the shipping profiles…" />
      ) : list.items.length === 0 ? (
        <p>No shipping profiles yet: nothing can ship until one serves the shopper's country.</p>
      ) : (
        <div className="admin-table-wrap">
          <table className="admin-table" aria-labelledby="profiles-heading">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Countries</th>
                <th scope="col" className="admin-number">
                  Price
                </th>
                <th scope="col" className="admin-number">
                  Free over
                </th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((profile) => (
                <tr key={profile.id}>
                  <td>
                    <AdminLink to={`/admin/shipping/profiles/${profile.id}`}>{profile.name}</AdminLink>
                  </td>
                  <td>{profile.countries.join(', ')}</td>
                  <td className="admin-number">{formatMoney(profile.price, currency)}</td>
                  <td className="admin-number">
                    {profile.free_over === null ? 'Never free' : formatMoney(profile.free_over, currency)}
                  </td>
                  <td>{profile.active ? 'Active' : 'Off'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager label="Shipping profiles" list={list} />
    </section>
  );
}

function TaxRateList() {
  const list = usePagedList<TaxRate>(TAX_RATES_KEY, readTaxRatePage, (rate) => rate.id);
  return (
    <section className="admin-card" aria-labelledby="tax-heading">
      <div className="shipping-head">
        <h2 id="tax-heading">Tax rates</h2>
        <AdminLink to="/admin/shipping/tax-rates/new" className="button button--secondary">
          New tax rate
        </AdminLink>
      </div>
      <p>A rate for a country, or for a state of it: the state's own rate wins over the country's.</p>
      {!list.query.data ? (
        <QueryState error={list.query.error} loading="Reading the tax rates…" />
      ) : list.items.length === 0 ? (
        <p>No tax rates yet: orders are charged no tax.</p>
      ) : (
        <div className="admin-table-wrap">
          <table className="admin-table" aria-labelledby="tax-heading">
            <thead>
              <tr>
                <th scope="col">Place</th>
                <th scope="col">Name</th>
                <th scope="col" className="admin-number">
                  Rate
                </th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((rate) => (
                <tr key={rate.id}>
                  <td>
                    <AdminLink to={`/admin/shipping/tax-rates/${rate.id}`}>
                      {rate.state ? `${rate.country}, ${rate.state}` : rate.country}
                    </AdminLink>
                  </td>
                  <td>{rate.name || '—'}</td>
                  <td className="admin-number">{rate.rate}%</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager label="Tax rates" list={list} />
    </section>
  );
}

export function ShippingHome() {
  const organization = useQuery({ queryKey: ORGANIZATION_KEY, queryFn: readOrganization });
  return (
    <>
      <ScreenHeading>Shipping and tax</ScreenHeading>
      {!organization.data ? (
        <QueryState error={organization.error} loading="Reading the store…" />
      ) : (
        <div className="admin-stack">
          <ProfileList currency={organization.data.currency} />
          <TaxRateList />
        </div>
      )}
    </>
  );
}
