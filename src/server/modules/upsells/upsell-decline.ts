// Saying no to a one-click offer (docs/api.md, "Upsells"). A yes the bank asked to authenticate may have gone through
// at the processor while its answer was lost: the shopper passed the challenge, and the accept that would have said
// so never arrived. So a no to a step whose linked order awaits authentication runs as an accept does:
//
//   decide and hold   ONE transaction under the first order's row lock: the step checked, its linked order held with
//                     a payment lease (it stays awaiting payment, so a no sent again after a crash asks again)
//   ask               outside any transaction: the processor says how the waiting payment stands; one that is not
//                     paid is cancelled there, so no later confirmation can charge it
//   record            ONE transaction: paid, the linked order completed once and the step accepted (409
//                     upsell_accepted); not paid, the attempt declined and the step declined
import type { UpsellDecision, UpsellState } from '../../../contract/upsell.js';
import type { Queryable } from '../../platform/db/database.js';
import { AppError, refusal } from '../../platform/errors.js';
import type { ChargeResult } from '../../platform/payments/gateway.js';
import { refusalOutcome, type AnswerKeeper } from '../orders/idempotency.js';
import { lockOrder, setOrderOutcome } from '../orders/orders-repository.js';
import {
  countPaymentAttempts,
  findPaymentAttempts,
  insertPaymentAttempt,
} from '../orders/payment-attempts-repository.js';
import { presentState, type Opened } from './upsell-presenter.js';
import {
  answeredStep,
  boughtBeforeNo,
  chargeStep,
  currentStep,
  expiredError,
  openOrder,
  recordCharge,
  stepAttempt,
  type Charge,
  type UpsellDependencies,
  type UpsellRequest,
} from './upsell-service.js';
import {
  decideUpsellStep,
  findOrderPaymentMethod,
  findUpsellSteps,
  type UpsellStepRow,
} from './upsells-repository.js';

type DeclineRequest = UpsellRequest & { decision: UpsellDecision; answers: AnswerKeeper };

type Held = { answer: UpsellState } | { expired: true } | { refused: AppError } | { ask: Charge };

const inProgress = () =>
  refusal(
    409,
    'payment_in_progress',
    { key: 'errors.upsell_confirming' },
    { headers: { 'retry-after': '2' } },
  );

// Not recorded: recordCharge answers the shopper funnel.no_not_recorded, in their language.
const UNAVAILABLE = 'The processor did not say whether the waiting payment was cancelled.';

/** POST …/upsell/decline: the step ends declined and the downsell or the next step is shown, or none. */
export async function declineUpsell(deps: UpsellDependencies, request: DeclineRequest): Promise<UpsellState> {
  const held = await deps.db.transaction((tx) => holdDecline(tx, deps, request));
  if ('expired' in held) throw expiredError();
  if ('refused' in held) throw held.refused;
  if ('answer' in held) return held.answer;
  const charge = held.ask;
  const result = await askProcessor(deps, charge);
  const recorded = await deps.db.transaction((tx) =>
    result.status === 'approved' || result.status === 'error'
      ? recordCharge(tx, deps, request, charge, result, 'decline')
      : recordDecline(tx, deps, request, charge, result),
  );
  if (recorded instanceof AppError) throw recorded;
  return recorded;
}

async function holdDecline(tx: Queryable, deps: UpsellDependencies, request: DeclineRequest): Promise<Held> {
  const { now, answers } = request;
  const opened = await openOrder(tx, request);
  const { organization, order } = opened;
  const steps = await findUpsellSteps(tx, organization.id, order.id, { lock: true });
  const current = await currentStep(tx, opened, steps, now);
  const row = answeredStep(steps, current, request.decision.step);
  if (row === 'expired') return { expired: true };
  if (row.status === 'accepted') {
    throw refusal(409, 'upsell_accepted', { key: 'errors.upsell_accepted' });
  }
  if (row.status === 'offered') {
    // A yes whose charge may have gone through (its answer lost) must be finished, not turned into a no.
    if (row.linked_order_status === 'pending') throw inProgress();
    if (row.linked_order_status === 'complete') {
      // The processor's webhook completed the authenticated payment (docs/payments.md, "Stripe"): bought, once.
      await decideUpsellStep(tx, organization.id, row.id, 'accepted', now);
      const bought = boughtBeforeNo();
      await answers.keep(tx, refusalOutcome(bought));
      return { refused: bought };
    }
    const ask =
      row.linked_order_status === 'awaiting_payment'
        ? await holdWaiting(tx, deps, request, opened, row)
        : null;
    if (ask) return { ask };
    await decideUpsellStep(tx, organization.id, row.id, 'declined', now);
  }
  const after = await findUpsellSteps(tx, organization.id, order.id);
  const state = await presentState(tx, opened, await currentStep(tx, opened, after, now), now);
  await answers.keep(tx, { status: 200, body: state });
  return { answer: state };
}

