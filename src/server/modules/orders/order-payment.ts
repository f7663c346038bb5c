// Charging a placed order: outside any transaction (no lock is held during the provider's call), then its outcome
// recorded, and the order completed when it is paid.
import type { OrderResponse } from '../../../contract/order.js';
import type { Language } from '../../../i18n/languages.js';
import { isRetryable, type Queryable } from '../../platform/db/database.js';
import { AppError, refusal } from '../../platform/errors.js';
import { declineMessage, PROCESSOR_UNAVAILABLE } from '../../platform/payments/decline-messages.js';
import type { ChargeResult, ExpressCompleteResult } from '../../platform/payments/gateway.js';
import { markExpressPaymentUsed } from '../express/express-payments-repository.js';
import {
  insertPaymentAttempt,
  insertPaymentMethod,
  type PaymentAttemptValues,
} from './payment-attempts-repository.js';
import { lockOrder, releasePaymentLease, setOrderOutcome, type OrderRow } from './orders-repository.js';
import { asCompleted, completeOrderWithAttempt } from './order-completion-repository.js';
import { chargeKey, statusAfterFailedPayment } from './order-decisions.js';
import { releaseDiscountUse, clearDiscountReservation } from './discount-uses-repository.js';
import type { OrderLineFigures } from './order-figures.js';
import { refusalOutcome } from './idempotency.js';
import type { OrderSubscriptionNotice } from '../subscriptions/subscriptions-repository.js';
import { presentCompletedCart, viewCart } from '../carts/cart-service.js';
import { major } from '../../platform/http/money-input.js';
import { emitWebhookEvent } from '../webhooks/webhook-events.js';
import type { OrderDependencies, OrderRequest, Plan } from './order-plan.js';
import {
  attemptValues,
  completeOrder,
  completedCart,
  orderAlreadyPlaced,
  outcomeDetails,
} from './order-completion.js';

/** Gives up a payment that never reached the gateway: the lease and the held code use go back. */
async function abandonCharge(deps: OrderDependencies, plan: ChargePlan): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await releasePaymentLease(tx, plan.organization.id, plan.orderId);
    if (plan.discountCodeId !== null) {
      await releaseDiscountUse(tx, plan.organization.id, plan.discountCodeId);
      await clearDiscountReservation(tx, plan.organization.id, plan.orderId);
    }
  });
}

type ChargePlan = Extract<Plan, { kind: 'charge' }>;
type AttemptDetails = Partial<Parameters<typeof attemptValues>[0]>;

/** The answer to a paid order: its cart as completed, with what the completion wrote (its lines, subscriptions). */
function paidAnswer(
  plan: ChargePlan,
  paid: { order: OrderRow; lines: readonly OrderLineFigures[]; subscriptions: OrderSubscriptionNotice[] },
  now: Date,
): OrderResponse {
  return presentCompletedCart(completedCart(plan.saved, paid.order, plan.payment.method, now), paid.order, {
    lines: paid.lines,
    profile: plan.chosenProfile,
    subscriptions: paid.subscriptions,
  });
}

/**
 * Charges (outside any transaction: no lock is held during the network call) and records the outcome with its answer;
 * answers the completed order's cart, or throws the decline.
 */
export async function charge(
  deps: OrderDependencies,
  plan: ChargePlan,
  request: Pick<OrderRequest, 'shopper' | 'now' | 'answers'>,
): Promise<OrderResponse> {
  const limitsInput = {
    organizationId: plan.organization.id,
    cartId: plan.cartId,
    ip: request.shopper.clientIp,
  };
  // Where the limits live in this database they were checked (and this attempt counted) as the order was saved.
  if (!deps.limits.beforeOrderAttemptInTransaction) {
    try {
      await deps.limits.beforeOrderAttempt(limitsInput);
    } catch (error) {
      await abandonCharge(deps, plan);
      throw error;
    }
  }
  const result = await callGateway(deps, plan);
  if (result.status === 'approved' && plan.completesAlone) {
    const answer = await completeAlone(deps, plan, request, result);
    if (answer) return answer;
  }
  const outcome = await recordOutcome(deps, plan, request, result);
  if (outcome instanceof AppError) {
    if (outcome.status === 402) await deps.limits.recordFailedPayment(limitsInput);
    throw outcome;
  }
  return outcome;
}

function gatewayOf(deps: OrderDependencies, plan: ChargePlan) {
  return plan.payment.method === 'card' ? deps.gateways.card : deps.gateways.express;
}

