// A yes sent again without `authenticated_payment` while the step's earlier charge waits for the bank's
// authentication (docs/api.md, "Upsells"): the page lost the challenge (a reload) and the shopper says yes again. The
// processor is asked about the waiting payment before any new charge, so a challenge the shopper passed is charged
// once:
//
//   paid          the linked order completed once (upsell-service.ts recordCharge), the accepted answer
//   still waiting the same challenge answered again, nothing recorded (no new attempt, no new payment)
//   not paid      its attempt recorded declined, then a new attempt charged as any yes
import type { UpsellState } from '../../../contract/upsell.js';
import type { Queryable } from '../../platform/db/database.js';
import { AppError } from '../../platform/errors.js';
import type { ChargeResult } from '../../platform/payments/gateway.js';
import type { AnswerKeeper } from '../orders/idempotency.js';
import { lockOrder, setOrderOutcome } from '../orders/orders-repository.js';
import { findPaymentAttempts, insertPaymentAttempt } from '../orders/payment-attempts-repository.js';
import { presentState } from './upsell-presenter.js';
import {
  currentStep,
  stepAttempt,
  type Charge,
  type UpsellDependencies,
  type UpsellRequest,
} from './upsell-service.js';
import { findUpsellSteps, type StoredMethodRow } from './upsells-repository.js';

/**
 * The processor's reference of the payment a step's linked order waits on the bank for, or null when there is none to
 * ask about (its last attempt ended, or it was made with another processor than the card's).
 */
export async function waitingPayment(
  tx: Queryable,
  organizationId: number,
  linkedOrderId: number,
  method: StoredMethodRow,
): Promise<string | null> {
  const last = (await findPaymentAttempts(tx, organizationId, linkedOrderId)).at(-1);
  if (last?.status !== 'requires_action' || !last.gateway_reference) return null;
  return last.gateway === method.gateway ? last.gateway_reference : null;
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
    return new AppError(409, 'payment_in_progress', 'Your yes to this offer is being processed. Try again.', {
      headers: { 'retry-after': '2' },
    });
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
