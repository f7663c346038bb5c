import { findLinkedOrders, findUpsellSteps } from '../upsells/upsells-repository.js';
import type { OrderDetail, OrderListQuery, Subscription } from '../../../contract/merchant.js';
import type { Queryable } from '../../platform/db/database.js';
import { notFound } from '../../platform/errors.js';
import {
  findOrder,
  findOrderLines,
  findOrderSubscriptionIds,
  listOrders,
  type OrderRow,
} from '../orders/orders-repository.js';
import { findOrderGifts } from '../orders/order-gifts-repository.js';
import { findPaymentAttempts } from '../orders/payment-attempts-repository.js';
import type { OrganizationRow } from '../organizations/organizations-repository.js';
import {
  findSubscription,
  findSubscriptionCharges,
  listSubscriptions,
  type SubscriptionChargeRow,
  type SubscriptionListFilter,
  type SubscriptionRow,
} from '../subscriptions/subscriptions-repository.js';
import { iso, major, majorOrNull } from '../../platform/http/money-input.js';
import { findReportedRefundTotal } from '../payment-webhooks/payment-events-repository.js';
import { amountRefunded, paidPayment, paymentStatus } from '../refunds/refund-decisions.js';
import { presentRefund } from '../refunds/refund-service.js';
import { findRefunds } from '../refunds/refunds-repository.js';
import { createdRange, customerNameOf, parseOrderSearch } from './order-search.js';
import { parseStoredPlan, type BillingPlan } from '../../../domain/billing-plan.js';
import { wordsFor } from '../../i18n/translator.js';
import {
  nextPlanCycle,
  presentBillingPlan,
  presentPrepaid,
  remainingPlanWords,
} from '../subscriptions/subscription-plan.js';

export const GIFT_CLAIM_PREFIX = '__g__';

/** The link a gift's recipient claims it with (the order's claim_url, the gift notice's link). */
export function giftClaimUrl(publicUrl: string, claimCode: string): string {
  return `${publicUrl}/checkout/${GIFT_CLAIM_PREFIX}${claimCode}`;
}

function presentOrderSummary(row: OrderRow) {
  return {
    order_id: row.id,
    cart_token: row.cart_token,
    status: row.status,
    is_test: row.is_test,
    currency: row.currency,
    email: row.email,
    customer_name: customerNameOf(row.billing_address, row.shipping_address),
    total: major(row.total, row.currency),
    created_at: iso(row.created_at),
    completed_at: iso(row.completed_at),
    kind: row.fulfilment_of_subscription_id ? ('prepaid_fulfilment' as const) : ('order' as const),
    fulfilment_of_subscription_id: row.fulfilment_of_subscription_id ?? null,
    fulfilment_of_order_id: row.fulfilment_of_order_id ?? null,
    fulfilment_cycle: row.fulfilment_cycle ?? null,
    parent_order_id: row.parent_order_id ?? null,
  };
}

export async function listOrderPage(
  db: Queryable,
  organization: OrganizationRow,
  options: { limit?: number | undefined; startingAfter?: number | undefined },
  query: Omit<OrderListQuery, 'limit' | 'starting_after'> = {},
) {
  const search = parseOrderSearch(query.q);
  const created = createdRange(query.created_from, query.created_to);
  const page = await listOrders(db, organization.id, options, {
    orderId: search.kind === 'number' ? search.orderId : undefined,
    textPattern: search.kind === 'text' ? search.pattern : undefined,
    status: query.status,
    createdFrom: created.from,
    createdBefore: created.before,
    isTest: query.test,
  });
  return { data: page.rows.map(presentOrderSummary), has_more: page.hasMore };
}