/**
 * The payment the step's linked order waits on the bank for, held for this no with a payment lease; null when there
 * is none to ask about (its last attempt ended, or the card's processor is not the one configured now).
 */
async function holdWaiting(
  tx: Queryable,
  deps: UpsellDependencies,
  request: DeclineRequest,
  opened: Opened,
  row: UpsellStepRow,
): Promise<Charge | null> {
  const { now } = request;
  if (row.linked_order_id === null) return null;
  const organizationId = opened.organization.id;
  const linked = await lockOrder(tx, organizationId, row.linked_order_id);
  if (!linked) return null;
  if (linked.payment_lease_until && linked.payment_lease_until > now) throw inProgress();
  const last = (await findPaymentAttempts(tx, organizationId, linked.id)).at(-1);
  if (last?.status !== 'requires_action' || !last.gateway_reference) return null;
  const paidWith = opened.order.payment_method_id;
  const method = paidWith === null ? null : await findOrderPaymentMethod(tx, organizationId, paidWith);
  if (!method || method.gateway !== deps.gateways.card.name || last.gateway !== method.gateway) return null;
  const leaseUntil = new Date(now.getTime() + deps.paymentLeaseMs);
  await setOrderOutcome(
    tx,
    organizationId,
    linked.id,
    { status: 'awaiting_payment', paymentLeaseUntil: leaseUntil },
    now,
  );
  return {
    opened,
    step: row,
    linkedOrderId: linked.id,
    amount: linked.total,
    attempt: await countPaymentAttempts(tx, organizationId, linked.id),
    leaseUntil,
    method,
    authenticated: last.gateway_reference,
  };
}

/**
 * How the waiting payment stands at the processor. Not paid (still waiting, failed or cancelled): cancelled where the
 * processor can, so the shopper's bank cannot confirm it after the no; one that went through first is asked again.
 */
async function askProcessor(deps: UpsellDependencies, charge: Charge): Promise<ChargeResult> {
  const first = await chargeStep(deps, charge);
  if (first.status === 'approved' || first.status === 'error') return first;
  const gateway = deps.gateways.card;
  if (!gateway.cancelPayment || charge.authenticated === null) return first;
  const { organization, order } = charge.opened;
  let cancelled;
  try {
    cancelled = await gateway.cancelPayment({
      reference: charge.authenticated,
      idempotencyKey: `upsell_${organization.id}_${order.id}_step_${charge.step.step}_cancel_${charge.attempt}`,
    });
  } catch {
    cancelled = { status: 'error' } as const;
  }
  if (cancelled.status === 'canceled') return first;
  if (cancelled.status === 'succeeded') {
    const paid = await chargeStep(deps, charge);
    if (paid.status === 'approved') return paid;
  }
  return { status: 'error', message: UNAVAILABLE, retryable: true };
}

/** The no, once the processor says the waiting payment was not made and cannot be: the step declined. */
async function recordDecline(
  tx: Queryable,
  deps: UpsellDependencies,
  request: DeclineRequest,
  charge: Charge,
  result: Exclude<ChargeResult, { status: 'approved' | 'error' }>,
): Promise<UpsellState | AppError> {
  const { opened } = charge;
  const { organization } = opened;
  const { now, answers } = request;
  await lockOrder(tx, organization.id, opened.order.id);
  const linked = await lockOrder(tx, organization.id, charge.linkedOrderId);
  if (!linked) throw new Error(`order ${charge.linkedOrderId} vanished during its payment`);
  // Another request (this one's lease lapsed) recorded the payment meanwhile: its outcome stands.
  if (linked.payment_lease_until?.getTime() !== charge.leaseUntil.getTime()) {
    return linked.status === 'complete' ? boughtBeforeNo() : inProgress();
  }
  const declined =
    result.status === 'declined'
      ? { declineCode: result.code, message: result.message, reference: result.reference }
      : {
          declineCode: 'payment_declined',
          message: 'Cancelled: the shopper said no to the offer before their bank confirmed the payment.',
          reference: result.reference,
        };
  await insertPaymentAttempt(
    tx,
    organization.id,
    stepAttempt(deps, request, charge, linked)('declined', declined),
    now,
  );
  await setOrderOutcome(tx, organization.id, linked.id, { status: 'declined' }, now);
  await decideUpsellStep(tx, organization.id, charge.step.id, 'declined', now);
  const steps = await findUpsellSteps(tx, organization.id, opened.order.id, { lock: true });
  const state = await presentState(tx, opened, await currentStep(tx, opened, steps, now), now);
  await answers.keep(tx, { status: 200, body: state });
  return state;
}
