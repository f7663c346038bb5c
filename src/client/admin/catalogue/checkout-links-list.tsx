// The checkout links tab (docs/dashboard.md, "Catalogue"): each link, its address with a Copy button, and whether a
// visit opens a checkout.
import { AdminLink } from '../kit/admin-link.js';
import { formatDateTime } from '../kit/format.js';
import { Pager, usePagedList } from '../kit/paged-list.js';
import { QueryState } from '../kit/query-state.js';
import { ScreenHeading } from '../screen-heading.js';
import { linksKey, readLinks } from './catalogue-queries.js';
import { CopyButton } from '../kit/copy-button.js';

export function CheckoutLinksList() {
  const list = usePagedList(
    linksKey,
    (startingAfter) => readLinks(startingAfter),
    (link) => link.id,
  );
  return (
    <div className="admin-stack">
      <ScreenHeading>Checkout links</ScreenHeading>
      <p className="admin-actions">
        <AdminLink to="/admin/catalogue/checkout-links/new" className="button button--primary">
          New checkout link
        </AdminLink>
      </p>
      {!list.query.data ? (
        <QueryState error={list.query.error} loading="Reading the checkout links…" />
      ) : list.items.length === 0 ? (
        <p>No checkout links yet. Make one with “New checkout link”.</p>
      ) : (
        <div className="admin-table-wrap">
          <table className="admin-table">
            <caption className="catalogue-caption">Checkout links, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Public id</th>
                <th scope="col">Address</th>
                <th scope="col">Active</th>
                <th scope="col">Expires</th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((link) => (
                <tr key={link.id}>
                  <td>
                    <AdminLink to={`/admin/catalogue/checkout-links/${link.id}`}>
                      {link.name || `Link ${link.public_id}`}
                    </AdminLink>
                  </td>
                  <td>{link.public_id}</td>
                  <td>
                    <span className="catalogue-url">
                      <code>{link.checkout_url}</code>
                      <CopyButton
                        text={link.checkout_url}
                        label={`Copy the address of ${link.name || link.public_id}`}
                      />
                    </span>
                  </td>
                  <td>{link.active ? 'Yes' : 'No'}</td>
                  <td>{link.expires_at === null ? 'Never' : formatDateTime(link.expires_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager label="Checkout links" list={list} />
    </div>
  );
}
