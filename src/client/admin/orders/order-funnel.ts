// What the Orders screens say of an order's place in a funnel (docs/dashboard.md, "Orders"): a prepaid plan's $0
// fulfilment order, an upsell's linked order and its parent, in words and in the list's badges.
import type { OrderSummary } from '../../../contract/merchant.js';

/** Which cycle of which paid period a fulfilment ships: cycle 5 of a 3-cycle plan is cycle 2 of the 2nd period. */
export function cycleInPeriod(cycle: number, cyclesPerPeriod: number): { cycle: number; period: number } {
  return {
    cycle: ((cycle - 1) % cyclesPerPeriod) + 1,
    period: Math.floor((cycle - 1) / cyclesPerPeriod) + 1,
  };
}

export interface FulfilmentFacts {
  subscriptionId: number;
  /** the order that started the subscription (and paid for its first period) */
  orderId: number;
  /** the shipped cycle, counted from the subscription's start (1 = the order's) */
  cycle: number;
  /** cycles each payment covers; null while the subscription is not read */
  cyclesPerPeriod: number | null;
}

/**
 * "Prepaid fulfilment — cycle 2 of 3 of subscription 12, paid by order 40". A later period was paid by a renewal
 * charge of the subscription, not by the order (docs/subscriptions.md, "Prepaid plans").
 */
export function fulfilmentWords(facts: FulfilmentFacts): { title: string; paidBy: string; total: string } {
  const { subscriptionId, orderId, cycle, cyclesPerPeriod } = facts;
  if (cyclesPerPeriod === null) {
    return {
      title: `Prepaid fulfilment — cycle ${cycle} of subscription ${subscriptionId}`,
      paidBy: `paid for in advance (the subscription started with order ${orderId})`,
      total: `Nothing is charged for this order: its cycle was paid for in advance, with order ${orderId} or a later payment of subscription ${subscriptionId}.`,
    };
  }
  const place = cycleInPeriod(cycle, cyclesPerPeriod);
  const firstPeriod = place.period === 1;
  const paidBy = firstPeriod
    ? `paid by order ${orderId}`
    : `paid by the renewal charge of subscription ${subscriptionId} for period ${place.period}`;
  return {
    title: `Prepaid fulfilment — cycle ${place.cycle} of ${cyclesPerPeriod} of subscription ${subscriptionId}`,
    paidBy,
    total: firstPeriod
      ? `Nothing is charged for this order: order ${orderId} paid once for all ${cyclesPerPeriod} cycles of the period, and this order ships cycle ${place.cycle}.`
      : `Nothing is charged for this order: the renewal charge of subscription ${subscriptionId} paid once for all ${cyclesPerPeriod} cycles of period ${place.period}, and this order ships cycle ${place.cycle}.`,
  };
}

/** The list's compact marks of an order: each a word, never a colour alone. */
export function orderBadges(
  order: Pick<OrderSummary, 'kind' | 'fulfilment_of_subscription_id' | 'parent_order_id'>,
): { key: string; text: string }[] {
  const badges: { key: string; text: string }[] = [];
  if (order.kind === 'prepaid_fulfilment') {
    badges.push({
      key: 'fulfilment',
      text:
        order.fulfilment_of_subscription_id === null
          ? 'Prepaid fulfilment'
          : `Prepaid fulfilment of subscription ${order.fulfilment_of_subscription_id}`,
    });
  }
  if (order.parent_order_id !== null) {
    badges.push({ key: 'upsell', text: `Upsell of order ${order.parent_order_id}` });
  }
  return badges;
}
