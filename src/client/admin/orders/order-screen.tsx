// One order (docs/dashboard.md, "Orders"): its state and amounts, lines, addresses, payment attempts, refunds (and
// the refund form), consent, gifts, subscriptions, the emails and webhook deliveries about it, and its timeline.
import { useQuery } from '@tanstack/react-query';
import { SubscriptionSchema } from '../../../contract/merchant.js';
import { request } from '../admin-api.js';
import { AdminLink } from '../kit/admin-link.js';
import { AuditTrail, auditKey } from '../kit/audit-trail.js';
import { QueryState } from '../kit/query-state.js';
import { ScreenHeading } from '../screen-heading.js';
import {
  ABOUT_ORDER_LIMIT,
  orderDeliveriesKey,
  orderEmailsKey,
  orderKey,
  readOrder,
  readOrderChanges,
  readOrderDeliveries,
  readOrderEmails,
} from './order-queries.js';
import { orderBadges, fulfilmentWords } from './order-funnel.js';
import { FulfilmentCard, fulfilmentOf, UpsellCard } from './order-funnel-sections.js';
import { RefundSection } from './order-refund.js';
import {
  Card,
  Table,
  AddressLines,
  Time,
  Figures,
  EmailBody,
  Lines,
  Attempts,
  Refunds,
  Consent,
  Gifts,
} from './order-sections.js';
import { kindWords, orderTimeline } from './order-timeline.js';
import { ORDER_STATUS_WORDS, PAYMENT_STATUS_WORDS } from './order-words.js';

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
  // A fulfilment order names its cycle within the prepaid period: the subscription says how long a period is.
  const paidBySubscription = order.data?.fulfilment_of_subscription_id ?? null;
  const subscription = useQuery({
    queryKey: ['subscriptions', 'one', paidBySubscription],
    queryFn: () =>
      request(SubscriptionSchema, 'GET', `/checkout/api/merchant/subscriptions/${paidBySubscription}`),
    enabled: paidBySubscription !== null,
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
  const cyclesPerPeriod = subscription.data?.prepaid?.cycles ?? null;
  const fulfilment = fulfilmentOf(detail, cyclesPerPeriod);
  const badges = orderBadges(detail);
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
            {badges.length > 0 ? (
              <div>
                <dt>Kind</dt>
                <dd>
                  {badges.map((badge) => (
                    <span key={badge.key} className="admin-badge orders-kind">
                      {badge.text}
                    </span>
                  ))}
                </dd>
              </div>
            ) : null}
          </dl>
        </section>

        <FulfilmentCard order={detail} cyclesPerPeriod={cyclesPerPeriod} />

        <UpsellCard order={detail} />

        <Card id="order-amounts-heading" title="Amounts">
          <Figures order={detail} />
          {fulfilment ? <p className="orders-note">{fulfilmentWords(fulfilment).total}</p> : null}
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
