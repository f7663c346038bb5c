// The checkout a link opens (docs/api.md, "Checkout link preview"): priced on the server by the checkout's own
// pricing, shown on the link's screen; nothing here computes an amount.
import { useQuery } from '@tanstack/react-query';
import { formatDateTime, formatMoney } from '../kit/format.js';
import { QueryState } from '../kit/query-state.js';
import { intervalText } from './catalogue-words.js';
import { PreviewBumps, PreviewUpsells } from './checkout-link-preview-funnel.js';
import { previewKey, readPreview } from './catalogue-queries.js';

export function CheckoutLinkPreview({ id }: { id: number }) {
  const preview = useQuery({ queryKey: previewKey(id), queryFn: () => readPreview(id), staleTime: 0 });
  const data = preview.data;
  return (
    <section className="admin-card admin-stack" aria-labelledby="preview-heading">
      <h2 id="preview-heading">The checkout this link opens</h2>
      {!data ? (
        <QueryState error={preview.error} loading="Pricing the checkout…" />
      ) : (
        <>
          {data.closed_reason ? (
            <p className="catalogue-warning">{data.closed_reason}</p>
          ) : (
            <p>As a shopper opening it now sees it, before giving an address.</p>
          )}
          {/* Focusable: on a phone the table scrolls sideways, and a keyboard must be able to scroll it. */}
          <div className="admin-table-wrap" tabIndex={0} role="region" aria-labelledby="preview-lines">
            <table className="admin-table">
              <caption className="catalogue-caption" id="preview-lines">
                Its lines
              </caption>
              <thead>
                <tr>
                  <th scope="col">Offer</th>
                  <th scope="col" className="admin-number">
                    Quantity
                  </th>
                  <th scope="col" className="admin-number">
                    Unit price
                  </th>
                  <th scope="col" className="admin-number">
                    Line total
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.lines.map((line, index) => (
                  <tr key={`${line.offer_id}-${index}`}>
                    <td>
                      {line.offer_name}
                      <span className="catalogue-muted">
                        {' '}
                        ({line.item_name}
                        {line.is_gift ? ', as a gift' : ''}
                        {line.is_recurring && line.billing_interval_days !== null
                          ? `, ${intervalText(line.billing_interval_days)}`
                          : ''}
                        )
                      </span>
                    </td>
                    <td className="admin-number">{line.quantity}</td>
                    <td className="admin-number">{formatMoney(line.unit_price, data.currency)}</td>
                    <td className="admin-number">{formatMoney(line.subtotal, data.currency)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {data.left_out.length > 0 ? (
            <ul>
              {data.left_out.map((line) => (
                <li key={line.offer_id}>
                  {line.offer_name || `Offer ${line.offer_id}`}: {line.reason}
                </li>
              ))}
            </ul>
          ) : null}
          <dl className="catalogue-totals">
            <div>
              <dt>Subtotal</dt>
              <dd>{formatMoney(data.subtotal, data.currency)}</dd>
            </div>
            {data.discount_code ? (
              <div>
                <dt>Discount ({data.discount_code})</dt>
                <dd>−{formatMoney(data.total_discount, data.currency)}</dd>
              </div>
            ) : null}
            {data.total_offer_shipping > 0 ? (
              <div>
                <dt>The offers' own shipping</dt>
                <dd>{formatMoney(data.total_offer_shipping, data.currency)}</dd>
              </div>
            ) : null}
            <div className="catalogue-totals__main">
              <dt>Charged today, before shipping and tax</dt>
              <dd>{formatMoney(data.due_today, data.currency)}</dd>
            </div>
            {data.later_charges.map((charge) => (
              <div key={charge.offer_id}>
                <dt>Later: {charge.item_name}</dt>
                <dd>
                  {charge.plan_description ??
                    `${formatMoney(charge.amount, data.currency)} ${intervalText(charge.interval_days)}`}
                  , before tax
                </dd>
              </div>
            ))}
          </dl>
          {data.discount_notice ? <p className="catalogue-warning">{data.discount_notice}</p> : null}
          <PreviewBumps data={data} />
          <PreviewUpsells data={data} />
          <p className="admin-note">{data.address_note}</p>
          <p className="admin-note">Priced {formatDateTime(data.priced_at)}.</p>
          <p>
            <a href={data.checkout_url} target="_blank" rel="noopener noreferrer">
              Open the checkout in a new tab
            </a>
          </p>
        </>
      )}
    </section>
  );
}
