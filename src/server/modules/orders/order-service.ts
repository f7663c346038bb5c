// The order path: place the order (check, price, decide and save it under its cart's lock, in one transaction), then
// charge it outside any transaction and complete it (order-payment.ts), or start its express payment.
import type { OrderResponse } from '../../../contract/order.js';
import type { Queryable } from '../../platform/db/database.js';
import { AppError, refusal } from '../../platform/errors.js';
import { newCartToken } from '../../platform/security/secrets.js';
import { presentCompletedCart } from '../carts/cart-service.js';
import { insertExpressPayment } from '../express/express-payments-repository.js';
import { expressReturnUrl } from '../express/express-service.js';
import { releaseDiscountUse } from './discount-uses-repository.js';
import { openCartForOrder, priceAndCheck } from './order-checks.js';
import { attemptValues, completeOrder, completedCart } from './order-completion.js';
import {
  cardToCharge,
  completesAlone,
  isExpressStart,
  isPaymentDue,
  isTestCard,
  isTestOrder,
  nextStep,
  orderLines,
  savedStatus,
  storesPaymentMethod,
} from './order-decisions.js';
import { startExpress } from './order-express.js';
import { findLinkUpsells } from '../catalog/checkout-links-repository.js';
import { keepsCardForUpsells } from '../upsells/upsell-decisions.js';
import { charge } from './order-payment.js';
import type {
  DescribedCardToken,
  OrderDecision,
  OrderDependencies,
  OrderRequest,
  Plan,
  PricedOrder,
  SavedOrder,
} from './order-plan.js';
import { customerOf, orderValues } from './order-request.js';
import { setOrderOutcome } from './orders-repository.js';
import { saveOrder, settleCodeUse } from './order-saving.js';
import { countPaymentAttempts } from './payment-attempts-repository.js';

export type { OrderDependencies, OrderLimits, OrderRequest } from './order-plan.js';

/** How long the payer has to approve an express payment. */
const EXPRESS_LIFETIME_MS = 3 * 60 * 60 * 1000;

/**
 * POST orders / PUT orders/{order_id}: validate and price on the server, then complete, start an express payment, or
 * charge. Answers the cart (order.status complete) or, for an express start, the cart with a redirect action.
 * A decline is a 402 with the gateway's words; the order stays for a retry through PUT orders/{order_id}. Every answer
 * that changes money state is stored under the request's Idempotency-Key by the transaction that makes it true.
 */
export async function submitOrder(deps: OrderDependencies, request: OrderRequest): Promise<OrderResponse> {
  const card = await describeCardToken(deps, request);
  const plan = await placeOrder(deps, { ...request, card });
  if (plan.kind === 'refused') throw plan.error;
  if (plan.kind === 'completed') return plan.answer;
  if (plan.kind === 'express_start') return startExpress(deps, plan, request);
  return charge(deps, plan, request);
}

/**
 * What the processor says of the body's card token (brand, last 4, expiry; never the number), asked before the
 * order's transaction as it may be a network call. A processor that does not answer is a 503: nothing was charged.
 */
async function describeCardToken(
  deps: OrderDependencies,
  request: OrderRequest,
): Promise<DescribedCardToken | null> {
  const payment = request.body.payment;
  const token = payment?.method === 'card' ? payment.card_token?.trim() : undefined;
  if (!token) return null;
  const describe = deps.gateways.card.describeCardToken?.bind(deps.gateways.card);
  if (!describe)
    return {
      token,
      description: { status: 'unusable', reason: 'cards_not_taken', message: 'Cards are not taken here.' },
    };
  try {
    return { token, description: await describe(token) };
  } catch {
    throw refusal(
      503,
      'payment_unavailable',
      { key: 'errors.payment_unavailable' },
      {
        headers: { 'retry-after': '5' },
      },
    );
  }
}

