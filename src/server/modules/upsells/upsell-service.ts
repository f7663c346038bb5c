// One-click upsells after the purchase (docs/api.md, "Upsells"). An accept runs as the order path and refunds do:
//
//   decide and hold   ONE transaction under the first order's row lock: the step checked, its linked order (own cart,
//                     own line, priced as any order) written or taken over with a payment lease
//   charge            outside any transaction: the stored card, off-session, with a key derived from order + step +
//                     attempt, so a retry after a crash between the charge and its record charges once
//   record            ONE transaction: completed through the order completion (receipt, webhook, subscriptions), the
//                     step accepted and the next one shown, the answer kept under the request's Idempotency-Key
import type { UpsellDecision, UpsellState } from '../../../contract/upsell.js';
import type { Database, Queryable } from '../../platform/db/database.js';
import { notFound, refusal, type AppError } from '../../platform/errors.js';
import type { CardSummary, ChargeResult, PaymentGateway } from '../../platform/payments/gateway.js';
import { requireCartState } from '../carts/cart-service.js';
import { refusalOutcome, type AnswerKeeper } from '../orders/idempotency.js';
import { attemptValues, completeOrder } from '../orders/order-completion.js';
import {
  lockOrder,
  releasePaymentLease,
  setOrderOutcome,
  type OrderRow,
} from '../orders/orders-repository.js';
import {
  countPaymentAttempts,
  findAwaitingAuthentication,
  insertPaymentAttempt,
  type PaymentAttemptValues,
} from '../orders/payment-attempts-repository.js';
import type { ShopperContext } from '../organizations/request-context.js';
import { createLinkedOrder, waitingPayment } from './upsell-linked-order.js';
import { presentState, type Opened } from './upsell-presenter.js';
import { findOffers } from '../catalog/offers-repository.js';
import {
  activeUpsell,
  authenticatedChargeMatches,
  firstUpsell,
  isUpsellExpired,
  nextUpsell,
  upsellChargeKey,
  upsellExpiry,
} from './upsell-decisions.js';
import {
  decideUpsellStep,
  findOrderLinkUpsells,
  findOrderPaymentMethod,
  findUpsellSteps,
  insertUpsellStep,
  type StoredMethodRow,
  type UpsellStepRow,
} from './upsells-repository.js';

export interface UpsellDependencies {
  db: Database;
  gateways: { card: PaymentGateway };
  /** how long one charge holds its linked order (PAYMENT_LEASE_SECONDS) */
  paymentLeaseMs: number;
}

export interface UpsellRequest {
  shopper: ShopperContext;
  cartToken: string;
  orderId: number;
  now: Date;
}

export async function openOrder(tx: Queryable, request: UpsellRequest): Promise<Opened> {
  const cart = await requireCartState(tx, request.shopper, request.cartToken, request.now);
  const organization = cart.organization;
  const found = cart.order;
  if (!found || found.id !== request.orderId || found.status !== 'complete') {
    throw notFound('order_not_found', {
      key: 'errors.upsell_order_not_found',
      values: { order: String(request.orderId) },
    });
  }
  // The first order's row lock serializes every answer to its offers (two tabs, a double click).
  const order = (await lockOrder(tx, organization.id, found.id)) ?? found;
  const plan = order.parent_order_id ? [] : await findOrderLinkUpsells(tx, organization.id, cart.cart.id);
  return { organization, cart, order, plan };
}

/** Where the order's offers stand now: the offered step (shown now if it is next), or null when none is left. */
export async function currentStep(
  tx: Queryable,
  opened: Opened,
  steps: UpsellStepRow[],
  now: Date,
): Promise<UpsellStepRow | null> {
  const { organization, order, plan } = opened;
  // Only a card kept for them can be charged again: an express payment's order goes to the confirmation.
  if (order.payment_method_id === null) return null;
  const last = steps.at(-1);
  if (!last) {
    const first = activeUpsell(plan, firstUpsell(plan), await activeOffers(tx, opened));
    if (!first) return null;
    const shown = { order_id: order.id, step: 1, ...first };
    const expiresAt = upsellExpiry(order.completed_at ?? now);
    if (now >= expiresAt) return null;
    return insertUpsellStep(tx, organization.id, { ...shown, expires_at: expiresAt }, now);
  }
  if (last.status === 'offered') {
    if (!isUpsellExpired({ expiresAt: last.expires_at, now, chargeStarted: chargeStarted(last) }))
      return last;
    await decideUpsellStep(tx, organization.id, last.id, 'expired', now);
    return null;
  }
  const next = activeUpsell(plan, nextUpsell(plan, last, last.status), await activeOffers(tx, opened));
  if (!next) return null;
  return insertUpsellStep(
    tx,
    organization.id,
    { order_id: order.id, step: last.step + 1, ...next, expires_at: upsellExpiry(now) },
    now,
  );
}

