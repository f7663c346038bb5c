// What a refund request may do, how much of a payment is left to refund, and what the refunds make of the order's
// payment: pure, unit tested (refund-decisions.test.ts). docs/api.md, "Refunds".

export interface RefundState {
  id: number;
  amount: number;
  status: 'pending' | 'succeeded' | 'failed';
  idempotency_key_hash: string;
  lease_until: Date | null;
}

/** The payment a refund goes back through: the order's approved attempt with the processor's reference. */
export interface PaidPayment {
  gateway: string;
  reference: string;
  amount: number;
}

export interface AttemptState {
  status: string;
  gateway: string;
  gateway_reference: string | null;
  amount: number;
}

/**
 * The order's payment: its first approved attempt that charged something at a processor. A second payment of a
 * complete order is refunded by the webhook that finds it (docs/payments.md, "Webhooks"), never by this one.
 */
export function paidPayment(attempts: readonly AttemptState[]): PaidPayment | null {
  const paid = attempts.find(
    (attempt) => attempt.status === 'approved' && attempt.gateway_reference !== null && attempt.amount > 0,
  );
  return paid
    ? { gateway: paid.gateway, reference: paid.gateway_reference ?? '', amount: paid.amount }
    : null;
}

/**
 * Refunded so far: our refunds that succeeded, or what the processor reported as refunded in all (its webhooks give
 * the payment's running total, which counts our refunds too), whichever is more: a refund is never counted twice.
 */
export function amountRefunded(
  refunds: readonly Pick<RefundState, 'amount' | 'status'>[],
  reported: number,
): number {
  const ours = refunds.filter((r) => r.status === 'succeeded').reduce((sum, r) => sum + r.amount, 0);
  return Math.max(ours, reported);
}

/** What is left to refund: pending refunds hold their amount until they end, so two at once never exceed the payment. */
export function amountLeft(
  paid: number,
  refunds: readonly Pick<RefundState, 'amount' | 'status'>[],
  reported: number,
): number {
  const held = refunds.filter((r) => r.status !== 'failed').reduce((sum, r) => sum + r.amount, 0);
  return Math.max(0, paid - Math.max(held, reported));
}

export type PaymentStatus = 'paid' | 'partially_refunded' | 'refunded';

/** The order's payment status in the merchant API; null when nothing was paid. */
export function paymentStatus(paid: number | null, refunded: number): PaymentStatus | null {
  if (paid === null || paid <= 0) return null;
  if (refunded >= paid) return 'refunded';
  return refunded > 0 ? 'partially_refunded' : 'paid';
}

export type Refusal = {
  status: 404 | 409 | 422;
  code: string;
  /** the minor units left to refund, for the message that says it */
  left?: number;
  retry?: boolean;
};

export type RefundDecision =
  | { action: 'refuse'; refusal: Refusal }
  /** this Idempotency-Key's refund succeeded already: its answer again */
  | { action: 'answer'; refund: number }
  /** a pending refund whose answer was lost (its lease ran out): ask the processor again with its key */
  | { action: 'resume'; refund: number; own: boolean }
  | { action: 'create'; amount: number; payment: PaidPayment };

/**
 * What a refund request does, under the order's row lock. `requested` is the amount asked for in minor units, or
 * undefined for all that is left.
 */
export function decideRefund(input: {
  order: { status: string } | null;
  payment: PaidPayment | null;
  refunds: readonly RefundState[];
  reported: number;
  keyHash: string;
  requested: number | undefined;
  now: Date;
}): RefundDecision {
  const refuse = (refusal: Refusal): RefundDecision => ({ action: 'refuse', refusal });
  if (input.order === null) return refuse({ status: 404, code: 'order_not_found' });
  if (input.requested !== undefined && input.requested <= 0)
    return refuse({ status: 422, code: 'amount_not_positive' });
  const now = input.now.getTime();
  const leased = (refund: RefundState) => refund.lease_until !== null && refund.lease_until.getTime() > now;

  const own = input.refunds.find((r) => r.idempotency_key_hash === input.keyHash && r.status !== 'failed');
  if (own?.status === 'succeeded') return { action: 'answer', refund: own.id };
  if (own !== undefined) {
    return leased(own)
      ? refuse({ status: 409, code: 'refund_in_progress', retry: true })
      : { action: 'resume', refund: own.id, own: true };
  }
  const pending = input.refunds.find((r) => r.status === 'pending');
  if (pending !== undefined) {
    return leased(pending)
      ? refuse({ status: 409, code: 'refund_in_progress', retry: true })
      : { action: 'resume', refund: pending.id, own: false };
  }

  if (input.order.status !== 'complete') return refuse({ status: 409, code: 'order_not_complete' });
  if (input.payment === null) return refuse({ status: 409, code: 'order_not_paid' });
  const left = amountLeft(input.payment.amount, input.refunds, input.reported);
  if (left === 0) return refuse({ status: 422, code: 'nothing_left_to_refund', left });
  const amount = input.requested ?? left;
  if (amount > left) return refuse({ status: 422, code: 'amount_exceeds_refundable', left });
  return { action: 'create', amount, payment: input.payment };
}

/** The processor's idempotency key of a refund: the same for every retry of the row, another for every row. */
export function processorRefundKey(refund: {
  organization_id: number;
  order_id: number;
  id: number;
}): string {
  return `refund_${refund.organization_id}_${refund.order_id}_${refund.id}`;
}