/** Checks, prices, decides and saves the order under the cart's lock, and says what happens next. */
function placeOrder(deps: OrderDependencies, request: OrderRequest): Promise<Plan> {
  return deps.db.transaction(async (tx): Promise<Plan> => {
    const state = await openCartForOrder(tx, request);
    const priced = await priceAndCheck(tx, state, request);
    // A link with upsells keeps the card for the one-click offers after the order (docs/api.md, "Upsells").
    const upsellsFollow =
      (await findLinkUpsells(tx, state.organization.id, state.cart.checkout_link_id)).length > 0;
    const decided = decide(priced, request, upsellsFollow);
    const paymentLeaseUntil = new Date(request.now.getTime() + deps.paymentLeaseMs);
    const saved = await saveOrder(tx, priced, decided, request, paymentLeaseUntil);
    if (decided.step === 'express_start')
      return startExpressPayment(tx, deps, priced, saved, decided, request);
    await settleCodeUse(tx, priced, saved, decided);
    if (decided.step === 'complete') return completeFreeOrder(tx, priced, saved, decided, request);
    return prepareCharge(tx, deps, priced, saved, decided, request, paymentLeaseUntil);
  });
}

/** What the priced order comes to (order-decisions.ts): the next step, and the order and lines to write. */
function decide(priced: PricedOrder, request: OrderRequest, upsellsFollow: boolean): OrderDecision {
  const { state, pricing, addresses } = priced;
  const { body, shopper, now } = request;
  const expressStart = isExpressStart(body.payment);
  const paymentDue = isPaymentDue(pricing.result);
  const testCard = isTestCard(request.card, paymentDue);
  const isTest = isTestOrder({ testMode: shopper.testMode, testCart: state.cart.is_test, testCard });
  const status = savedStatus({ expressStart, previous: state.order?.status ?? null });
  return {
    step: nextStep({ expressStart, paymentDue }),
    isTest,
    testCard,
    storeForFuture:
      storesPaymentMethod(state.lines) || keepsCardForUpsells({ upsellsFollow, payment: body.payment }),
    customer: customerOf(state, body, addresses),
    values: orderValues(state, pricing, body, addresses, {
      status,
      isTest,
      termsDisplayed: priced.termsDisplayed,
      ip: shopper.clientIp,
      now,
    }),
    lines: orderLines(state.lines, pricing.result.lines),
  };
}

/** Records the express payment the payer is sent to approve; the provider is called once this commits. */
async function startExpressPayment(
  tx: Queryable,
  deps: OrderDependencies,
  priced: PricedOrder,
  saved: SavedOrder,
  decided: OrderDecision,
  request: OrderRequest,
): Promise<Plan> {
  const { now } = request;
  const { organization, cart } = priced.state;
  const amount = priced.pricing.result.total;
  const publicId = `pt_${newCartToken()}`;
  const expressId = await insertExpressPayment(
    tx,
    organization.id,
    {
      publicId,
      cartId: cart.id,
      orderId: saved.order.id,
      provider: deps.gateways.express.name,
      amount,
      currency: organization.currency,
      isTest: decided.isTest,
      expiresAt: new Date(now.getTime() + EXPRESS_LIFETIME_MS),
    },
    now,
  );
  const order = await setOrderOutcome(
    tx,
    organization.id,
    saved.order.id,
    { status: 'awaiting_payment', expressPaymentId: expressId },
    now,
  );
  return {
    kind: 'express_start',
    organization,
    cartId: cart.id,
    express: { id: expressId, publicId },
    amount,
    returnUrl: expressReturnUrl(deps.publicUrl, {
      cart_token: cart.token,
      public_id: publicId,
      is_test: decided.isTest,
    }),
    storeForFuture: decided.storeForFuture,
    after: { ...saved.cart, order },
  };
}

