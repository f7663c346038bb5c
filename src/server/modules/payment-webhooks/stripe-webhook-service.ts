// Handling a verified Stripe event: reconciling a payment we did not hear about, recording failures, refunds and
// disputes (docs/payments.md, "Stripe"). Each handler is safe to run twice; the event id short-cuts redeliveries.
import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock.js';
import type { Database, Queryable } from '../../platform/db/database.js';
import { AppError } from '../../platform/errors.js';
import { DECLINE_MESSAGES } from '../../platform/payments/decline-messages.js';
import type { ChargeResult, PaymentGateway } from '../../platform/payments/gateway.js';
import { stripeDecline } from '../../platform/payments/stripe-decline.js';
import { attemptValues, completeOrder } from '../orders/order-completion.js';
import { lockOrder, type OrderRow } from '../orders/orders-repository.js';
import {
  findPaymentAttempts,
  insertPaymentAttempt,
  insertPaymentMethod,
  type PaymentAttemptValues,
} from '../orders/payment-attempts-repository.js';
import { findOrganizationById } from '../organizations/organizations-repository.js';
import { refundRecorded } from '../refunds/refund-recorded.js';
import { findRefundByProcessorReference, markRefundFailed } from '../refunds/refunds-repository.js';
import {
  findCartGiftClaim,
  findOrderByPaymentReference,
  insertPaymentEvent,
  isDeclinedUpsellOrder,
  isEventProcessed,
  markEventProcessed,
  orderExists,
} from './payment-events-repository.js';
import {
  decideSucceededPayment,
  hasApprovedAttempt,
  hasNoFinalAttempt,
  readStripeEvent,
  type StripeEventFacts,
} from './stripe-events.js';

export interface StripeWebhookDependencies {
  db: Database;
  clock: Clock;
  logger: Pick<Logger, 'info' | 'warn'>;
  /** the card gateway, Stripe's adapter: it retrieves succeeded payments and refunds duplicates */
  gateway: PaymentGateway;
}

const GATEWAY = 'stripe';

type Payment = Extract<StripeEventFacts, { kind: 'payment_succeeded' | 'payment_failed' }>;
type Approved = Extract<ChargeResult, { status: 'approved' }>;

export type EventOutcome =
  | 'duplicate_event'
  | 'ignored'
  | 'order_not_found'
  | 'already_recorded'
  | 'completed'
  | 'refunded_paid_twice'
  | 'refunded_amount_differs'
  /** paid for a one-click offer the shopper said no to (docs/api.md, "Upsells") */
  | 'refunded_upsell_declined'
  | 'failure_recorded'
  | 'refund_recorded'
  /** a refund made through the merchant API: recorded when it was made, not counted again */
  | 'refund_already_recorded'
  | 'refund_failed_recorded'
  | 'dispute_recorded';

const REFUND_MESSAGES = {
  paid_twice: 'Paid after the order was complete; refunded in full.',
  amount_differs: 'Paid an amount the order does not owe; refunded in full.',
  upsell_declined: 'Paid for an offer the shopper said no to; refunded in full.',
} as const;

const inFlight = () =>
  new AppError(
    503,
    'payment_in_flight',
    'The order is being paid right now; deliver this event again later.',
  );

/** Handles one verified event; throws an AppError (5xx) for Stripe to deliver it again later. */
export async function handleStripeEvent(
  deps: StripeWebhookDependencies,
  event: { id: string; type: string; data: { object: unknown } },
): Promise<EventOutcome> {
  if (await isEventProcessed(deps.db, GATEWAY, event.id)) return 'duplicate_event';
  const facts = readStripeEvent(event);
  let outcome: EventOutcome = 'ignored';
  let order: { organizationId: number; orderId: number } | null = null;
  if (facts !== null) {
    order = await findOrder(deps.db, facts);
    outcome = order === null ? 'order_not_found' : await handleFacts(deps, event.id, facts, order);
  }
  await markEventProcessed(
    deps.db,
    { gateway: GATEWAY, id: event.id, type: event.type, organizationId: order?.organizationId ?? null },
    deps.clock.now(),
  );
  // Ids, type and outcome only: an event's objects can hold the shopper's name and address.
  const log = outcome === 'order_not_found' || outcome.startsWith('refunded_') ? 'warn' : 'info';
  deps.logger[log](
    { stripeEvent: { id: event.id, type: event.type, outcome, reference: facts?.reference, ...order } },
    `Stripe event ${event.type}: ${outcome}`,
  );
  return outcome;
}

function handleFacts(
  deps: StripeWebhookDependencies,
  eventId: string,
  facts: StripeEventFacts,
  order: { organizationId: number; orderId: number },
): Promise<EventOutcome> {
  switch (facts.kind) {
    case 'payment_succeeded':
      return paymentSucceeded(deps, facts, order);
    case 'payment_failed':
      return paymentFailed(deps, facts, order);
    case 'refund':
      return refundReported(deps, eventId, facts, order);
    case 'refund_updated':
      return refundUpdated(deps, facts);
    default:
      return recordEvent(deps, eventId, facts, order);
  }
}

