// One order (docs/dashboard.md, "Orders"): its state and amounts, lines, addresses, payment attempts, refunds (and
// the refund form), consent, gifts, subscriptions, the emails and webhook deliveries about it, and its timeline.
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { OrderDetail } from '../../../contract/merchant.js';
import { Button } from '../../ui/button.js';
import { useAnnounce } from '../../ui/live-region.js';
import { AdminLink } from '../kit/admin-link.js';
import { AuditTrail, auditKey } from '../kit/audit-trail.js';
import { formatDate, formatDateTime, formatMoney } from '../kit/format.js';
import { QueryState } from '../kit/query-state.js';
import { ScreenHeading } from '../screen-heading.js';
import {
  ABOUT_ORDER_LIMIT,
  orderDeliveriesKey,
  orderEmailsKey,
  orderKey,
  readEmail,
  readOrder,
  readOrderChanges,
  readOrderDeliveries,
  readOrderEmails,
} from './order-queries.js';
import { RefundSection } from './order-refund.js';
import { kindWords, orderTimeline } from './order-timeline.js';
import { ORDER_STATUS_WORDS, PAYMENT_STATUS_WORDS, REFUND_STATUS_WORDS } from './order-words.js';
import { brandName } from './refund-rules.js';

type Address = NonNullable<OrderDetail['shipping_address']>;

function Card(props: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="admin-card" aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      {props.children}
    </section>
  );
}

function Table(props: { caption: string; head: string[]; numbers?: number[]; children: ReactNode }) {
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

function AddressLines({ address }: { address: Address }) {
  const place = [address.city, address.state, address.zipcode].filter(Boolean).join(', ');
  return (
    <address className="orders-address">
      {[
        `${address.fname} ${address.lname}`.trim(),
        address.address1,
        address.address2,
        place,
        address.country,
        address.phone,
      ]
        .filter(Boolean)
        .map((line, index) => (
          <span key={index}>{line}</span>
        ))}
    </address>
  );
}

function Time({ iso }: { iso: string }) {
  return <time dateTime={iso}>{formatDateTime(iso)}</time>;
}

function Figures({ order }: { order: OrderDetail }) {
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

function CopyLink({ url, label }: { url: string; label: string }) {
  const announce = useAnnounce();
  const [said, setSaid] = useState('');
  const copy = () => {
    const done = (text: string) => {
      setSaid(text);
      announce(text);
    };
    if (!navigator.clipboard) return done('Copying is not available here: select the link and copy it.');
    navigator.clipboard.writeText(url).then(
      () => done('Claim link copied.'),
      () => done('The link could not be copied: select it and copy it.'),
    );
  };
  return (
    <div className="orders-copy">
      <code className="orders-wrap">{url}</code>
      <Button variant="secondary" onClick={copy} aria-label={label}>
        Copy claim link
      </Button>
      {said ? <span className="orders-note">{said}</span> : null}
    </div>
  );
}

function EmailBody({ id }: { id: number }) {
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

function Lines({ order }: { order: OrderDetail }) {
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

function Attempts({ order }: { order: OrderDetail }) {
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

function Refunds({ order }: { order: OrderDetail }) {
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

function Consent({ order }: { order: OrderDetail }) {
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

function Gifts({ order }: { order: OrderDetail }) {
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
                  <CopyLink
                    url={gift.claim_url}
                    label={`Copy claim link of the gift for ${gift.gift_name}`}
                  />
                ) : null}
              </>
            )}
          </li>
        );
      })}
    </ul>
  );
}

const DELIVERY_WORDS = { pending: 'Being sent', succeeded: 'Delivered', failed: 'Not delivered' } as const;
const EMAIL_WORDS = {
  queued: 'Waiting to be sent',
  retrying: 'Being retried',
  sent: 'Sent',
  kept: 'Kept (no mail server)',
  failed: 'Not sent',
} as const;