/** The card charge or the express payment's completion at the provider; no answer is an error, nothing charged. */
async function callGateway(
  deps: OrderDependencies,
  plan: ChargePlan,
): Promise<ChargeResult | ExpressCompleteResult> {
  const { organization, payment } = plan;
  // Derived from the recorded attempts: a retry after a crash between charging and recording reuses the key,
  // and the gateway answers the charge it already made instead of charging twice.
  const idempotencyKey = chargeKey(organization.id, plan.orderId, plan.attempt);
  const gateway = gatewayOf(deps, plan);
  try {
    return payment.method === 'card'
      ? await gateway.charge({
          amount: plan.amount,
          currency: organization.currency,
          source: payment.source,
          storeForFuture: plan.storeForFuture,
          idempotencyKey,
          description: `Order ${plan.orderId} at ${organization.name}`,
          organizationId: organization.id,
          orderId: plan.orderId,
          attempt: plan.attempt,
        })
      : await gateway.completeExpress({
          providerReference: payment.express.provider_reference ?? '',
          amount: plan.amount,
          approvedAmount: payment.express.amount,
          currency: organization.currency,
          idempotencyKey,
          organizationId: organization.id,
        });
  } catch {
    return {
      status: 'error',
      message: 'The payment service did not answer. Nothing was charged; try again.',
      retryable: true,
    };
  }
}

/** The payment attempt this charge records. */
function attemptOf(
  deps: OrderDependencies,
  plan: ChargePlan,
  request: Pick<OrderRequest, 'shopper'>,
  status: PaymentAttemptValues['status'],
  details: AttemptDetails,
): PaymentAttemptValues {
  return attemptValues({
    orderId: plan.orderId,
    cartId: plan.cartId,
    method: plan.payment.method,
    gateway: gatewayOf(deps, plan).name,
    status,
    amount: plan.amount,
    currency: plan.organization.currency,
    isTest: plan.isTest,
    ip: request.shopper.clientIp,
    summary: plan.payment.method === 'card' ? plan.payment.summary : null,
    ...details,
  });
}

/**
 * Nothing else completes with the order: one statement records the payment, completes the order and stores the answer
 * under the request's key, if the order still holds this attempt's lease (so it is as this attempt wrote it, and the
 * answer is made beforehand from what the attempt holds). When another attempt took the lease over or completed the
 * order meanwhile, or the statement lost a deadlock (a transaction would be run again), it writes nothing and answers
 * null: the payment is recorded by recordOutcome.
 */
async function completeAlone(
  deps: OrderDependencies,
  plan: ChargePlan,
  request: Pick<OrderRequest, 'shopper' | 'now' | 'answers'>,
  result: Extract<ChargeResult | ExpressCompleteResult, { status: 'approved' }>,
): Promise<OrderResponse | null> {
  const { now, answers } = request;
  const order = asCompleted(plan.order, null, now);
  const answer = paidAnswer(plan, { order, lines: plan.lines, subscriptions: [] }, now);
  const holder = answers.holder;
  const completed = await completeOrderWithAttempt(
    deps.db,
    plan.organization.id,
    {
      orderId: plan.orderId,
      leaseUntil: plan.paymentLeaseUntil,
      attempt: attemptOf(deps, plan, request, 'approved', {
        reference: result.reference,
        paymentMethodId: null,
      }),
      answer: holder ? { ...holder, status: 200, body: answer } : undefined,
    },
    now,
  ).catch((error: unknown) => {
    if (isRetryable(error)) return null;
    throw error;
  });
  if (!completed) return null;
  answers.kept({ status: 200, body: answer });
  return answer;
}

/**
 * Records the outcome and stores its answer under the request's key in one transaction: a process that dies after it
 * commits leaves the answer for the retry (docs/api.md, "Orders"). Answers the completed cart, or the error to throw.
 */