/**
 * Our order: from the metadata stripe-gateway.ts wrote on the PaymentIntent, else (a charge's or dispute's event,
 * which may not carry it) from the attempt that recorded the payment.
 */
async function findOrder(
  db: Queryable,
  facts: StripeEventFacts,
): Promise<{ organizationId: number; orderId: number } | null> {
  if (facts.kind === 'refund_updated') {
    const ours = await findRefundByProcessorReference(db, GATEWAY, facts.refundId);
    if (ours) return { organizationId: ours.organization_id, orderId: ours.order_id };
  } else if (facts.kind !== 'dispute' && facts.organizationId !== null && facts.orderId !== null) {
    return (await orderExists(db, facts.organizationId, facts.orderId))
      ? { organizationId: facts.organizationId, orderId: facts.orderId }
      : null;
  }
  const byAttempt = await findOrderByPaymentReference(db, GATEWAY, facts.reference);
  return byAttempt ? { organizationId: byAttempt.organization_id, orderId: byAttempt.order_id } : null;
}

function attemptOf(
  order: OrderRow,
  facts: Payment,
  status: PaymentAttemptValues['status'],
  details: Partial<Parameters<typeof attemptValues>[0]>,
): PaymentAttemptValues {
  return attemptValues({
    orderId: order.id,
    cartId: order.cart_id,
    method: 'card',
    gateway: GATEWAY,
    status,
    amount: facts.amount,
    currency: facts.currency,
    isTest: order.is_test,
    ip: null,
    reference: facts.reference,
    ...details,
  });
}

async function paymentSucceeded(
  deps: StripeWebhookDependencies,
  facts: Payment,
  where: { organizationId: number; orderId: number },
): Promise<EventOutcome> {
  // The usual case: the order path heard Stripe's answer and recorded it. No need to ask Stripe anything.
  const recorded = await findPaymentAttempts(deps.db, where.organizationId, where.orderId);
  if (hasApprovedAttempt(GATEWAY, facts.reference, recorded)) return 'already_recorded';
  // The PaymentIntent as Stripe has it now, with its card and saved method: the event's copy names neither.
  const paid = await deps.gateway.charge({
    amount: facts.amount,
    currency: facts.currency,
    source: { kind: 'authenticated', reference: facts.reference },
    storeForFuture: false,
    idempotencyKey: `webhook_${facts.reference}`,
    description: '',
  });
  if (paid.status !== 'approved') {
    throw new AppError(
      503,
      'processor_unavailable',
      'Stripe could not be asked about the payment; try again.',
    );
  }
  const decided = await deps.db.transaction(async (tx) => {
    const order = await lockOrder(tx, where.organizationId, where.orderId);
    if (!order) throw new Error(`order ${where.orderId} vanished`);
    const decision = decideSucceededPayment({
      gateway: GATEWAY,
      ...facts,
      order,
      attempts: await findPaymentAttempts(tx, where.organizationId, where.orderId),
      upsellDeclined: await isDeclinedUpsellOrder(tx, where.organizationId, where.orderId),
      now: deps.clock.now(),
    });
    if (decision.action === 'complete') await complete(tx, deps, order, facts, paid);
    return decision;
  });
  if (decided.action === 'none') return 'already_recorded';
  if (decided.action === 'wait') throw inFlight();
  if (decided.action === 'complete') return 'completed';
  // Refunded before anything is recorded: a refund Stripe did not make leaves the event to come again, and the
  // refund's key makes a second try answer the first refund.
  const refund = await deps.gateway.refund({
    reference: facts.reference,
    amount: facts.amount,
    currency: facts.currency,
    idempotencyKey: `refund_unowed_${facts.reference}`,
  });
  if (refund.status !== 'refunded') {
    throw new AppError(503, 'refund_failed', 'The payment to refund could not be refunded yet; try again.');
  }
  await deps.db.transaction(async (tx) => {
    const order = await lockOrder(tx, where.organizationId, where.orderId);
    if (!order) throw new Error(`order ${where.orderId} vanished`);
    const attempts = await findPaymentAttempts(tx, where.organizationId, where.orderId);
    const message = REFUND_MESSAGES[decided.why];
    if (hasNoFinalAttempt(GATEWAY, facts.reference, attempts)) {
      await insertPaymentAttempt(
        tx,
        where.organizationId,
        attemptOf(order, facts, 'approved', { message, summary: paid.summary ?? null }),
        deps.clock.now(),
      );
    }
    await insertPaymentEvent(
      tx,
      {
        organization_id: where.organizationId,
        order_id: where.orderId,
        gateway: GATEWAY,
        reference: facts.reference,
        source_id: refund.reference,
        kind: 'refund',
        amount: facts.amount,
        currency: facts.currency,
        status: 'requested',
        reason: decided.why,
      },
      deps.clock.now(),
    );
  });
  return `refunded_${decided.why}`;
}