export function OrderScreen({ orderId }: { orderId: number }) {
  const order = useQuery({ queryKey: orderKey(orderId), queryFn: () => readOrder(orderId) });
  const emails = useQuery({ queryKey: orderEmailsKey(orderId), queryFn: () => readOrderEmails(orderId) });
  const deliveries = useQuery({
    queryKey: orderDeliveriesKey(orderId),
    queryFn: () => readOrderDeliveries(orderId),
  });
  const changes = useQuery({
    queryKey: auditKey('order', orderId),
    queryFn: () => readOrderChanges(orderId),
  });
  const heading = <ScreenHeading>{`Order ${orderId}`}</ScreenHeading>;
  if (!order.data)
    return (
      <>
        {heading}
        <QueryState error={order.error} loading="Reading the order…" />
        <p>
          <AdminLink to="/admin/orders">Back to the orders</AdminLink>
        </p>
      </>
    );
  const detail = order.data;
  const timeline = orderTimeline({
    order: detail,
    emails: emails.data?.data ?? [],
    deliveries: deliveries.data?.data ?? [],
    changes: changes.data?.data ?? [],
  });
  return (
    <>
      {heading}
      <p className="orders-back">
        <AdminLink to="/admin/orders">Back to the orders</AdminLink>
      </p>
      <div className="admin-stack">
        <section className="admin-card" aria-labelledby="order-summary-heading">
          <h2 id="order-summary-heading">Summary</h2>
          <dl className="orders-facts">
            <div>
              <dt>Status</dt>
              <dd>{ORDER_STATUS_WORDS[detail.status]}</dd>
            </div>
            <div>
              <dt>Payment</dt>
              <dd>{detail.payment_status ? PAYMENT_STATUS_WORDS[detail.payment_status] : 'Nothing paid'}</dd>
            </div>
            <div>
              <dt>Placed</dt>
              <dd>
                <Time iso={detail.created_at} />
              </dd>
            </div>
            <div>
              <dt>Completed</dt>
              <dd>{detail.completed_at ? <Time iso={detail.completed_at} /> : 'Not completed'}</dd>
            </div>
            <div>
              <dt>Customer</dt>
              <dd className="orders-wrap">
                {[detail.customer_name, detail.email].filter(Boolean).join(', ') || 'Not given'}
              </dd>
            </div>
            <div>
              <dt>Mode</dt>
              <dd>{detail.is_test ? <span className="admin-badge">Test order</span> : 'Live'}</dd>
            </div>
          </dl>
        </section>

        <Card id="order-amounts-heading" title="Amounts">
          <Figures order={detail} />
        </Card>

        <RefundSection order={detail} />

        <Card id="order-lines-heading" title="Lines">
          <Lines order={detail} />
        </Card>

        <Card id="order-addresses-heading" title="Customer and addresses">
          <div className="admin-grid">
            <div>
              <h3>Contact</h3>
              <p className="orders-wrap">{detail.email || 'No email given'}</p>
              {detail.phone ? <p>{detail.phone}</p> : null}
            </div>
            <div>
              <h3>Shipping address</h3>
              {detail.shipping_address ? (
                <AddressLines address={detail.shipping_address} />
              ) : (
                <p>Nothing ships.</p>
              )}
            </div>
            <div>
              <h3>Billing address</h3>
              {detail.billing_address ? (
                detail.same_address && detail.shipping_address ? (
                  <p>Same as the shipping address.</p>
                ) : (
                  <AddressLines address={detail.billing_address} />
                )
              ) : (
                <p>None given.</p>
              )}
            </div>
          </div>
        </Card>

        <Card id="order-attempts-heading" title="Payment attempts">
          <Attempts order={detail} />
        </Card>

        <Card id="order-refunds-heading" title="Refunds">
          <Refunds order={detail} />
        </Card>

        <Card id="order-consent-heading" title="Consent">
          <Consent order={detail} />
        </Card>

        {detail.gifts.length > 0 ? (
          <Card id="order-gifts-heading" title="Gifts">
            <Gifts order={detail} />
          </Card>
        ) : null}

        {detail.subscription_ids.length > 0 ? (
          <Card id="order-subscriptions-heading" title="Subscriptions">
            <ul className="orders-list">
              {detail.subscription_ids.map((id) => (
                <li key={id}>
                  <AdminLink to={`/admin/subscriptions/${id}`}>Subscription {id}</AdminLink>
                </li>
              ))}
            </ul>
          </Card>
        ) : null}

        <Card id="order-emails-heading" title="Emails about this order">
          {!emails.data ? (
            <QueryState error={emails.error} loading="Reading the emails…" />
          ) : emails.data.data.length === 0 ? (
            <p>No email was sent about this order.</p>
          ) : (
            <>
              <Table
                caption="Emails, newest first"
                head={['When', 'Kind', 'To', 'Subject', 'Status', 'Text']}
              >
                {emails.data.data.map((email) => (
                  <tr key={email.id}>
                    <td>
                      <Time iso={email.sent_at ?? email.created_at} />
                    </td>
                    <td>{kindWords(email.kind)}</td>
                    <td className="orders-wrap">{email.to}</td>
                    <td>{email.subject}</td>
                    <td>
                      {EMAIL_WORDS[email.status]}
                      {email.error ? <span className="orders-note">{email.error}</span> : null}
                    </td>
                    <td>
                      <EmailBody id={email.id} />
                    </td>
                  </tr>
                ))}
              </Table>
              {emails.data.has_more ? <p>The newest {ABOUT_ORDER_LIMIT} are shown.</p> : null}
            </>
          )}
        </Card>

        <Card id="order-deliveries-heading" title="Webhook deliveries about this order">
          {!deliveries.data ? (
            <QueryState error={deliveries.error} loading="Reading the deliveries…" />
          ) : deliveries.data.data.length === 0 ? (
            <p>No webhook was sent about this order.</p>
          ) : (
            <>
              <Table
                caption="Webhook deliveries, newest first"
                head={['When', 'Event', 'Endpoint', 'Status', 'Attempts']}
                numbers={[4]}
              >
                {deliveries.data.data.map((delivery) => (
                  <tr key={delivery.id}>
                    <td>
                      <Time iso={delivery.created_at} />
                    </td>
                    <td>{delivery.event_type}</td>
                    <td className="orders-wrap">{delivery.endpoint_url}</td>
                    <td>{DELIVERY_WORDS[delivery.status]}</td>
                    <td className="admin-number">{delivery.attempts.length}</td>
                  </tr>
                ))}
              </Table>
              {deliveries.data.has_more ? <p>The newest {ABOUT_ORDER_LIMIT} are shown.</p> : null}
            </>
          )}
        </Card>

        <Card id="order-timeline-heading" title="Timeline, oldest first">
          <ol className="orders-timeline">
            {timeline.map((entry) => (
              <li key={entry.key}>
                <Time iso={entry.at} /> <span>{entry.text}</span>
              </li>
            ))}
          </ol>
        </Card>

        <AuditTrail objectType="order" objectId={orderId} />
      </div>
    </>
  );
}