async function recordOutcome(
  deps: OrderDependencies,
  plan: ChargePlan,
  request: Pick<OrderRequest, 'shopper' | 'now' | 'answers'>,
  result: ChargeResult | ExpressCompleteResult,
): Promise<OrderResponse | AppError> {
  const { organization } = plan;
  const { now, answers } = request;
  return deps.db.transaction(async (tx): Promise<OrderResponse | AppError> => {
    const order = await lockOrder(tx, organization.id, plan.orderId);
    if (!order) throw new Error(`order ${plan.orderId} vanished during its payment`);
    const answered = async (answer: OrderResponse | AppError) => {
      await answers.keep(
        tx,
        answer instanceof AppError ? refusalOutcome(answer) : { status: 200, body: answer },
      );
      return answer;
    };
    const record = (status: PaymentAttemptValues['status'], details: AttemptDetails) =>
      insertPaymentAttempt(tx, organization.id, attemptOf(deps, plan, request, status, details), now);
    if (order.status === 'complete') {
      // Another attempt, whose lease had run out, completed the order while this one was being paid: this outcome is
      // recorded and nothing about the order changes (an approved one shows the merchant a second approved attempt to
      // refund; no subscription or gift code is made twice).
      await record(result.status, outcomeDetails(result));
      return answered(
        result.status === 'approved'
          ? await viewCart(tx, organization.id, plan.cartId, now, request.shopper.language)
          : orderAlreadyPlaced(),
      );
    }
    // Had the lease run out and another attempt taken the order over (a new lease, perhaps the order rewritten), the
    // order is no longer as this attempt wrote it, and its lease and code use are that attempt's now.
    const asWritten = order.payment_lease_until?.getTime() === plan.paymentLeaseUntil.getTime();
    if (result.status === 'approved') {
      const paid = await completePaid(tx, deps, plan, request, order, result);
      // An order another attempt rewrote meanwhile is read back for its answer.
      return answered(
        asWritten
          ? paidAnswer(plan, paid, now)
          : await viewCart(tx, organization.id, plan.cartId, now, request.shopper.language),
      );
    }
    await record(result.status, outcomeDetails(result));
    if (result.status === 'requires_action')
      return awaitAuthentication(tx, plan, now, asWritten, result, answered, request.shopper.language);
    // A failed payment of an order another attempt now pays is only recorded: giving back the code use or marking the
    // order declined would undo that attempt's (which may complete the order with the code, on the same use).
    if (asWritten) {
      if (plan.discountCodeId !== null) await releaseDiscountUse(tx, organization.id, plan.discountCodeId);
      const status = statusAfterFailedPayment(result.status, order.status);
      await setOrderOutcome(tx, organization.id, order.id, { status, discountReserved: false }, now);
    }
    // A gateway error is a "try again", not an answer: the key is let go for the retry.
    if (result.status === 'error') return gatewayError();
    await emitWebhookEvent(
      tx,
      organization.id,
      'order.payment_failed',
      {
        order_id: order.id,
        cart_token: order.cart_token,
        currency: order.currency,
        amount: major(plan.amount, order.currency),
        email: order.email,
        decline_code: result.code,
        message: result.message,
        is_test: order.is_test,
      },
      now,
      { eventKey: `order.payment_failed:${order.id}:${now.getTime()}` },
    );
    // The processor's words stay in the merchant's records; the shopper reads the code's, in their language.
    return answered(refusal(402, result.code, declineMessage(result.code)));
  });
}

/**
 * The bank wants the shopper to authenticate: the order waits for them (awaiting_payment, its code use still held for
 * the same total), and the answer carries what the page's processor adapter shows (docs/payments.md).
 */
async function awaitAuthentication(
  tx: Queryable,
  plan: ChargePlan,
  now: Date,
  asWritten: boolean,
  result: Extract<ChargeResult, { status: 'requires_action' }>,
  answered: (answer: OrderResponse) => Promise<OrderResponse | AppError>,
  language: Language,
): Promise<OrderResponse | AppError> {
  const { organization } = plan;
  if (asWritten)
    await setOrderOutcome(tx, organization.id, plan.orderId, { status: 'awaiting_payment' }, now);
  const cart = await viewCart(tx, organization.id, plan.cartId, now, language);
  return answered({
    ...cart,
    action: { type: 'authenticate', reference: result.reference, payment_action: result.action },
  });
}

/** Completes a paid order in the caller's transaction: its payment method stored when kept for later cycles. */
async function completePaid(
  tx: Queryable,
  deps: OrderDependencies,
  plan: ChargePlan,
  request: Pick<OrderRequest, 'shopper' | 'now'>,
  order: OrderRow,
  result: Extract<ChargeResult | ExpressCompleteResult, { status: 'approved' }>,
) {
  const { organization } = plan;
  const { now } = request;
  const summary = plan.payment.method === 'card' ? plan.payment.summary : null;
  let paymentMethodId: number | null = null;
  if (result.paymentMethodToken && plan.storeForFuture) {
    paymentMethodId = await insertPaymentMethod(
      tx,
      organization.id,
      {
        customer_id: plan.customerId,
        method: plan.payment.method,
        gateway: gatewayOf(deps, plan).name,
        gateway_token: result.paymentMethodToken,
        card_brand: summary?.brand ?? null,
        card_type_id: summary?.typeId ?? null,
        card_last4: summary?.last4 ?? null,
        card_exp_month: summary?.expMonth ?? null,
        card_exp_year: summary?.expYear ?? null,
        is_test: plan.isTest,
        gateway_customer: 'customerReference' in result ? (result.customerReference ?? null) : null,
      },
      now,
    );
  }
  if (plan.payment.method === 'paypal')
    await markExpressPaymentUsed(tx, organization.id, plan.payment.express.id, now);
  return completeOrder(tx, organization, order, {
    attempt: attemptOf(deps, plan, request, 'approved', { reference: result.reference, paymentMethodId }),
    paymentMethodId,
    giftClaimId: plan.giftClaimId,
    now,
  });
}

function gatewayError(): AppError {
  return refusal(503, 'payment_unavailable', PROCESSOR_UNAVAILABLE, { headers: { 'retry-after': '5' } });
}
