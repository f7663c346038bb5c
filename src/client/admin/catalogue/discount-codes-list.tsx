// The discount codes tab (docs/dashboard.md, "Catalogue"): each code, what it takes off, its use and its dates.
import { AdminLink } from '../kit/admin-link.js';
import { formatDateTime } from '../kit/format.js';
import { Pager, usePagedList } from '../kit/paged-list.js';
import { QueryState } from '../kit/query-state.js';
import { ScreenHeading } from '../screen-heading.js';
import { discountText, usesText } from './catalogue-words.js';
import { codesKey, readCodes } from './catalogue-queries.js';
import { useCurrency } from './use-currency.js';

const when = (iso: string | null, none: string) => (iso === null ? none : formatDateTime(iso));

export function DiscountCodesList() {
  const currency = useCurrency();
  const list = usePagedList(
    codesKey,
    (startingAfter) => readCodes(startingAfter),
    (code) => code.id,
  );
  return (
    <div className="admin-stack">
      <ScreenHeading>Discount codes</ScreenHeading>
      <p className="admin-actions">
        <AdminLink to="/admin/catalogue/discount-codes/new" className="button button--primary">
          New discount code
        </AdminLink>
      </p>
      {!list.query.data || currency === null ? (
        <QueryState error={list.query.error} loading="Reading the discount codes…" />
      ) : list.items.length === 0 ? (
        <p>No discount codes yet. Make one with “New discount code”.</p>
      ) : (
        <div className="admin-table-wrap">
          <table className="admin-table">
            <caption className="catalogue-caption">Discount codes, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Code</th>
                <th scope="col">Discount</th>
                <th scope="col">Use</th>
                <th scope="col">Starts</th>
                <th scope="col">Ends</th>
                <th scope="col">Active</th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((code) => (
                <tr key={code.id}>
                  <td>
                    <AdminLink to={`/admin/catalogue/discount-codes/${code.id}`}>{code.code}</AdminLink>
                  </td>
                  <td>{discountText(code, currency)}</td>
                  <td>{usesText(code)}</td>
                  <td>{when(code.starts_at, 'At once')}</td>
                  <td>{when(code.ends_at, 'Never')}</td>
                  <td>{code.active ? 'Yes' : 'No'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager label="Discount codes" list={list} />
    </div>
  );
}