export async function getOrderDetail(
  db: Queryable,
  organization: OrganizationRow,
  id: number,
  publicUrl: string,
): Promise<OrderDetail> {
  const order = await findOrder(db, organization.id, id);
  if (!order) throw notFound('order_not_found', `There is no order ${id}.`);
  const [lines, attempts, gifts, subscriptionIds, refunds, linkedOrders, upsellSteps] = await Promise.all([
    findOrderLines(db, organization.id, id),
    findPaymentAttempts(db, organization.id, id),
    findOrderGifts(db, organization.id, id),
    findOrderSubscriptionIds(db, organization.id, id),
    findRefunds(db, organization.id, id),
    findLinkedOrders(db, organization.id, id, { all: true }),
    findUpsellSteps(db, organization.id, id),
  ]);
  const payment = paidPayment(attempts);
  const refunded =
    payment === null
      ? 0
      : amountRefunded(refunds, await findReportedRefundTotal(db, organization.id, id, payment.reference));
  const money = (amount: number) => major(amount, order.currency);
  return {
    ...presentOrderSummary(order),
    phone: order.phone,
    subtotal: money(order.subtotal),
    total_discount: money(order.total_discount),
    total_offer_shipping: money(order.total_offer_shipping),
    total_campaign_shipping: money(order.total_campaign_shipping),
    total_tax: money(order.total_tax),
    total_gift_cards: money(order.total_gift_cards),
    discount_code: order.discount_code,
    shipping_profile_id: order.shipping_profile_id,
    shipping_address: order.shipping_address,
    billing_address: order.billing_address,
    same_address: order.same_address,
    consent: {
      subscription_terms_accepted: order.subscription_terms_accepted,
      subscription_terms_accepted_at: iso(order.subscription_terms_accepted_at),
      subscription_terms_ip: order.subscription_terms_ip,
      subscription_terms_version: order.subscription_terms_version,
      subscription_terms_language: order.subscription_terms_language,
      email_opt_in: order.email_opt_in,
    },
    ip_address: order.ip_address,
    lines: lines.map((line) => ({
      order_offer_id: line.cart_offer_id,
      offer_id: line.offer_id,
      item_name: line.item_name,
      quantity: line.quantity,
      unit_price: money(line.unit_price),
      subtotal: money(line.subtotal),
      discount: money(line.discount),
      shipping: money(line.shipping),
      tax: money(line.tax),
      total: money(line.total),
      is_gift: line.is_gift,
      is_bump: line.is_bump,
      is_recurring: line.is_recurring,
      billing_interval_days: line.billing_interval_days,
      next_cycle_total: majorOrNull(line.next_cycle_total, order.currency),
      billing_plan: presentPlanOrNull(parseStoredPlan(line.billing_plan), order.currency),
      subscribe_and_save: line.subscribe_and_save_percent !== null,
      subscribe_and_save_percent_off: line.subscribe_and_save_percent,
    })),
    payment_attempts: attempts.map((attempt) => ({
      id: attempt.id,
      method: attempt.method,
      gateway: attempt.gateway,
      status: attempt.status,
      amount: money(attempt.amount),
      decline_code: attempt.decline_code,
      message: attempt.message,
      card_brand: attempt.card_brand,
      card_last4: attempt.card_last4,
      card_exp_month: attempt.card_exp_month,
      card_exp_year: attempt.card_exp_year,
      gateway_reference: attempt.gateway_reference,
      is_test: attempt.is_test,
      created_at: iso(attempt.created_at),
    })),
    gifts: gifts.map((gift) => ({
      order_offer_id: gift.cart_offer_id,
      gift_name: gift.gift_name,
      gift_email: gift.gift_email,
      gift_date: gift.gift_date,
      gift_message: gift.gift_message,
      gift_phone: gift.gift_phone,
      order_offer_notes: gift.order_offer_notes,
      claim_url: gift.claim_code ? giftClaimUrl(publicUrl, gift.claim_code) : null,
      claimed_at: iso(gift.claimed_at),
    })),
    subscription_ids: subscriptionIds,
    payment_status: paymentStatus(payment?.amount ?? null, refunded),
    amount_refunded: money(refunded),
    refunds: refunds.map(presentRefund),
    linked_orders: linkedOrders.map((linked) => ({
      order_id: linked.id,
      status: linked.status,
      total: money(linked.total),
    })),
    upsell_steps: upsellSteps.map((step) => ({
      step: step.step,
      position: step.position,
      is_downsell: step.is_downsell,
      offer_id: step.offer_id,
      status: step.status,
      offered_at: iso(step.offered_at),
      expires_at: iso(step.expires_at),
      decided_at: iso(step.decided_at),
      linked_order_id: step.status === 'accepted' ? step.linked_order_id : null,
    })),
  };
}

