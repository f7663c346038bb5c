// The offers tab (docs/dashboard.md, "Catalogue"): every offer with its price, its schedule and what it allows.
import type { Offer } from '../../../contract/merchant.js';
import { AdminLink } from '../kit/admin-link.js';
import { formatMoney } from '../kit/format.js';
import { Pager, usePagedList } from '../kit/paged-list.js';
import { QueryState } from '../kit/query-state.js';
import { ScreenHeading } from '../screen-heading.js';
import { intervalText } from './catalogue-words.js';
import { offersKey, readOffers } from './catalogue-queries.js';
import { useCurrency } from './use-currency.js';

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

function scheduleText(offer: Offer, currency: string): string {
  if (!offer.is_recurring || offer.billing_interval_days === null) return 'One-off';
  const next = offer.next_price ?? offer.price;
  return `${intervalText(offer.billing_interval_days)}, then ${formatMoney(next, currency)}`;
}

export function OffersList() {
  const currency = useCurrency();
  const list = usePagedList(
    offersKey,
    (startingAfter) => readOffers(startingAfter),
    (offer) => offer.id,
  );
  return (
    <div className="admin-stack">
      <ScreenHeading>Offers</ScreenHeading>
      <p className="admin-actions">
        <AdminLink to="/admin/catalogue/offers/new" className="button button--primary">
          New offer
        </AdminLink>
      </p>
      {!list.query.data || currency === null ? (
        <QueryState error={list.query.error} loading="Reading the offers…" />
      ) : list.items.length === 0 ? (
        <p>No offers yet. Make one with “New offer”.</p>
      ) : (
        <div className="admin-table-wrap">
          <table className="admin-table">
            <caption className="catalogue-caption">Offers, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Image</th>
                <th scope="col">Name</th>
                <th scope="col">Item</th>
                <th scope="col" className="admin-number">
                  Price
                </th>
                <th scope="col">Recurring</th>
                <th scope="col">Giftable</th>
                <th scope="col">Taxable</th>
                <th scope="col">Active</th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((offer) => (
                <tr key={offer.id}>
                  <td>
                    {offer.item_image ? (
                      <img className="catalogue-thumb" src={offer.item_image} alt={offer.item_name} />
                    ) : (
                      <span className="catalogue-muted">None</span>
                    )}
                  </td>
                  <td>
                    <AdminLink to={`/admin/catalogue/offers/${offer.id}`}>{offer.offer_name}</AdminLink>
                  </td>
                  <td>{offer.item_name}</td>
                  <td className="admin-number">{formatMoney(offer.price, currency)}</td>
                  <td>{scheduleText(offer, currency)}</td>
                  <td>{yesNo(offer.is_giftable)}</td>
                  <td>{yesNo(offer.is_taxable)}</td>
                  <td>{yesNo(offer.active)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager label="Offers" list={list} />
    </div>
  );
}
