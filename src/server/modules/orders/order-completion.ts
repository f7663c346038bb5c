// Completing an order in the caller's transaction, and the payment attempt each outcome records.
import type { Queryable } from '../../platform/db/database.js';
import { refusal, type AppError } from '../../platform/errors.js';
import type { CardSummary, ChargeResult, ExpressCompleteResult } from '../../platform/payments/gateway.js';
import { enqueueGiftClaimedNote, enqueueGiftNotices } from '../emails/gift-enqueue.js';
import { findOrderGifts, issueGiftClaimCodes, markGiftClaimed } from './order-gifts-repository.js';
import { completeOrderWithAttempt } from './order-completion-repository.js';
import { emitOrderStarted, type StartedSubscription } from './order-events.js';
import type { OrderLineRow, OrderRow } from './orders-repository.js';
import { type PaymentAttemptValues } from './payment-attempts-repository.js';
import type { OrganizationRow } from '../organizations/organizations-repository.js';
import {
  insertSubscription,
  type OrderSubscriptionNotice,
} from '../subscriptions/subscriptions-repository.js';
import type { CartState } from '../carts/cart-state.js';
import { newGiftClaimCode } from '../../platform/security/secrets.js';
import { planCycle } from '../../../domain/billing-plan.js';
import { nextChargeNotice, nextPlanCycle, subscriptionPlanOf } from '../subscriptions/subscription-plan.js';

/**
 * Completes an order inside the caller's transaction: its approved payment attempt and status (one statement), gift
 * claim codes, the claimed gift, subscriptions for its recurring lines (not gifts: a recipient's own claim starts
 * theirs), the stored payment method.
 */
export async function completeOrder(
  tx: Queryable,
  organization: OrganizationRow,
  order: Pick<OrderRow, 'id' | 'customer_id' | 'currency' | 'is_test'>,
  context: {
    attempt: PaymentAttemptValues;
    paymentMethodId: number | null;
    giftClaimId: number | null;
    /** when the order's held code use changes as it completes (an order paid in full by its code) */
    discountReserved?: boolean;
    now: Date;
  },
): Promise<{ order: OrderRow; lines: OrderLineRow[]; subscriptions: OrderSubscriptionNotice[] }> {
  const { now, giftClaimId: giftId } = context;
  const completed = await completeOrderWithAttempt(
    tx,
    organization.id,
    {
      orderId: order.id,
      attempt: context.attempt,
      paymentMethodId: context.paymentMethodId,
      discountReserved: context.discountReserved,
    },
    now,
  );
  // The caller holds the order row and found it not complete.
  if (!completed) throw new Error(`order ${order.id} was complete already`);
  const { lines } = completed;
  const giftLines = lines.filter((line) => line.is_gift);
  await issueGiftClaimCodes(
    tx,
    organization.id,
    giftLines.map((line) => ({ cartOfferId: line.cart_offer_id, code: newGiftClaimCode() })),
    now,
  );
  // Each recipient's notice goes out on the gift's date (docs/emails.md).
  if (giftLines.length > 0)
    await enqueueGiftNotices(tx, organization.id, await findOrderGifts(tx, organization.id, order.id), now);
  if (giftId !== null) {
    if (!(await markGiftClaimed(tx, organization.id, giftId, order.id, now)))
      throw refusal(409, 'gift_already_claimed', { key: 'errors.gift_already_claimed' });
    await enqueueGiftClaimedNote(tx, organization.id, giftId, now);
  }
  const customerId = order.customer_id;
  // What the answer says of each subscription started, in the order they are started.
  const subscriptions: OrderSubscriptionNotice[] = [];
  const started: StartedSubscription[] = [];
  for (const line of lines) {
    if (!line.is_recurring || line.is_gift || line.billing_interval_days === null) continue;
    if (customerId === null) throw new Error(`order ${order.id} has no customer to bill later cycles to`);
    // The plan is kept as ordered (docs/subscriptions.md, "Prices by cycle"): a later change of the offer changes no
    // subscriber's charges. Cycle 1 (paid now) lasts the trial's length when there is one.
    const plan = subscriptionPlanOf(line);
    const paidCycle = planCycle(plan, 1);
    // A prepaid plan's next date is its cycle 2, a fulfilment, one interval on (docs/subscriptions.md, "Prepaid
    // plans"); its cycle_amount is still what its next charge will be.
    const firstDays = plan.prepaid
      ? line.billing_interval_days
      : (paidCycle?.days ?? line.billing_interval_days);
    const subscription = {
      cycle_amount: nextPlanCycle(plan, 1)?.amount ?? 0,
      interval_days: line.billing_interval_days,
      next_charge_at: new Date(now.getTime() + firstDays * 86_400_000),
      billing_plan: plan,
    };
    const subscriptionId = await insertSubscription(
      tx,
      organization.id,
      {
        order_id: order.id,
        order_line_id: line.id,
        customer_id: customerId,
        offer_id: line.offer_id,
        payment_method_id: context.paymentMethodId,
        quantity: line.quantity,
        currency: order.currency,
        ...subscription,
        prepaid_shipped_cycle: plan.prepaid ? 1 : null,
        is_test: order.is_test,
      },
      now,
    );
    const notice = nextChargeNotice(
      { order_offer_id: line.cart_offer_id, item_name: line.item_name, ...subscription },
      { billing_plan: plan, prepaid_shipped_cycle: plan.prepaid ? 1 : null },
    );
    if (notice) subscriptions.push(notice);
    started.push({
      subscription_id: subscriptionId,
      offer_id: line.offer_id,
      item_name: line.item_name,
      ...subscription,
      subscribe_and_save_percent: line.subscribe_and_save_percent,
    });
  }
  // order.completed itself is enqueued by completeOrderWithAttempt's statement, which every completion runs.
  await emitOrderStarted(tx, completed.order, { subscriptions: started, claimedGiftId: giftId }, now);
  return { order: completed.order, lines, subscriptions };
}

