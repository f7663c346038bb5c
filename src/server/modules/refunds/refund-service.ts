// Refunding an order's payment through the processor that charged it (docs/api.md, "Refunds"):
//
//   decide and record    ONE transaction under the order's row lock: refuse, or insert the refund pending with a
//                        lease (or take over a pending one whose answer was lost)
//   ask the processor    outside any transaction, with the key derived from the refund's row
//   finish               ONE transaction: succeeded or failed as the processor said, refundRecorded, the answer kept
//                        under the request's Idempotency-Key
import type { Refund } from '../../../contract/refund.js';
import { currencyDigits, toMajor, type Minor } from '../../../domain/money.js';
import type { Clock } from '../../platform/clock.js';
import type { Database, Queryable } from '../../platform/db/database.js';
import { AppError } from '../../platform/errors.js';
import type { PaymentGateway } from '../../platform/payments/gateway.js';
import type { PaymentGateways } from '../../platform/payments/select-gateway.js';
import { iso, major } from '../../platform/http/money-input.js';
import type { AnswerKeeper, Outcome } from '../orders/idempotency.js';
import { lockOrder } from '../orders/orders-repository.js';
import { findPaymentAttempts } from '../orders/payment-attempts-repository.js';
import { findReportedRefundTotal } from '../payment-webhooks/payment-events-repository.js';
import { decideRefund, paidPayment, processorRefundKey, type Refusal } from './refund-decisions.js';
import { refundRecorded } from './refund-recorded.js';
import {
  findRefund,
  findRefunds,
  finishRefund,
  insertPendingRefund,
  leaseRefund,
  type RefundRow,
} from './refunds-repository.js';

export interface RefundDependencies {
  db: Database;
  clock: Clock;
  gateways: PaymentGateways;
  /** how long a refund holds its row while the processor answers (PAYMENT_LEASE_SECONDS) */
  leaseMs: number;
}