/** Completes an order with nothing to pay in this transaction, and stores its answer with it. */
async function completeFreeOrder(
  tx: Queryable,
  priced: PricedOrder,
  saved: SavedOrder,
  decided: OrderDecision,
  request: OrderRequest,
): Promise<Plan> {
  const { now } = request;
  const { organization, cart } = priced.state;
  const completed = await completeOrder(tx, organization, saved.order, {
    attempt: attemptValues({
      orderId: saved.order.id,
      cartId: cart.id,
      method: 'none',
      gateway: 'none',
      status: 'approved',
      amount: 0,
      currency: organization.currency,
      isTest: decided.isTest,
      ip: request.shopper.clientIp,
    }),
    paymentMethodId: null,
    giftClaimId: cart.gift_claim_id,
    // The code's use was held as the order was saved (or its retry settled).
    discountReserved: decided.values.discount_code_id !== null,
    now,
  });
  const answer = presentCompletedCart(
    completedCart(saved.cart, completed.order, 'none', now),
    completed.order,
    {
      ...completed,
      profile: priced.pricing.chosenProfile,
    },
  );
  await request.answers.keep(tx, { status: 200, body: answer });
  return { kind: 'completed', organization, cartId: cart.id, answer };
}

/**
 * Takes the payment lease and says what is charged: the abuse limits (when they are kept in this database) count the
 * attempt here, and a refused attempt leaves the order saved without a lease or a code use.
 */
async function prepareCharge(
  tx: Queryable,
  deps: OrderDependencies,
  priced: PricedOrder,
  saved: SavedOrder,
  decided: OrderDecision,
  request: OrderRequest,
  paymentLeaseUntil: Date,
): Promise<Plan> {
  const { now, shopper, body } = request;
  const { organization, cart } = priced.state;
  const orderId = saved.order.id;
  const wantedCode = decided.values.discount_code_id;
  const status = decided.values.status;
  // The attempt counts only if this transaction commits; a refused one is saved as charge() leaves one refused by a
  // store elsewhere (no lease, no code use held).
  if (deps.limits.beforeOrderAttemptInTransaction) {
    try {
      await deps.limits.beforeOrderAttemptInTransaction(tx, {
        organizationId: organization.id,
        cartId: cart.id,
        ip: shopper.clientIp,
      });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (wantedCode !== null) await releaseDiscountUse(tx, organization.id, wantedCode);
      await setOrderOutcome(tx, organization.id, orderId, { status, discountReserved: false }, now);
      return { kind: 'refused', organization, error };
    }
  }
  // A retry takes the lease now (no lease was running, and this transaction holds the order row); a new order was
  // written with it, and has no attempts yet.
  const retry = priced.state.order !== null;
  const order = retry
    ? await setOrderOutcome(
        tx,
        organization.id,
        orderId,
        { status, discountReserved: wantedCode !== null, paymentLeaseUntil },
        now,
      )
    : saved.order;
  const attempt = retry ? (await countPaymentAttempts(tx, organization.id, orderId)) + 1 : 1;
  const base = {
    kind: 'charge' as const,
    organization,
    cartId: cart.id,
    giftClaimId: cart.gift_claim_id,
    orderId,
    customerId: saved.customerId,
    attempt,
    amount: priced.pricing.result.total,
    storeForFuture: decided.storeForFuture,
    isTest: decided.isTest,
    discountCodeId: wantedCode,
    paymentLeaseUntil,
    // A payment method kept for upsells is stored as the order completes, as a subscription's is.
    completesAlone:
      !decided.storeForFuture &&
      completesAlone({
        express: priced.express !== null,
        giftClaim: cart.gift_claim_id !== null,
        lines: decided.lines,
      }),
    saved: { ...saved.cart, order },
    order,
    lines: decided.lines,
    chosenProfile: priced.pricing.chosenProfile,
  };
  if (priced.express) return { ...base, payment: { method: 'paypal', express: priced.express } };
  if (body.payment?.method !== 'card')
    throw new Error('unreachable: a due payment is a card or an express payment here');
  return { ...base, payment: cardToCharge(request.card, priced.authenticated) };
}