/**
 * The cart once its order completed (`order`, as completed): ordered (as completeOrderWithAttempt marks it), paid
 * last by `method`.
 */
export function completedCart(
  state: CartState,
  order: OrderRow,
  method: NonNullable<CartState['lastPaymentMethod']>,
  now: Date,
): CartState {
  return {
    ...state,
    cart: { ...state.cart, ordered_at: now, updated_at: now },
    order,
    lastPaymentMethod: method,
  };
}

export function orderAlreadyPlaced(): AppError {
  return refusal(409, 'order_complete', { key: 'errors.order_complete' });
}

export function attemptValues(input: {
  orderId: number;
  cartId: number;
  method: PaymentAttemptValues['method'];
  gateway: string;
  status: PaymentAttemptValues['status'];
  amount: number;
  currency: string;
  isTest: boolean;
  ip: string | null;
  declineCode?: string | null;
  message?: string | null;
  reference?: string | null;
  summary?: CardSummary | null;
  paymentMethodId?: number | null;
}): PaymentAttemptValues {
  return {
    order_id: input.orderId,
    cart_id: input.cartId,
    method: input.method,
    gateway: input.gateway,
    status: input.status,
    amount: input.amount,
    currency: input.currency,
    decline_code: input.declineCode ?? null,
    message: input.message ?? null,
    card_brand: input.summary?.brand ?? null,
    card_type_id: input.summary?.typeId ?? null,
    card_last4: input.summary?.last4 ?? null,
    card_exp_month: input.summary?.expMonth ?? null,
    card_exp_year: input.summary?.expYear ?? null,
    gateway_reference: input.reference ?? null,
    payment_method_id: input.paymentMethodId ?? null,
    is_test: input.isTest,
    ip_address: input.ip,
  };
}

/** A gateway's outcome as a payment attempt records it. */
export function outcomeDetails(
  result: ChargeResult | ExpressCompleteResult,
): Partial<Parameters<typeof attemptValues>[0]> {
  if (result.status === 'approved' || result.status === 'requires_action')
    return { reference: result.reference };
  if (result.status === 'declined')
    return { declineCode: result.code, message: result.message, reference: result.reference };
  return { message: result.message };
}
