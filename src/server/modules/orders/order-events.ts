// What the merchant's systems hear when an order completes (docs/webhooks.md, "Events"), in the order's transaction.
import type { Queryable } from '../../platform/db/database.js';
import { iso, major } from '../../platform/http/money-input.js';
import { enqueueSubscriptionWelcome } from '../emails/subscription-email-enqueue.js';
import { emitWebhookEvent } from '../webhooks/webhook-events.js';
import type { OrderLineRow, OrderRow } from './orders-repository.js';
import {
  describeLaterCycles,
  describePrepaidPaidFor,
  describePrepaidRenewal,
  hasSpecialCycles,
  planCycle,
  type BillingPlan,
  type PlanWords,
} from '../../../domain/billing-plan.js';
import { wordsFor } from '../../i18n/translator.js';
import { cartLanguageOfOrder, emailLanguageOf } from '../emails/email-language.js';
import { prepaidPeriodEnd, presentBillingPlan } from '../subscriptions/subscription-plan.js';

/** The cycle after `paidCycle` as a webhook carries it, or null when the plan ends with it. */
export function nextCycleData(plan: BillingPlan, paidCycle: number, currency: string) {
  const next = planCycle(plan, paidCycle + 1);
  if (!next) return null;
  return {
    cycle: next.cycle,
    amount: major(next.amount, currency),
    interval_days: next.days,
    is_last: next.isLast,
  };
}

/** The order as an event carries it: the merchant API's summary and lines (GET /orders/{id} has the rest). */
export function orderEventData(order: OrderRow, lines: readonly OrderLineRow[]) {
  const money = (amount: number) => major(amount, order.currency);
  return {
    order_id: order.id,
    cart_token: order.cart_token,
    status: order.status,
    /** an accepted upsell's order names the order it followed (docs/api.md, "Upsells") */
    parent_order_id: order.parent_order_id ?? null,
    /** a prepaid plan's $0 fulfilment order (docs/subscriptions.md, "Prepaid plans") */
    kind: order.fulfilment_of_subscription_id ? 'prepaid_fulfilment' : 'order',
    fulfilment_of_subscription_id: order.fulfilment_of_subscription_id ?? null,
    fulfilment_of_order_id: order.fulfilment_of_order_id ?? null,
    fulfilment_cycle: order.fulfilment_cycle ?? null,
    is_test: order.is_test,
    currency: order.currency,
    email: order.email,
    subtotal: money(order.subtotal),
    total_discount: money(order.total_discount),
    total_tax: money(order.total_tax),
    total: money(order.total),
    created_at: iso(order.created_at),
    completed_at: iso(order.completed_at),
    lines: lines.map((line) => ({
      order_offer_id: line.cart_offer_id,
      offer_id: line.offer_id,
      item_name: line.item_name,
      quantity: line.quantity,
      total: money(line.total),
      is_gift: line.is_gift,
      is_bump: line.is_bump,
      is_recurring: line.is_recurring,
      subscribe_and_save: line.subscribe_and_save_percent !== null,
      subscribe_and_save_percent_off: line.subscribe_and_save_percent,
    })),
  };
}

/**
 * A prepaid plan's welcome (docs/subscriptions.md, "Prepaid plans"): its next charge is the next period's, at the end
 * of the one paid with the order, or there is none; nothing to change for any other plan.
 */
function prepaidWelcome(
  subscription: Pick<StartedSubscription, 'billing_plan' | 'next_charge_at'>,
  currency: string,
  words: PlanWords,
): { next_charge_at?: Date; later_cycles?: string | null; paid_in_full?: string } {
  const plan = subscription.billing_plan;
  if (!plan.prepaid) return {};
  const period = prepaidPeriodEnd({ ...subscription, prepaid_shipped_cycle: 1 });
  const renewal = describePrepaidRenewal(plan, currency, words);
  if (renewal === null || !period) return { paid_in_full: describePrepaidPaidFor(plan.prepaid, words) };
  return { next_charge_at: period.endsAt, later_cycles: renewal };
}

export interface StartedSubscription {
  subscription_id: number;
  offer_id: number;
  item_name: string;
  /** minor units */
  cycle_amount: number;
  interval_days: number;
  next_charge_at: Date;
  /** its prices by cycle (docs/subscriptions.md, "Prices by cycle") */
  billing_plan: BillingPlan;
  /** the percent off its line was subscribed at (subscribe and save), else null */
  subscribe_and_save_percent: number | null;
}

/**
 * subscription.created (and the subscriber's welcome email) for each subscription an order started, gift.claimed for
 * the gift it claimed.
 */
export async function emitOrderStarted(
  tx: Queryable,
  order: OrderRow,
  started: { subscriptions: readonly StartedSubscription[]; claimedGiftId: number | null },
  now: Date,
): Promise<void> {
  const organizationId = order.organization_id;
  // The welcome's words of the plan are in the language its email speaks (docs/emails.md, "Languages"); webhooks
  // are for the merchant's systems, in English.
  const english = wordsFor('en');
  const words =
    started.subscriptions.length === 0
      ? english
      : wordsFor(emailLanguageOf(await cartLanguageOfOrder(tx, organizationId, order.id)));
  for (const subscription of started.subscriptions) {
    await emitWebhookEvent(
      tx,
      organizationId,
      'subscription.created',
      {
        subscription_id: subscription.subscription_id,
        order_id: order.id,
        offer_id: subscription.offer_id,
        item_name: subscription.item_name,
        currency: order.currency,
        cycle_amount: major(subscription.cycle_amount, order.currency),
        interval_days: subscription.interval_days,
        subscribe_and_save: subscription.subscribe_and_save_percent !== null,
        subscribe_and_save_percent_off: subscription.subscribe_and_save_percent,
        next_charge_at: iso(subscription.next_charge_at),
        // Cycle 1 was paid with the order; the next charge is for cycle 2.
        cycle: 1,
        cycle_paid_amount: major(planCycle(subscription.billing_plan, 1)?.amount ?? 0, order.currency),
        next_cycle: nextCycleData(subscription.billing_plan, 1, order.currency),
        billing_plan: presentBillingPlan(subscription.billing_plan, order.currency, english),
        is_test: order.is_test,
      },
      now,
      { eventKey: `subscription.created:${subscription.subscription_id}` },
    );
    // The subscriber's welcome (docs/emails.md, "Subscription emails").
    // A plan priced by cycle changes after its next charge: the welcome says how (docs/emails.md).
    const later = hasSpecialCycles(subscription.billing_plan)
      ? describeLaterCycles(subscription.billing_plan, order.currency, words)
      : null;
    await enqueueSubscriptionWelcome(
      tx,
      organizationId,
      { ...subscription, later_cycles: later, ...prepaidWelcome(subscription, order.currency, words) },
      now,
    );
  }
  if (started.claimedGiftId !== null) {
    await emitWebhookEvent(
      tx,
      organizationId,
      'gift.claimed',
      {
        gift_id: started.claimedGiftId,
        claim_order_id: order.id,
        claimed_at: iso(now),
        is_test: order.is_test,
      },
      now,
      { eventKey: `gift.claimed:${started.claimedGiftId}` },
    );
  }
}