export function presentSubscription(
  row: SubscriptionRow,
  charges: readonly SubscriptionChargeRow[],
): Subscription {
  return {
    id: row.id,
    order_id: row.order_id,
    offer_id: row.offer_id,
    status: row.status,
    quantity: row.quantity,
    cycle_amount: major(row.cycle_amount, row.currency),
    currency: row.currency,
    interval_days: row.interval_days,
    subscribe_and_save: row.subscribe_and_save_percent !== null,
    subscribe_and_save_percent_off: row.subscribe_and_save_percent,
    cycle: row.cycle,
    next_charge_at: iso(row.next_charge_at),
    retry_count: row.retry_count,
    is_test: row.is_test,
    customer_email: row.customer_email,
    payment_method: row.pm_method
      ? { method: row.pm_method, card_brand: row.pm_card_brand, card_last4: row.pm_card_last4 }
      : null,
    charges: charges
      .filter((charge) => charge.subscription_id === row.id)
      .map((charge) => ({
        cycle: charge.cycle,
        attempt: charge.attempt,
        amount: major(charge.amount, row.currency),
        status: charge.status,
        message: charge.message,
        created_at: iso(charge.created_at),
      })),
    created_at: iso(row.created_at),
    paused_at: iso(row.paused_at),
    cancelled_at: iso(row.cancelled_at),
    cancel_at: iso(row.cancel_at),
    changed_by: row.changed_by,
    billing_plan: presentPlanOrNull(parseStoredPlan(row.billing_plan), row.currency),
    next_cycle: presentNextCycle(row),
    plan_remaining: remainingPlanWords(row, wordsFor('en')),
    end_reason: row.end_reason,
    prepaid: presentPrepaid(row),
  };
}

// The merchant's API speaks English (docs/languages.md).
function presentPlanOrNull(plan: BillingPlan | null, currency: string) {
  return plan === null ? null : presentBillingPlan(plan, currency, wordsFor('en'));
}

/** The cycle the next charge is for (docs/subscriptions.md, "Prices by cycle"); none once it has ended. */
function presentNextCycle(row: SubscriptionRow): Subscription['next_cycle'] {
  if (row.status === 'cancelled') return null;
  const plan = parseStoredPlan(row.billing_plan);
  if (plan === null) {
    // Made before prices by cycle: the same charge every interval.
    const amount = major(row.cycle_amount, row.currency);
    return { cycle: row.cycle + 1, amount, interval_days: row.interval_days, is_last: false };
  }
  const next = nextPlanCycle(plan, row.cycle);
  if (!next) return null;
  return {
    cycle: next.cycle,
    amount: major(next.amount, row.currency),
    interval_days: next.days,
    is_last: next.isLast,
  };
}

export async function listSubscriptionPage(
  db: Queryable,
  organization: OrganizationRow,
  options: { limit?: number | undefined; startingAfter?: number | undefined } & SubscriptionListFilter,
) {
  const page = await listSubscriptions(db, organization.id, options);
  const charges = await findSubscriptionCharges(
    db,
    organization.id,
    page.rows.map((row) => row.id),
  );
  return { data: page.rows.map((row) => presentSubscription(row, charges)), has_more: page.hasMore };
}

export async function getSubscription(
  db: Queryable,
  organization: OrganizationRow,
  id: number,
): Promise<Subscription> {
  const row = await findSubscription(db, organization.id, id);
  if (!row) throw notFound('subscription_not_found', `There is no subscription ${id}.`);
  return presentSubscription(row, await findSubscriptionCharges(db, organization.id, [id]));
}