/** Which of the link's offers are active now. */
async function activeOffers(tx: Queryable, opened: Opened): Promise<(offerId: number) => boolean> {
  const ids = opened.plan.flatMap((step) => [
    step.offer_id,
    ...(step.downsell_offer_id ? [step.downsell_offer_id] : []),
  ]);
  const active = new Set(
    (await findOffers(tx, opened.organization.id, ids))
      .filter((offer) => offer.active)
      .map((offer) => offer.id),
  );
  return (offerId) => active.has(offerId);
}

/** An accept's charge may be in flight or made: its linked order is neither declined nor complete. */
function chargeStarted(step: UpsellStepRow): boolean {
  return step.linked_order_status === 'pending' || step.linked_order_status === 'awaiting_payment';
}

/** GET …/upsell: the offer shown now (shown first by this read), or none, and what upsells bought so far. */
export function readUpsell(deps: UpsellDependencies, request: UpsellRequest): Promise<UpsellState> {
  return deps.db.transaction(async (tx) => {
    const opened = await openOrder(tx, request);
    const steps = await findUpsellSteps(tx, opened.organization.id, opened.order.id, { lock: true });
    return presentState(tx, opened, await currentStep(tx, opened, steps, request.now), request.now);
  });
}

export function expiredError(): AppError {
  return refusal(410, 'upsell_expired', { key: 'errors.upsell_expired' });
}

function stepNotShown(step: number): AppError {
  return notFound('upsell_step_not_found', {
    key: 'errors.upsell_step_not_found',
    values: { step: String(step) },
  });
}

/**
 * The step the request answers, as it stands once the order's offers are brought up to date: a step shown before is
 * answered by its row, the one shown now as current. An offered step that is not current any more ran out just now.
 */
export function answeredStep(
  steps: readonly UpsellStepRow[],
  current: UpsellStepRow | null,
  step: number,
): UpsellStepRow | 'expired' {
  if (current?.step === step) return current;
  const row = steps.find((entry) => entry.step === step);
  if (!row) throw stepNotShown(step);
  return row.status === 'offered' || row.status === 'expired' ? 'expired' : row;
}

type ChargeStep =
  | { answer: UpsellState }
  | { expired: true }
  | {
      charge: {
        opened: Opened;
        step: UpsellStepRow;
        linkedOrderId: number;
        amount: number;
        attempt: number;
        leaseUntil: Date;
        method: StoredMethodRow;
        authenticated: string | null;
        /** a yes sent again while this payment waits for authentication: the processor asked about it first */
        asked?: true;
      };
    };

