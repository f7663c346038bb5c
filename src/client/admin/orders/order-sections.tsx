// The parts of one order's screen (docs/dashboard.md, "Orders"): each says one thing the order holds.
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { OrderDetail } from '../../../contract/merchant.js';
// The orders area is a chunk of its own, so the address data comes with it, not with the dashboard's first load.
import { addressFormatOf } from '../../../domain/address/address-data.js';
import { addressLines } from '../../../domain/address/address-format.js';
import { CopyButton } from '../kit/copy-button.js';
import { formatDate, formatDateTime, formatMoney } from '../kit/format.js';
import { QueryState } from '../kit/query-state.js';
import { readEmail } from './order-queries.js';
import { REFUND_STATUS_WORDS } from './order-words.js';
import { brandName } from './refund-rules.js';

type Address = NonNullable<OrderDetail['shipping_address']>;

export function Card(props: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="admin-card" aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      {props.children}
    </section>
  );
}

export function Table(props: { caption: string; head: string[]; numbers?: number[]; children: ReactNode }) {
  return (
    // Focusable, so that a keyboard can scroll a table wider than a narrow screen (it holds no link to tab to).
    <div className="admin-table-wrap" tabIndex={0} role="group" aria-label={props.caption}>
      <table className="admin-table">
        <caption className="visually-hidden">{props.caption}</caption>
        <thead>
          <tr>
            {props.head.map((title, index) => (
              <th
                key={title}
                scope="col"
                className={props.numbers?.includes(index) ? 'admin-number' : undefined}
              >
                {title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}

/** The dashboard's English names of countries ("JP" → "Japan"). */
const regions = new Intl.DisplayNames(['en-US'], { type: 'region', fallback: 'code' });

function countryNameOf(code: string): string {
  try {
    return regions.of(code) ?? code;
  } catch {
    return code;
  }
}

/** An address as its country writes it, the state by its Latin name (docs/languages.md, "Addresses"), then the phone. */
export function AddressLines({ address }: { address: Address }) {
  const country = address.country.trim();
  const lines = addressLines(address, addressFormatOf(country), 'en', country ? countryNameOf(country) : '');
  return (
    <address className="orders-address">
      {[...lines, address.phone].filter(Boolean).map((line, index) => (
        <span key={index}>{line}</span>
      ))}
    </address>
  );
}

export function Time({ iso }: { iso: string }) {
  return <time dateTime={iso}>{formatDateTime(iso)}</time>;
}

export function Figures({ order }: { order: OrderDetail }) {
  const money = (amount: number) => formatMoney(amount, order.currency);
  const rows: [string, string][] = [
    ['Subtotal', money(order.subtotal)],
    [
      order.discount_code ? `Discount (code ${order.discount_code})` : 'Discount',
      order.total_discount > 0 ? `−${money(order.total_discount)}` : money(0),
    ],
    ['Shipping', money(order.total_offer_shipping + order.total_campaign_shipping)],
    ['Tax', money(order.total_tax)],
    ['Gift cards', order.total_gift_cards > 0 ? `−${money(order.total_gift_cards)}` : money(0)],
    ['Total', money(order.total)],
    ['Refunded', money(order.amount_refunded)],
  ];
  return (
    <dl className="orders-amounts">
      {rows.map(([label, value]) => (
        <div key={label} className={label === 'Total' ? 'orders-amounts__total' : undefined}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function EmailBody({ id }: { id: number }) {
  const [open, setOpen] = useState(false);
  const email = useQuery({ queryKey: ['emails', id], queryFn: () => readEmail(id), enabled: open });
  return (
    <details onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>Read the text</summary>
      {!email.data ? (
        <QueryState error={email.error} loading="Reading the email…" />
      ) : email.data.text === null ? (
        <p>This email's text is no longer kept.</p>
      ) : (
        <pre className="orders-email-text">{email.data.text}</pre>
      )}
    </details>
  );
}

export function Lines({ order }: { order: OrderDetail }) {
  const money = (amount: number) => formatMoney(amount, order.currency);
  return (
    <Table
      caption="Lines"
      head={['Item', 'Quantity', 'Unit price', 'Discount', 'Shipping', 'Tax', 'Total']}
      numbers={[1, 2, 3, 4, 5, 6]}
    >
      {order.lines.map((line) => (
        <tr key={line.order_offer_id}>
          <td>
            {line.item_name}
            {line.is_gift ? <span className="admin-badge orders-badge">Gift</span> : null}
            {line.is_bump ? <span className="admin-badge orders-badge">Order bump</span> : null}
            {line.is_recurring ? (
              <span className="orders-note">
                Renews every {line.billing_interval_days} days
                {line.next_cycle_total !== null ? ` at ${money(line.next_cycle_total)}` : ''}
                {line.subscribe_and_save
                  ? ` (subscribe and save, ${line.subscribe_and_save_percent_off ?? 0} % off)`
                  : ''}
              </span>
            ) : null}
          </td>
          <td className="admin-number">{line.quantity}</td>
          <td className="admin-number">{money(line.unit_price)}</td>
          <td className="admin-number">{money(line.discount)}</td>
          <td className="admin-number">{money(line.shipping)}</td>
          <td className="admin-number">{money(line.tax)}</td>
          <td className="admin-number">{money(line.total)}</td>
        </tr>
      ))}
    </Table>
  );
}

export function Attempts({ order }: { order: OrderDetail }) {
  if (order.payment_attempts.length === 0) return <p>No payment was tried.</p>;
  const words = {
    approved: 'Approved',
    declined: 'Declined',
    error: 'Processor error',
    requires_action: 'Bank check',
  };
  return (
    <Table
      caption="Payment attempts, oldest first"
      head={['When', 'Method', 'Card', 'Status', 'Amount', 'Message', 'Test']}
      numbers={[4]}
    >
      {order.payment_attempts.map((attempt) => (
        <tr key={attempt.id}>
          <td>
            <Time iso={attempt.created_at} />
          </td>
          <td>{attempt.method === 'paypal' ? 'PayPal' : attempt.method === 'none' ? 'None' : 'Card'}</td>
          <td>
            {attempt.card_last4 ? `${brandName(attempt.card_brand)} ending ${attempt.card_last4}` : '—'}
          </td>
          <td>{words[attempt.status]}</td>
          <td className="admin-number">{formatMoney(attempt.amount, order.currency)}</td>
          <td>{attempt.message ?? ''}</td>
          <td>{attempt.is_test ? <span className="admin-badge">Test</span> : 'No'}</td>
        </tr>
      ))}
    </Table>
  );
}

export function Refunds({ order }: { order: OrderDetail }) {
  if (order.refunds.length === 0) return <p>Nothing has been refunded.</p>;
  return (
    <Table caption="Refunds" head={['When', 'Amount', 'Status', 'Reason']} numbers={[1]}>
      {order.refunds.map((refund) => (
        <tr key={refund.id}>
          <td>
            <Time iso={refund.created_at} />
          </td>
          <td className="admin-number">{formatMoney(refund.amount, refund.currency)}</td>
          <td>
            {REFUND_STATUS_WORDS[refund.status]}
            {refund.error ? <span className="orders-note">{refund.error}</span> : null}
          </td>
          <td>{refund.reason ?? ''}</td>
        </tr>
      ))}
    </Table>
  );
}

export function Consent({ order }: { order: OrderDetail }) {
  const { consent } = order;
  return (
    <dl className="orders-facts">
      <div>
        <dt>Subscription terms</dt>
        <dd>
          {consent.subscription_terms_accepted
            ? `Accepted${consent.subscription_terms_accepted_at ? ` ${formatDateTime(consent.subscription_terms_accepted_at)}` : ''}`
            : 'Not accepted (or not asked)'}
        </dd>
      </div>
      {consent.subscription_terms_accepted ? (
        <>
          <div>
            <dt>Terms version</dt>
            <dd>{consent.subscription_terms_version ?? 'Not recorded'}</dd>
          </div>
          <div>
            <dt>From IP address</dt>
            <dd>{consent.subscription_terms_ip ?? 'Not recorded'}</dd>
          </div>
        </>
      ) : null}
      <div>
        <dt>Emails from the store</dt>
        <dd>{consent.email_opt_in ? 'Agreed to receive them' : 'Did not agree'}</dd>
      </div>
    </dl>
  );
}

export function Gifts({ order }: { order: OrderDetail }) {
  return (
    <ul className="orders-list">
      {order.gifts.map((gift) => {
        const line = order.lines.find((candidate) => candidate.order_offer_id === gift.order_offer_id);
        return (
          <li key={gift.order_offer_id}>
            <p>
              <strong>{line?.item_name ?? 'Gift'}</strong> for {gift.gift_name} ({gift.gift_email})
              {gift.gift_date ? `, to be sent ${formatDate(`${gift.gift_date}T12:00:00Z`)}` : ''}
            </p>
            {gift.gift_message ? <p>Message: “{gift.gift_message}”</p> : null}
            {gift.claimed_at ? (
              <p>Claimed {formatDateTime(gift.claimed_at)}</p>
            ) : (
              <>
                <p>Not claimed yet.</p>
                {gift.claim_url ? (
                  <div className="orders-copy">
                    <code className="orders-wrap">{gift.claim_url}</code>
                    <CopyButton
                      text={gift.claim_url}
                      label={`Copy claim link of the gift for ${gift.gift_name}`}
                    />
                  </div>
                ) : null}
              </>
            )}
          </li>
        );
      })}
    </ul>
  );
}
