// The parts of an order's screen about its funnel (docs/dashboard.md, "Orders"): the prepaid plan it ships a cycle
// of, the order it was an upsell of, and the offers shown after it with the orders they made.
import type { OrderDetail } from '../../../contract/merchant.js';
import { AdminLink } from '../kit/admin-link.js';
import { formatMoney } from '../kit/format.js';
import { fulfilmentWords } from './order-funnel.js';
import { Card, Table, Time } from './order-sections.js';
import { ORDER_STATUS_WORDS } from './order-words.js';

const STEP_WORDS = {
  offered: 'Shown, no answer yet',
  accepted: 'Accepted',
  declined: 'Declined',
  expired: 'Ended unanswered',
} as const;

/** The facts of a fulfilment order, or null for any other order. */
export function fulfilmentOf(order: OrderDetail, cyclesPerPeriod: number | null) {
  const { fulfilment_of_subscription_id: subscriptionId, fulfilment_of_order_id: orderId } = order;
  const cycle = order.fulfilment_cycle;
  if (order.kind !== 'prepaid_fulfilment' || subscriptionId === null || orderId === null || cycle === null)
    return null;
  return { subscriptionId, orderId, cycle, cyclesPerPeriod };
}

/** A prepaid fulfilment order's card: which cycle of which subscription it ships and what paid for it. */
export function FulfilmentCard(props: { order: OrderDetail; cyclesPerPeriod: number | null }) {
  const facts = fulfilmentOf(props.order, props.cyclesPerPeriod);
  if (!facts) return null;
  const words = fulfilmentWords(facts);
  return (
    <Card id="order-fulfilment-heading" title="Prepaid fulfilment">
      <p>
        <strong>{words.title}</strong>, {words.paidBy}.
      </p>
      <p>{words.total}</p>
      <ul className="orders-list">
        <li>
          <AdminLink to={`/admin/subscriptions/${facts.subscriptionId}`}>
            Subscription {facts.subscriptionId}
          </AdminLink>
        </li>
        <li>
          <AdminLink to={`/admin/orders/${facts.orderId}`}>Order {facts.orderId}</AdminLink> (started the
          subscription)
        </li>
      </ul>
    </Card>
  );
}

/** An upsell's parent, the orders this order's accepted upsells made, and each offer shown after it. */
export function UpsellCard({ order }: { order: OrderDetail }) {
  if (order.parent_order_id === null && order.linked_orders.length === 0 && order.upsell_steps.length === 0)
    return null;
  return (
    <Card id="order-upsells-heading" title="Upsells">
      {order.parent_order_id !== null ? (
        <p>
          An offer accepted after{' '}
          <AdminLink to={`/admin/orders/${order.parent_order_id}`}>Order {order.parent_order_id}</AdminLink>,
          charged to its card as an order of its own.
        </p>
      ) : null}
      {order.linked_orders.length > 0 ? (
        <>
          <h3>Orders made by accepted offers</h3>
          <ul className="orders-list">
            {order.linked_orders.map((linked) => (
              <li key={linked.order_id}>
                <AdminLink to={`/admin/orders/${linked.order_id}`}>Order {linked.order_id}</AdminLink>:{' '}
                {ORDER_STATUS_WORDS[linked.status]}, {formatMoney(linked.total, order.currency)}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {order.upsell_steps.length > 0 ? (
        <Table
          caption="Offers shown after this order"
          head={['Step', 'Offer', 'Answer', 'Shown', 'Order made']}
        >
          {order.upsell_steps.map((step) => (
            <tr key={`${step.step}-${step.position}`}>
              <td>
                {step.step}
                {step.is_downsell ? ' (downsell)' : ''}
              </td>
              <td>Offer {step.offer_id}</td>
              <td>{STEP_WORDS[step.status]}</td>
              <td>
                <Time iso={step.offered_at} />
              </td>
              <td>{step.linked_order_id === null ? '—' : `Order ${step.linked_order_id}`}</td>
            </tr>
          ))}
        </Table>
      ) : null}
    </Card>
  );
}