/** The yes's decide-and-hold step (upsell-accept.ts): the step checked, its linked order held for the charge. */
export async function holdCharge(
  tx: Queryable,
  deps: UpsellDependencies,
  request: UpsellRequest & { decision: UpsellDecision },
): Promise<ChargeStep> {
  const { now, decision } = request;
  const opened = await openOrder(tx, request);
  const { organization, order } = opened;
  const steps = await findUpsellSteps(tx, organization.id, order.id, { lock: true });
  const current = await currentStep(tx, opened, steps, now);
  const row = answeredStep(steps, current, decision.step);
  if (row === 'expired') return { expired: true };
  // A repeat of an accept that went through answers where the offers are now: charged once.
  if (row.status === 'accepted') return { answer: await presentState(tx, opened, current, now) };
  if (row.status === 'declined') {
    throw refusal(409, 'upsell_declined', { key: 'errors.upsell_declined' });
  }
  const method =
    order.payment_method_id === null
      ? null
      : await findOrderPaymentMethod(tx, organization.id, order.payment_method_id);
  if (!method || method.gateway !== deps.gateways.card.name) {
    throw refusal(409, 'upsell_unavailable', { key: 'errors.upsell_unavailable' });
  }
  const leaseUntil = new Date(now.getTime() + deps.paymentLeaseMs);
  let linked =
    row.linked_order_id === null ? null : await lockOrder(tx, organization.id, row.linked_order_id);
  if (linked?.payment_lease_until && linked.payment_lease_until > now) {
    throw refusal(
      409,
      'payment_in_progress',
      { key: 'errors.upsell_in_progress' },
      { headers: { 'retry-after': '2' } },
    );
  }
  let authenticated: string | null = null;
  if (decision.authenticated_payment !== undefined) {
    const waiting =
      linked &&
      (await findAwaitingAuthentication(tx, organization.id, linked.id, decision.authenticated_payment));
    if (!waiting) {
      throw refusal(
        422,
        'validation_error',
        { key: 'errors.upsell_authentication_unknown' },
        { fields: { authenticated_payment: { key: 'errors.upsell_authentication_reference' } } },
      );
    }
    authenticated = decision.authenticated_payment;
  }
  // A yes sent again without the reference (the page lost the challenge) asks about the waiting payment first.
  const asked =
    authenticated === null && linked?.status === 'awaiting_payment'
      ? await waitingPayment(tx, organization.id, linked.id, method)
      : null;
  if (asked !== null) authenticated = asked;
  if (linked?.status === 'complete') {
    // The processor's webhook completed the authenticated payment before the page said so (docs/payments.md,
    // "Stripe"): the accept is done, charged once.
    await decideUpsellStep(tx, organization.id, row.id, 'accepted', now);
    const after = await findUpsellSteps(tx, organization.id, order.id);
    return { answer: await presentState(tx, opened, await currentStep(tx, opened, after, now), now) };
  }
  if (linked) {
    linked = await setOrderOutcome(
      tx,
      organization.id,
      linked.id,
      // Asked about, it stays awaiting payment: a yes sent again after a crash asks again.
      { status: asked === null ? 'pending' : 'awaiting_payment', paymentLeaseUntil: leaseUntil },
      now,
    );
  } else {
    linked = await createLinkedOrder(tx, opened, row, request, leaseUntil);
  }
  // Counted from the recorded attempts: a retry after a crash between the charge and its record reuses the key.
  const attempt = (await countPaymentAttempts(tx, organization.id, linked.id)) + (authenticated ? 0 : 1);
  return {
    charge: {
      opened,
      step: row,
      linkedOrderId: linked.id,
      amount: linked.total,
      attempt,
      leaseUntil,
      method,
      authenticated,
      ...(asked === null ? {} : { asked: true as const }),
    },
  };
}

export type Charge = Extract<ChargeStep, { charge: unknown }>['charge'];

/** The processor's charge of the stored card, outside any transaction; no answer is an error, the key kept. */
export async function chargeStep(deps: UpsellDependencies, charge: Charge): Promise<ChargeResult> {
  const { organization, order } = charge.opened;
  // Nothing to charge (a free offer): approved without asking the processor.
  if (charge.amount === 0 && charge.authenticated === null) {
    return { status: 'approved', reference: '', paymentMethodToken: null };
  }
  try {
    return await deps.gateways.card.charge({
      amount: charge.amount,
      currency: organization.currency,
      source:
        charge.authenticated === null
          ? {
              kind: 'stored',
              token: charge.method.gateway_token,
              customerReference: charge.method.gateway_customer,
              shopperPresent: true,
            }
          : { kind: 'authenticated', reference: charge.authenticated },
      storeForFuture: false,
      idempotencyKey: upsellChargeKey(organization.id, order.id, charge.step.step, charge.attempt),
      description: `Order ${charge.linkedOrderId} (after order ${order.id}) at ${organization.name}`,
      organizationId: organization.id,
      orderId: charge.linkedOrderId,
      attempt: charge.attempt,
    });
  } catch {
    return {
      status: 'error',
      message: 'The payment service did not answer. Send the same request again: it is never charged twice.',
      retryable: true,
    };
  }
}

function summaryOf(method: StoredMethodRow): CardSummary | null {
  if (method.card_last4 === null) return null;
  return {
    brand: (method.card_brand ?? 'visa') as CardSummary['brand'],
    typeId: method.card_type_id ?? 0,
    last4: method.card_last4,
    expMonth: method.card_exp_month ?? 0,
    expYear: method.card_exp_year ?? 0,
  };
}

/** The payment attempt of a step's charge as its linked order records it. */
export function stepAttempt(
  deps: UpsellDependencies,
  request: UpsellRequest,
  charge: Charge,
  linked: OrderRow,
): (
  status: 'approved' | 'declined' | 'requires_action',
  details: Record<string, unknown>,
) => PaymentAttemptValues {
  return (status, details) =>
    attemptValues({
      orderId: linked.id,
      cartId: linked.cart_id,
      method: charge.amount === 0 ? 'none' : 'card',
      gateway: charge.amount === 0 ? 'none' : deps.gateways.card.name,
      status,
      amount: charge.amount,
      currency: charge.opened.organization.currency,
      isTest: linked.is_test,
      ip: request.shopper.clientIp,
      summary: summaryOf(charge.method),
      paymentMethodId: charge.method.id,
      ...details,
    });
}

