// The order at the payment provider: the express payment it is completed with, a card or PayPal charge, and an
// express start. No lock is held during a provider's call.
import type { OrderResponse } from '../../../contract/order.js';
import { isRetryable, type Queryable } from '../../platform/db/database.js';
import { AppError, notFound } from '../../platform/errors.js';
import type { ChargeResult, ExpressCompleteResult } from '../../platform/payments/gateway.js';
import {
  expireExpressPayment,
  findExpressPayment,
  markExpressPaymentUsed,
  setExpressProviderReference,
  type ExpressPaymentRow,
} from '../express/express-payments-repository.js';
import {
  insertPaymentAttempt,
  insertPaymentMethod,
  type PaymentAttemptValues,
} from './payment-attempts-repository.js';
import {
  lockOrder,
  releasePaymentLease,
  completeOrderWithAttempt,
  setOrderOutcome,
  type OrderRow,
} from './orders-repository.js';
import { releaseDiscountUse, clearDiscountReservation } from './discount-uses-repository.js';
import type { OrderLineFigures } from './order-figures.js';
import type { OrderSubscriptionNotice } from '../subscriptions/subscriptions-repository.js';
import { presentCompletedCart, viewCart, viewCartState } from '../carts/cart-service.js';
import type { CartState } from '../carts/cart-state.js';
import type { OrderDependencies, OrderRequest, Plan } from './order-plan.js';
import {
  attemptValues,
  completeOrder,
  completedCart,
  orderAlreadyPlaced,
  outcomeDetails,
} from './order-completion.js';

/**
 * The express payment an order is completed with, checked for this cart. Its amount may differ from the final total:
 * the payer approved before the page knew their address; the page shows the final total and this request confirms it.
 */
export async function checkExpressPayment(
  tx: Queryable,
  state: CartState,
  paymentTokenId: string,
  now: Date,
): Promise<ExpressPaymentRow> {
  const express = await findExpressPayment(tx, state.organization.id, paymentTokenId);
  if (!express || express.cart_id !== state.cart.id) {
    throw notFound('payment_token_not_found', "We couldn't find that PayPal payment. Start PayPal again.");
  }
  if (express.status === 'used') {
    throw new AppError(409, 'express_payment_used', 'This PayPal payment was already used for an order.');
  }
  if (express.status === 'cancelled') {
    throw new AppError(
      422,
      'express_payment_cancelled',
      'You canceled the PayPal payment. Choose how you want to pay.',
    );
  }
  if (express.status === 'expired' || express.expires_at <= now) {
    throw new AppError(
      422,
      'express_payment_expired',
      'The PayPal approval has expired. Start PayPal again.',
    );
  }
  if (express.status !== 'approved') {
    throw new AppError(422, 'express_payment_not_approved', 'The PayPal payment has not been approved yet.');
  }
  return express;
}

/** Gives up a payment that never reached the gateway: the lease and the held code use go back. */
async function abandonCharge(
  deps: OrderDependencies,
  plan: Extract<Plan, { kind: 'charge' }>,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await releasePaymentLease(tx, plan.organization.id, plan.orderId);
    if (plan.discountCodeId !== null) {
      await releaseDiscountUse(tx, plan.organization.id, plan.discountCodeId);
      await clearDiscountReservation(tx, plan.organization.id, plan.orderId);
    }
  });
}

/** What an approved payment completed, as this attempt wrote it. */
interface PaidOrder {
  order: OrderRow;
  lines: readonly OrderLineFigures[];
  subscriptions: OrderSubscriptionNotice[];
}

