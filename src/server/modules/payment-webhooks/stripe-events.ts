// What a Stripe event means for us, and what to do about a payment Stripe says succeeded: pure, unit tested.

/** The parts of a Stripe event we act on (docs/payments.md, "Stripe": the events docs/operations.md selects). */
export type StripeEventFacts =
  | {
      kind: 'payment_succeeded' | 'payment_failed';
      reference: string;
      amount: number;
      currency: string;
      /** our organization and order, from the PaymentIntent's metadata (stripe-gateway.ts writes them) */
      organizationId: number | null;
      orderId: number | null;
      failure: { code: string | null; decline_code: string | null } | null;
    }
  | {
      kind: 'refund';
      reference: string;
      /** the payment's total refunded so far */
      amount: number;
      currency: string;
      fully: boolean;
      /** the ids of the charge's refunds (re_…), when the event lists them: ours are recorded already */
      refundIds: string[];
      organizationId: number | null;
      orderId: number | null;
    }
  | {
      /** one refund changed (refund.updated): ours, made through the merchant API, is matched by its id */
      kind: 'refund_updated';
      reference: string;
      refundId: string;
      amount: number;
      currency: string;
      status: string;
      failureReason: string | null;
    }
  | {
      kind: 'dispute';
      reference: string;
      amount: number;
      currency: string;
      status: string;
      reason: string | null;
    };

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const count = (value: unknown): number | null =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
const idOf = (value: unknown): string | null => text(value) ?? (isObject(value) ? text(value.id) : null);

/** The ids of a list object's items (a charge's `refunds`), or none when it is absent or not a list. */
function listedIds(list: unknown): string[] {
  if (!isObject(list) || !Array.isArray(list.data)) return [];
  return list.data.map(idOf).filter((id): id is string => id !== null);
}

/** A metadata id we wrote ourselves: digits only, else null. */
function metadataId(metadata: unknown, name: string): number | null {
  const value = isObject(metadata) ? text(metadata[name]) : null;
  return value !== null && /^[1-9]\d{0,15}$/.test(value) ? Number(value) : null;
}

/**
 * The facts of an event we handle, or null for an event we ignore (another type, or one missing what we need).
 * Reads only ids, amounts, statuses and codes: never a message or a card field.
 */
export function readStripeEvent(event: { type: string; data: { object: unknown } }): StripeEventFacts | null {
  const object = event.data.object;
  if (!isObject(object)) return null;
  const currency = text(object.currency)?.toUpperCase() ?? null;
  switch (event.type) {
    case 'payment_intent.succeeded':
    case 'payment_intent.payment_failed': {
      const reference = text(object.id);
      const amount = count(object.amount);
      if (reference === null || amount === null || currency === null) return null;
      const error = isObject(object.last_payment_error) ? object.last_payment_error : null;
      return {
        kind: event.type === 'payment_intent.succeeded' ? 'payment_succeeded' : 'payment_failed',
        reference,
        amount,
        currency,
        organizationId: metadataId(object.metadata, 'organization_id'),
        orderId: metadataId(object.metadata, 'order_id'),
        failure: error ? { code: text(error.code), decline_code: text(error.decline_code) } : null,
      };
    }
    case 'charge.refunded': {
      const reference = idOf(object.payment_intent);
      const amount = count(object.amount_refunded);
      if (reference === null || amount === null || currency === null) return null;
      return {
        kind: 'refund',
        reference,
        amount,
        currency,
        fully: object.refunded === true,
        refundIds: listedIds(object.refunds),
        organizationId: metadataId(object.metadata, 'organization_id'),
        orderId: metadataId(object.metadata, 'order_id'),
      };
    }
    case 'refund.updated': {
      const reference = idOf(object.payment_intent);
      const refundId = text(object.id);
      const amount = count(object.amount);
      const status = text(object.status);
      if (reference === null || refundId === null || amount === null || currency === null || status === null)
        return null;
      return {
        kind: 'refund_updated',
        reference,
        refundId,
        amount,
        currency,
        status,
        failureReason: text(object.failure_reason),
      };
    }
    case 'charge.dispute.created':
    case 'charge.dispute.closed': {
      const reference = idOf(object.payment_intent);
      const amount = count(object.amount);
      const status = text(object.status);
      if (reference === null || amount === null || currency === null || status === null) return null;
      return { kind: 'dispute', reference, amount, currency, status, reason: text(object.reason) };
    }
    default:
      return null;
  }
}

export interface OrderForPayment {
  status: 'pending' | 'declined' | 'awaiting_payment' | 'complete';
  total: number;
  currency: string;
  payment_lease_until: Date | null;
}

export interface AttemptForPayment {
  status: string;
  gateway: string;
  gateway_reference: string | null;
}

export type SucceededDecision =
  /** the order path recorded this payment already */
  | { action: 'none' }
  /** an attempt of the order path is being charged or recorded right now: ask Stripe to deliver the event later */
  | { action: 'wait' }
  /** the payment whose answer we did not hear: it completes the order */
  | { action: 'complete' }
  /**
   * paid twice, paid an amount the order does not owe, or paid for a one-click offer the shopper said no to (its
   * linked order, docs/api.md "Upsells"): recorded and refunded
   */
  | { action: 'refund'; why: 'paid_twice' | 'amount_differs' | 'upsell_declined' };

/**
 * What a succeeded PaymentIntent does to its order (docs/payments.md, "One path through the code", step 6). An order
 * holding a payment lease is left to the attempt that holds it, which records its own answer; the event comes again.
 */
export function decideSucceededPayment(input: {
  gateway: string;
  reference: string;
  amount: number;
  currency: string;
  order: OrderForPayment;
  attempts: readonly AttemptForPayment[];
  /** the order is an upsell's linked order whose step the shopper declined: nothing may complete it */
  upsellDeclined?: boolean;
  now: Date;
}): SucceededDecision {
  if (hasApprovedAttempt(input.gateway, input.reference, input.attempts)) return { action: 'none' };
  const { order } = input;
  if (order.status === 'complete') return { action: 'refund', why: 'paid_twice' };
  if (order.payment_lease_until !== null && order.payment_lease_until.getTime() > input.now.getTime()) {
    return { action: 'wait' };
  }
  if (input.upsellDeclined === true) return { action: 'refund', why: 'upsell_declined' };
  if (input.amount !== order.total || input.currency !== order.currency.toUpperCase()) {
    return { action: 'refund', why: 'amount_differs' };
  }
  return { action: 'complete' };
}

/** Whether an approved attempt recorded this payment (the order path heard Stripe's answer, or a webhook did). */
export function hasApprovedAttempt(
  gateway: string,
  reference: string,
  attempts: readonly AttemptForPayment[],
): boolean {
  return attempts.some(
    (attempt) =>
      attempt.status === 'approved' && attempt.gateway === gateway && attempt.gateway_reference === reference,
  );
}

/**
 * Whether no attempt of the order ended (approved or declined) with this payment: a payment the webhook records is
 * recorded once, whichever of the order path and the webhook comes first.
 */
export function hasNoFinalAttempt(
  gateway: string,
  reference: string,
  attempts: readonly AttemptForPayment[],
): boolean {
  return !attempts.some(
    (attempt) =>
      attempt.gateway === gateway &&
      attempt.gateway_reference === reference &&
      (attempt.status === 'approved' || attempt.status === 'declined'),
  );
}
