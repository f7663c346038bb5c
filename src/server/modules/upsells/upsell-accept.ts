// Saying yes to a one-click offer (docs/api.md, "Upsells"): decide and hold, charge, record (upsell-service.ts).
// A yes sent again without `authenticated_payment` while the step's earlier charge waits for the bank's
// authentication (docs/api.md, "Upsells"): the page lost the challenge (a reload) and the shopper says yes again. The
// processor is asked about the waiting payment before any new charge, so a challenge the shopper passed is charged
// once:
//
//   paid          the linked order completed once (upsell-service.ts recordCharge), the accepted answer
//   still waiting the same challenge answered again, nothing recorded (no new attempt, no new payment)
//   not paid      its attempt recorded declined, then a new attempt charged as any yes
import type { UpsellDecision, UpsellState } from '../../../contract/upsell.js';
import type { Queryable } from '../../platform/db/database.js';
import { AppError, refusal } from '../../platform/errors.js';
import type { ChargeResult } from '../../platform/payments/gateway.js';
import type { AnswerKeeper } from '../orders/idempotency.js';
import { lockOrder, setOrderOutcome } from '../orders/orders-repository.js';
import { insertPaymentAttempt } from '../orders/payment-attempts-repository.js';
import { presentState } from './upsell-presenter.js';
import {
  chargeStep,
  currentStep,
  expiredError,
  holdCharge,
  recordCharge,
  stepAttempt,
  type Charge,
  type UpsellDependencies,
  type UpsellRequest,
} from './upsell-service.js';
import { findUpsellSteps } from './upsells-repository.js';

/**
 * POST …/upsell/accept: charges the order's stored card for exactly the step's offer, once, and completes its linked
 * order; answers the next step or none. A decline is a 402 (the step stays offered: the shopper may say no), the
 * bank's wish to authenticate an answer with an action the page shows before sending the accept again.
 */
export async function acceptUpsell(
  deps: UpsellDependencies,
  request: UpsellRequest & { decision: UpsellDecision; answers: AnswerKeeper },
): Promise<UpsellState> {
  const decided = await deps.db.transaction((tx) => holdCharge(tx, deps, request));
  if ('expired' in decided) throw expiredError();
  if ('answer' in decided) return decided.answer;
  const { charge } = decided;
  const result = await chargeStep(deps, charge);
  if (charge.asked && (result.status === 'requires_action' || result.status === 'declined')) {
    const asked = await deps.db.transaction((tx) => recordAsked(tx, deps, request, charge, result));
    if (asked instanceof AppError) throw asked;
    // The earlier payment was not made and cannot be: a new attempt, as any yes.
    return asked ?? acceptUpsell(deps, request);
  }
  const recorded = await deps.db.transaction((tx) => recordCharge(tx, deps, request, charge, result));
  if (recorded instanceof AppError) throw recorded;
  return recorded;
}

/**
 * Records the processor's answer about the waiting payment when it is not paid: still waiting, the accept's answer
 * with the same challenge; failed or cancelled, its attempt declined and null, for the accept to charge anew.
 */
export async function recordAsked(
  tx: Queryable,
  deps: UpsellDependencies,
  request: UpsellRequest & { answers: AnswerKeeper },
  charge: Charge,
  result: Extract<ChargeResult, { status: 'requires_action' | 'declined' }>,
): Promise<UpsellState | AppError | null> {
  const { opened } = charge;
  const { organization } = opened;
  const { now, answers } = request;
  await lockOrder(tx, organization.id, opened.order.id);
  const linked = await lockOrder(tx, organization.id, charge.linkedOrderId);
  if (!linked) throw new Error(`order ${charge.linkedOrderId} vanished during its payment`);
  // Another request (this one's lease lapsed) recorded the payment meanwhile: the accept is sent again.
  if (linked.payment_lease_until?.getTime() !== charge.leaseUntil.getTime()) {
    return refusal(
      409,
      'payment_in_progress',
      { key: 'errors.upsell_processing' },
      { headers: { 'retry-after': '2' } },
    );
  }
  if (result.status === 'requires_action') {
    await setOrderOutcome(tx, organization.id, linked.id, { status: 'awaiting_payment' }, now);
    const steps = await findUpsellSteps(tx, organization.id, opened.order.id, { lock: true });
    const state: UpsellState = {
      ...(await presentState(tx, opened, await currentStep(tx, opened, steps, now), now)),
      action: { type: 'authenticate', reference: result.reference, payment_action: result.action },
    };
    await answers.keep(tx, { status: 200, body: state });
    return state;
  }
  await insertPaymentAttempt(
    tx,
    organization.id,
    stepAttempt(
      deps,
      request,
      charge,
      linked,
    )('declined', { declineCode: result.code, message: result.message, reference: result.reference }),
    now,
  );
  await setOrderOutcome(tx, organization.id, linked.id, { status: 'declined' }, now);
  return null;
}