/** The answer to a paid order the attempt wrote, made from what it holds (its shape as viewCart reads it back). */
function paidAnswer(plan: Extract<Plan, { kind: 'charge' }>, paid: PaidOrder, now: Date): OrderResponse {
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
  plan: Extract<Plan, { kind: 'charge' }>,
  request: Pick<OrderRequest, 'shopper' | 'now' | 'answers'>,
): Promise<OrderResponse> {
  const { shopper, now, answers } = request;
  const { organization } = plan;
  const limitsInput = { organizationId: organization.id, cartId: plan.cartId, ip: shopper.clientIp };
  // Where the limits live in this database they were checked (and this attempt counted) as the order was saved.
  if (!deps.limits.beforeOrderAttemptInTransaction) {
    try {
      await deps.limits.beforeOrderAttempt(limitsInput);
    } catch (error) {
      await abandonCharge(deps, plan);
      throw error;
    }
  }

  // Derived from the recorded attempts: a retry after a crash between charging and recording reuses the key,
  // and the gateway answers the charge it already made instead of charging twice.
  const idempotencyKey = `order_${organization.id}_${plan.orderId}_attempt_${plan.attempt}`;
  const gateway = plan.payment.method === 'card' ? deps.gateways.card : deps.gateways.express;
  let result: ChargeResult | ExpressCompleteResult;
  try {
    result =
      plan.payment.method === 'card'
        ? await gateway.charge({
            amount: plan.amount,
            currency: organization.currency,
            source: { kind: 'card', card: plan.payment.card, summary: plan.payment.summary },
            storeForFuture: plan.storeForFuture,
            idempotencyKey,
            description: `Order ${plan.orderId} at ${organization.name}`,
            testCard: plan.payment.testCard,
            organizationId: organization.id,
          })
        : await gateway.completeExpress({
            providerReference: plan.payment.express.provider_reference ?? '',
            amount: plan.amount,
            approvedAmount: plan.payment.express.amount,
            currency: organization.currency,
            idempotencyKey,
            organizationId: organization.id,
          });
  } catch {
    result = {
      status: 'error',
      message: 'The payment service did not answer. Nothing was charged; try again.',
      retryable: true,
    };
  }

  const summary = plan.payment.method === 'card' ? plan.payment.summary : null;
  const method = plan.payment.method;
  const values = (
    status: PaymentAttemptValues['status'],
    extra: Partial<Parameters<typeof attemptValues>[0]>,
  ) =>
    attemptValues({
      orderId: plan.orderId,
      cartId: plan.cartId,
      method,
      gateway: gateway.name,
      status,
      amount: plan.amount,
      currency: organization.currency,
      isTest: plan.isTest,
      ip: shopper.clientIp,
      summary,
      ...extra,
    });
  if (result.status === 'approved' && plan.completesAlone) {
    // Nothing else completes with the order: one statement records the payment, completes the order and stores the
    // answer under the request's key, if the order still holds this attempt's lease (so it is as this attempt wrote
    // it, and the answer is made beforehand from what the attempt holds). When another attempt took the lease over or
    // completed the order meanwhile, or the statement lost a deadlock (a transaction would be run again), it writes
    // nothing and the payment is recorded below.
    const answer = paidAnswer(plan, { order: plan.order, lines: plan.lines, subscriptions: [] }, now);
    const holder = answers.holder;
    const completed = await completeOrderWithAttempt(
      deps.db,
      organization.id,
      {
        orderId: plan.orderId,
        leaseUntil: plan.paymentLeaseUntil,
        attempt: values('approved', { reference: result.reference, paymentMethodId: null }),
        answer: holder ? { ...holder, status: 200, body: answer } : undefined,
      },
      now,
    ).catch((error: unknown) => {
      if (isRetryable(error)) return null;
      throw error;
    });
    if (completed) {
      answers.kept({ status: 200, body: answer });
      return answer;
    }
  }
  // The outcome is recorded and its answer stored under the request's key in one transaction: a process that dies
  // after it commits leaves the answer for the retry (docs/api.md, "Orders").
  const outcome = await deps.db.transaction(async (tx): Promise<OrderResponse | AppError> => {
    const order = await lockOrder(tx, organization.id, plan.orderId);
    if (!order) throw new Error(`order ${plan.orderId} vanished during its payment`);
    const attempt = (
      status: PaymentAttemptValues['status'],
      extra: Partial<Parameters<typeof attemptValues>[0]>,
    ) => insertPaymentAttempt(tx, organization.id, values(status, extra), now);
    const answered = async (answer: OrderResponse | AppError) => {
      await answers.keep(
        tx,
        answer instanceof AppError
          ? { status: answer.status, body: answer.toBody() }
          : { status: 200, body: answer },
      );
      return answer;
    };
    if (order.status === 'complete') {
      // Another attempt, whose lease had run out, completed the order while this one was being paid: this outcome is
      // recorded and nothing about the order changes (an approved one shows the merchant a second approved attempt to
      // refund; no subscription or gift code is made twice).
      await attempt(result.status, outcomeDetails(result));
      return answered(
        result.status === 'approved'
          ? await viewCart(tx, organization.id, plan.cartId, now)
          : orderAlreadyPlaced(),
      );
    }
    // Had the lease run out and another attempt taken the order over (a new lease, perhaps the order rewritten), the
    // order is no longer as this attempt wrote it, and its lease and code use are that attempt's now.
    const asWritten = order.payment_lease_until?.getTime() === plan.paymentLeaseUntil.getTime();
    if (result.status === 'approved') {
      let paymentMethodId: number | null = null;
      if (result.paymentMethodToken && plan.storeForFuture) {
        paymentMethodId = await insertPaymentMethod(
          tx,
          organization.id,
          {
            customer_id: plan.customerId,
            method,
            gateway: gateway.name,
            gateway_token: result.paymentMethodToken,
            card_brand: summary?.brand ?? null,
            card_type_id: summary?.typeId ?? null,
            card_last4: summary?.last4 ?? null,
            card_exp_month: summary?.expMonth ?? null,
            card_exp_year: summary?.expYear ?? null,
            is_test: plan.isTest,
          },
          now,
        );
      }
      if (plan.payment.method === 'paypal')
        await markExpressPaymentUsed(tx, organization.id, plan.payment.express.id, now);
      const completed = await completeOrder(tx, organization, order, {
        attempt: values('approved', { reference: result.reference, paymentMethodId }),
        paymentMethodId,
        giftClaimId: plan.giftClaimId,
        now,
      });
      const paidOrder = { ...order, payment_method_id: paymentMethodId ?? order.payment_method_id };
      // An order another attempt rewrote meanwhile is read back for its answer.
      return answered(
        asWritten
          ? paidAnswer(plan, { order: paidOrder, ...completed }, now)
          : await viewCart(tx, organization.id, plan.cartId, now),
      );
    }
    await attempt(result.status, outcomeDetails(result));
    // A failed payment of an order another attempt now pays is only recorded: giving back the code use or marking the
    // order declined would undo that attempt's (which may complete the order with the code, on the same use).
    if (asWritten) {
      if (plan.discountCodeId !== null) await releaseDiscountUse(tx, organization.id, plan.discountCodeId);
      await setOrderOutcome(
        tx,
        organization.id,
        order.id,
        // A gateway error changes nothing about the order: it stays as it was for the retry.
        { status: result.status === 'declined' ? 'declined' : order.status, discountReserved: false },
        now,
      );
    }
    // A gateway error is a "try again", not an answer: the key is let go for the retry.
    if (result.status === 'error') return gatewayError(result.message);
    return answered(new AppError(402, result.code, result.message));
  });

  if (outcome instanceof AppError) {
    if (outcome.status === 402) await deps.limits.recordFailedPayment(limitsInput);
    throw outcome;
  }
  return outcome;
}