export function presentRefund(row: RefundRow): Refund {
  return {
    id: row.id,
    order_id: row.order_id,
    gateway: row.gateway,
    amount: major(row.amount, row.currency),
    currency: row.currency,
    reason: row.reason,
    status: row.status,
    processor_reference: row.processor_reference,
    error: row.error,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

function money(amount: number, currency: string): string {
  return `${toMajor(amount as Minor, currency).toFixed(currencyDigits(currency))} ${currency}`;
}

function refusalError(refusal: Refusal, orderId: number, currency: string): AppError {
  const left = money(refusal.left ?? 0, currency);
  const messages: Record<string, string> = {
    order_not_found: `There is no order ${orderId}.`,
    amount_not_positive: 'The amount to refund must be more than 0. Leave it out to refund all that is left.',
    refund_in_progress: `A refund of order ${orderId} is in progress. Try again in a moment.`,
    order_not_complete: `Order ${orderId} is not complete: only a paid order can be refunded.`,
    order_not_paid: `Order ${orderId} was not paid through a processor, so there is nothing to refund.`,
    nothing_left_to_refund: `Order ${orderId} is refunded in full: ${left} is left to refund.`,
    amount_exceeds_refundable: `The amount is more than what is left to refund: ${left} is left on order ${orderId}.`,
  };
  const message = messages[refusal.code] ?? 'The refund was refused.';
  const fields =
    refusal.status === 422 && refusal.code !== 'nothing_left_to_refund' ? { amount: message } : undefined;
  return new AppError(refusal.status, refusal.code, message, {
    ...(fields ? { fields } : {}),
    ...(refusal.retry ? { headers: { 'retry-after': '1' } } : {}),
  });
}

/** The configured gateway that charged the payment, or null when that processor is no longer configured. */
function gatewayNamed(gateways: PaymentGateways, name: string): PaymentGateway | null {
  return [gateways.card, gateways.express].find((gateway) => gateway.name === name) ?? null;
}

type Step = { answer: RefundRow } | { ask: RefundRow; own: boolean };

/**
 * Refunds `requested` minor units of the order's payment (undefined: all that is left), once per Idempotency-Key.
 * A pending refund of another request whose answer was lost is settled first, with its own processor key.
 */
export async function refundOrder(
  deps: RefundDependencies,
  input: {
    organizationId: number;
    orderId: number;
    requested: number | undefined;
    reason: string | null;
    keyHash: string;
    answers: AnswerKeeper;
  },
): Promise<Outcome<Refund>> {
  // Each round settles one refund another request left pending; a few are plenty (one is pending at a time).
  for (let round = 0; round < 5; round += 1) {
    const now = deps.clock.now();
    const leaseUntil = new Date(now.getTime() + deps.leaseMs);
    const step = await deps.db.transaction(async (tx): Promise<Step> => {
      const order = await lockOrder(tx, input.organizationId, input.orderId);
      const [refunds, attempts] = await Promise.all([
        findRefunds(tx, input.organizationId, input.orderId),
        findPaymentAttempts(tx, input.organizationId, input.orderId),
      ]);
      const payment = paidPayment(attempts);
      const reported =
        payment === null
          ? 0
          : await findReportedRefundTotal(tx, input.organizationId, input.orderId, payment.reference);
      const decision = decideRefund({
        order,
        payment,
        refunds,
        reported,
        keyHash: input.keyHash,
        requested: input.requested,
        now,
      });
      switch (decision.action) {
        case 'refuse':
          throw refusalError(decision.refusal, input.orderId, order?.currency ?? 'USD');
        case 'answer': {
          const row = refunds.find((refund) => refund.id === decision.refund);
          if (!row) throw new Error(`refund ${decision.refund} vanished`);
          return { answer: row };
        }
        case 'resume':
          return {
            ask: await leaseRefund(tx, input.organizationId, decision.refund, leaseUntil, now),
            own: decision.own,
          };
        case 'create':
          return {
            ask: await insertPendingRefund(
              tx,
              {
                organization_id: input.organizationId,
                order_id: input.orderId,
                gateway: decision.payment.gateway,
                payment_reference: decision.payment.reference,
                amount: decision.amount,
                currency: order?.currency ?? '',
                reason: input.reason,
                idempotency_key_hash: input.keyHash,
                lease_until: leaseUntil,
              },
              now,
            ),
            own: true,
          };
      }
    });
    if ('answer' in step) return { status: 201, body: presentRefund(step.answer) };
    const ended = await askProcessor(deps, step.ask, step.own ? input.answers : null);
    if (step.own) {
      if (ended.status === 'succeeded') return { status: 201, body: presentRefund(ended) };
      throw ended.status === 'failed'
        ? new AppError(
            502,
            'refund_failed',
            `The processor did not make the refund: ${ended.error ?? 'no reason given'} Nothing was refunded; ` +
              'you may try again.',
          )
        : lostAnswer();
    }
    if (ended.status === 'pending') throw lostAnswer();
  }
  throw lostAnswer();
}

function lostAnswer(): AppError {
  return new AppError(
    503,
    'refund_unconfirmed',
    'The processor did not answer, so the refund may or may not be made. Send the same request again with the ' +
      'same Idempotency-Key: it asks the processor again without refunding twice.',
    { headers: { 'retry-after': '1' } },
  );
}

/** Asks the processor for a refund the request holds, and records its answer. */
async function askProcessor(
  deps: RefundDependencies,
  refund: RefundRow,
  answers: AnswerKeeper | null,
): Promise<RefundRow> {
  const gateway = gatewayNamed(deps.gateways, refund.gateway);
  const result = gateway
    ? await gateway.refund({
        reference: refund.payment_reference,
        amount: refund.amount,
        currency: refund.currency,
        idempotencyKey: processorRefundKey(refund),
      })
    : {
        status: 'error' as const,
        message: `The processor that charged this payment (${refund.gateway}) is not configured here.`,
      };
  const outcome =
    result.status === 'refunded'
      ? { status: 'succeeded' as const, processorReference: result.reference, error: null }
      : {
          status: result.retryable ? ('pending' as const) : ('failed' as const),
          processorReference: null,
          error: result.message,
        };
  const held = {
    organizationId: refund.organization_id,
    id: refund.id,
    leaseUntil: refund.lease_until ?? new Date(0),
  };
  return deps.db.transaction(async (tx) => {
    // The order's lock first, as every refund of the order takes it: the webhook's updates wait for this one.
    await lockOrder(tx, refund.organization_id, refund.order_id);
    const ended = await finishRefund(tx, held, outcome, deps.clock.now());
    if (ended === null) {
      // Another request took the refund over meanwhile: its answer is the one that counts.
      return (await findRefund(tx, refund.organization_id, refund.id)) ?? refund;
    }
    if (ended.status !== 'pending') await refundRecorded(tx, ended);
    if (ended.status === 'succeeded' && answers) await keepAnswer(tx, answers, ended);
    return ended;
  });
}

async function keepAnswer(tx: Queryable, answers: AnswerKeeper, refund: RefundRow): Promise<void> {
  await answers.keep(tx, { status: 201, body: presentRefund(refund) });
}