/**
 * A no that came after the processor took the yes (docs/api.md, "Upsells"): the shopper authenticated the payment,
 * the accept that would have said so was lost. The offer is bought, once.
 */
export function boughtBeforeNo(): AppError {
  return refusal(409, 'upsell_accepted', { key: 'errors.upsell_bought_before_no' });
}

/**
 * Records what the processor answered for a step's charge. `for: 'decline'` is a no that asked about the payment
 * waiting for authentication first (upsell-decline.ts): paid, it completes the linked order as the accept would have,
 * and answers 409 upsell_accepted.
 */
export async function recordCharge(
  tx: Queryable,
  deps: UpsellDependencies,
  request: UpsellRequest & { answers: AnswerKeeper },
  charge: Charge,
  result: ChargeResult,
  answering: 'accept' | 'decline' = 'accept',
): Promise<UpsellState | AppError> {
  const { opened, method } = charge;
  const { organization } = opened;
  const { now, answers } = request;
  await lockOrder(tx, organization.id, opened.order.id);
  const linked = await lockOrder(tx, organization.id, charge.linkedOrderId);
  if (!linked) throw new Error(`order ${charge.linkedOrderId} vanished during its payment`);
  const afterwards = async () => {
    const steps = await findUpsellSteps(tx, organization.id, opened.order.id, { lock: true });
    return presentState(tx, opened, await currentStep(tx, opened, steps, now), now);
  };
  // Another request (this one's lease lapsed) recorded this charge meanwhile: its outcome stands.
  if (linked.payment_lease_until?.getTime() !== charge.leaseUntil.getTime()) {
    if (linked.status === 'complete') return answering === 'decline' ? boughtBeforeNo() : afterwards();
    return refusal(
      409,
      'payment_in_progress',
      { key: 'errors.upsell_processing' },
      { headers: { 'retry-after': '2' } },
    );
  }
  const attempt = stepAttempt(deps, request, charge, linked);
  if (
    result.status === 'approved' &&
    charge.authenticated !== null &&
    !authenticatedChargeMatches(result.charged, { amount: charge.amount, currency: organization.currency })
  ) {
    // Not the payment this step asked for: nothing is completed with it, and the merchant sees the attempt.
    await insertPaymentAttempt(
      tx,
      organization.id,
      attempt('declined', {
        declineCode: 'payment_declined',
        message: 'The authenticated payment is not for this offer’s amount.',
        reference: result.reference,
      }),
      now,
    );
    await setOrderOutcome(tx, organization.id, linked.id, { status: 'awaiting_payment' }, now);
    return refusal(409, 'payment_mismatch', { key: 'errors.upsell_payment_mismatch' });
  }
  if (result.status === 'approved') {
    await completeOrder(tx, organization, linked, {
      attempt: attempt('approved', { reference: result.reference || null }),
      paymentMethodId: method.id,
      giftClaimId: null,
      now,
    });
    await decideUpsellStep(tx, organization.id, charge.step.id, 'accepted', now);
    if (answering === 'decline') {
      const bought = boughtBeforeNo();
      await answers.keep(tx, refusalOutcome(bought));
      return bought;
    }
    const state = await afterwards();
    await answers.keep(tx, { status: 200, body: state });
    return state;
  }
  if (result.status === 'error') {
    // Nothing recorded: the retry asks the processor again with the same key, which never charges twice.
    await releasePaymentLease(tx, organization.id, linked.id);
    return refusal(
      503,
      'payment_unavailable',
      { key: answering === 'decline' ? 'funnel.no_not_recorded' : 'funnel.charge_unavailable' },
      { headers: { 'retry-after': '2' } },
    );
  }
  if (result.status === 'requires_action') {
    await insertPaymentAttempt(
      tx,
      organization.id,
      attempt('requires_action', { reference: result.reference }),
      now,
    );
    await setOrderOutcome(tx, organization.id, linked.id, { status: 'awaiting_payment' }, now);
    const state: UpsellState = {
      ...(await afterwards()),
      action: { type: 'authenticate', reference: result.reference, payment_action: result.action },
    };
    await answers.keep(tx, { status: 200, body: state });
    return state;
  }
  await insertPaymentAttempt(
    tx,
    organization.id,
    attempt('declined', { declineCode: result.code, message: result.message, reference: result.reference }),
    now,
  );
  await setOrderOutcome(tx, organization.id, linked.id, { status: 'declined' }, now);
  // The processor's words stay in the attempt; the shopper reads the code's, in their language.
  const error = refusal(402, result.code, { key: 'funnel.charge_declined', values: { reason: result.code } });
  await answers.keep(tx, refusalOutcome(error));
  return error;
}