function gatewayError(message: string): AppError {
  return new AppError(503, 'payment_unavailable', message, { headers: { 'retry-after': '5' } });
}

/** Starts the express payment at the provider; answers the cart with the redirect to the payer's approval. */
export async function startExpress(
  deps: OrderDependencies,
  plan: Extract<Plan, { kind: 'express_start' }>,
  request: Pick<OrderRequest, 'now' | 'answers'>,
): Promise<OrderResponse> {
  const { organization } = plan;
  const started = await deps.gateways.express
    .startExpress({
      amount: plan.amount,
      currency: organization.currency,
      paymentTokenId: plan.express.publicId,
      returnUrl: plan.returnUrl,
      cancelUrl: plan.returnUrl,
      idempotencyKey: `express_${plan.express.publicId}`,
      description: `Order at ${organization.name}`,
      storeForFuture: plan.storeForFuture,
    })
    .catch(() => ({ status: 'error' as const, message: 'PayPal did not answer.', retryable: true as const }));
  if (started.status !== 'created') {
    await deps.db.transaction((tx) => expireExpressPayment(tx, organization.id, plan.express.id));
    throw new AppError(
      503,
      'express_unavailable',
      'PayPal is not answering right now. Try again or pay by card.',
      {
        headers: { 'retry-after': '5' },
      },
    );
  }
  // The answer is stored with the provider's reference, as an order's is with its outcome.
  return deps.db.transaction(async (tx) => {
    await setExpressProviderReference(tx, organization.id, plan.express.id, started.providerReference);
    const action = { type: 'redirect' as const, url: started.approvalUrl };
    const answer = { ...(await viewCartState(tx, plan.after, request.now)), action };
    await request.answers.keep(tx, { status: 200, body: answer });
    return answer;
  });
}