/** Completes the order as the order path would have, had it heard Stripe's answer (order-completion.ts). */
async function complete(
  tx: Queryable,
  deps: StripeWebhookDependencies,
  order: OrderRow,
  facts: Payment,
  paid: Approved,
): Promise<void> {
  const organization = await findOrganizationById(tx, order.organization_id);
  if (!organization) throw new Error(`organization ${order.organization_id} vanished`);
  const now = deps.clock.now();
  const summary = paid.summary ?? null;
  let paymentMethodId: number | null = null;
  if (paid.paymentMethodToken !== null && order.customer_id !== null) {
    paymentMethodId = await insertPaymentMethod(
      tx,
      organization.id,
      {
        customer_id: order.customer_id,
        method: 'card',
        gateway: GATEWAY,
        gateway_token: paid.paymentMethodToken,
        card_brand: summary?.brand ?? null,
        card_type_id: summary?.typeId ?? null,
        card_last4: summary?.last4 ?? null,
        card_exp_month: summary?.expMonth ?? null,
        card_exp_year: summary?.expYear ?? null,
        is_test: order.is_test,
        gateway_customer: paid.customerReference ?? null,
      },
      now,
    );
  }
  await completeOrder(tx, organization, order, {
    attempt: attemptOf(order, facts, 'approved', { summary, paymentMethodId }),
    paymentMethodId,
    giftClaimId: await findCartGiftClaim(tx, organization.id, order.cart_id),
    now,
  });
}

async function paymentFailed(
  deps: StripeWebhookDependencies,
  facts: Payment,
  where: { organizationId: number; orderId: number },
): Promise<EventOutcome> {
  return deps.db.transaction(async (tx) => {
    const order = await lockOrder(tx, where.organizationId, where.orderId);
    if (!order) throw new Error(`order ${where.orderId} vanished`);
    const attempts = await findPaymentAttempts(tx, where.organizationId, where.orderId);
    if (!hasNoFinalAttempt(GATEWAY, facts.reference, attempts)) return 'already_recorded';
    const { code } = stripeDecline(facts.failure ?? {});
    await insertPaymentAttempt(
      tx,
      where.organizationId,
      attemptOf(order, facts, 'declined', { declineCode: code, message: DECLINE_MESSAGES[code] }),
      deps.clock.now(),
    );
    return 'failure_recorded';
  });
}

/**
 * charge.refunded: the payment's running total refunded. When the event lists the charge's refunds and each is one
 * we made (docs/api.md, "Refunds"), it is recorded already. Otherwise the total is kept; an order's amount refunded
 * is the larger of ours and the processor's total (refund-decisions.ts), so our refunds are never counted twice.
 */
async function refundReported(
  deps: StripeWebhookDependencies,
  eventId: string,
  facts: Extract<StripeEventFacts, { kind: 'refund' }>,
  where: { organizationId: number; orderId: number },
): Promise<EventOutcome> {
  if (facts.refundIds.length > 0) {
    const ours = await Promise.all(
      facts.refundIds.map((id) => findRefundByProcessorReference(deps.db, GATEWAY, id)),
    );
    if (ours.every((refund) => refund !== null)) return 'refund_already_recorded';
  }
  return recordEvent(deps, eventId, facts, where);
}

/** refund.updated: a refund of ours that Stripe could not complete after all is failed, and leaves its amount. */
async function refundUpdated(
  deps: StripeWebhookDependencies,
  facts: Extract<StripeEventFacts, { kind: 'refund_updated' }>,
): Promise<EventOutcome> {
  const ours = await findRefundByProcessorReference(deps.db, GATEWAY, facts.refundId);
  // A refund made in Stripe's dashboard: charge.refunded records it.
  if (ours === null) return 'ignored';
  if (facts.status !== 'failed' && facts.status !== 'canceled') return 'refund_already_recorded';
  return deps.db.transaction(async (tx) => {
    await lockOrder(tx, ours.organization_id, ours.order_id);
    const failed = await markRefundFailed(
      tx,
      ours.id,
      `Stripe could not complete the refund (${facts.failureReason ?? facts.status}).`,
      deps.clock.now(),
    );
    if (failed === null) return 'refund_already_recorded';
    await refundRecorded(tx, failed);
    return 'refund_failed_recorded';
  });
}

async function recordEvent(
  deps: StripeWebhookDependencies,
  eventId: string,
  facts: Extract<StripeEventFacts, { kind: 'refund' | 'dispute' }>,
  where: { organizationId: number; orderId: number },
): Promise<EventOutcome> {
  await insertPaymentEvent(
    deps.db,
    {
      organization_id: where.organizationId,
      order_id: where.orderId,
      gateway: GATEWAY,
      reference: facts.reference,
      source_id: eventId,
      kind: facts.kind,
      amount: facts.amount,
      currency: facts.currency,
      status: facts.kind === 'refund' ? (facts.fully ? 'refunded' : 'partially_refunded') : facts.status,
      reason: facts.kind === 'dispute' ? facts.reason : null,
    },
    deps.clock.now(),
  );
  return facts.kind === 'refund' ? 'refund_recorded' : 'dispute_recorded';
}
