import { describe, expect, it } from 'vitest';
import {
  decideSucceededPayment,
  hasApprovedAttempt,
  hasNoFinalAttempt,
  readStripeEvent,
} from './stripe-events.js';

const intent = {
  id: 'pi_3QvS0a2eZvKYlo2C1xPaid',
  object: 'payment_intent',
  amount: 5498,
  currency: 'usd',
  metadata: { organization_id: '1', order_id: '31', attempt: '1' },
  last_payment_error: null,
};

describe('readStripeEvent', () => {
  it('reads a PaymentIntent event: reference, amount, currency and our order from its metadata', () => {
    expect(readStripeEvent({ type: 'payment_intent.succeeded', data: { object: intent } })).toEqual({
      kind: 'payment_succeeded',
      reference: intent.id,
      amount: 5498,
      currency: 'USD',
      organizationId: 1,
      orderId: 31,
      failure: null,
    });
  });

  it('reads the failure code of a failed payment, and no order from metadata it did not write', () => {
    const failed = {
      ...intent,
      metadata: { order_id: '31; DROP TABLE orders' },
      last_payment_error: {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'insufficient_funds',
        message: 'x',
      },
    };
    expect(
      readStripeEvent({ type: 'payment_intent.payment_failed', data: { object: failed } }),
    ).toMatchObject({
      kind: 'payment_failed',
      organizationId: null,
      orderId: null,
      failure: { code: 'card_declined', decline_code: 'insufficient_funds' },
    });
  });

  it('reads a refunded charge as the total refunded so far, and whether it is all of it', () => {
    const charge = {
      id: 'ch_1',
      object: 'charge',
      amount: 5498,
      amount_refunded: 1500,
      refunded: false,
      currency: 'usd',
      payment_intent: intent.id,
      metadata: {},
    };
    expect(readStripeEvent({ type: 'charge.refunded', data: { object: charge } })).toEqual({
      kind: 'refund',
      reference: intent.id,
      amount: 1500,
      currency: 'USD',
      fully: false,
      refundIds: [],
      organizationId: null,
      orderId: null,
    });
  });

  it("reads the ids of a refunded charge's refunds when the event lists them", () => {
    const charge = {
      id: 'ch_1',
      amount_refunded: 3000,
      refunded: false,
      currency: 'usd',
      payment_intent: intent.id,
      refunds: { object: 'list', data: [{ id: 're_1', object: 'refund' }, { id: 're_2' }, { amount: 1 }] },
    };
    expect(readStripeEvent({ type: 'charge.refunded', data: { object: charge } })).toMatchObject({
      kind: 'refund',
      amount: 3000,
      refundIds: ['re_1', 're_2'],
    });
  });

  it('reads an updated refund by its id, with its status and failure reason', () => {
    const refund = {
      id: 're_3QvS0a2eZvKYlo2C1PartRf',
      object: 'refund',
      amount: 1500,
      currency: 'usd',
      payment_intent: intent.id,
      status: 'failed',
      failure_reason: 'expired_or_canceled_card',
    };
    expect(readStripeEvent({ type: 'refund.updated', data: { object: refund } })).toEqual({
      kind: 'refund_updated',
      reference: intent.id,
      refundId: 're_3QvS0a2eZvKYlo2C1PartRf',
      amount: 1500,
      currency: 'USD',
      status: 'failed',
      failureReason: 'expired_or_canceled_card',
    });
    expect(readStripeEvent({ type: 'refund.updated', data: { object: { ...refund, id: 7 } } })).toBeNull();
  });

  it('reads a dispute with its status and reason', () => {
    const dispute = {
      id: 'du_1',
      object: 'dispute',
      amount: 5498,
      currency: 'usd',
      charge: 'ch_1',
      payment_intent: intent.id,
      reason: 'fraudulent',
      status: 'needs_response',
    };
    expect(readStripeEvent({ type: 'charge.dispute.created', data: { object: dispute } })).toEqual({
      kind: 'dispute',
      reference: intent.id,
      amount: 5498,
      currency: 'USD',
      status: 'needs_response',
      reason: 'fraudulent',
    });
  });

  it('ignores other events and events without what it needs', () => {
    expect(readStripeEvent({ type: 'customer.created', data: { object: { id: 'cus_1' } } })).toBeNull();
    expect(
      readStripeEvent({ type: 'payment_intent.succeeded', data: { object: { id: 'pi_1' } } }),
    ).toBeNull();
    expect(readStripeEvent({ type: 'charge.refunded', data: { object: null } })).toBeNull();
  });
});

describe('decideSucceededPayment', () => {
  const now = new Date('2026-11-26T10:00:00Z');
  const open = { status: 'declined' as const, total: 5498, currency: 'USD', payment_lease_until: null };
  const input = { gateway: 'stripe', reference: intent.id, amount: 5498, currency: 'USD', now };

  it('does nothing when an approved attempt recorded this payment already', () => {
    const attempts = [{ status: 'approved', gateway: 'stripe', gateway_reference: intent.id }];
    expect(decideSucceededPayment({ ...input, order: { ...open, status: 'complete' }, attempts })).toEqual({
      action: 'none',
    });
  });

  it('completes an open order whose payment answer was lost, or was waiting for authentication', () => {
    expect(decideSucceededPayment({ ...input, order: open, attempts: [] })).toEqual({ action: 'complete' });
    const waiting = [{ status: 'requires_action', gateway: 'stripe', gateway_reference: intent.id }];
    expect(
      decideSucceededPayment({ ...input, order: { ...open, status: 'awaiting_payment' }, attempts: waiting }),
    ).toEqual({ action: 'complete' });
  });

  it('refunds a payment of an order another payment completed', () => {
    const attempts = [{ status: 'approved', gateway: 'stripe', gateway_reference: 'pi_other' }];
    expect(decideSucceededPayment({ ...input, order: { ...open, status: 'complete' }, attempts })).toEqual({
      action: 'refund',
      why: 'paid_twice',
    });
  });

  it('refunds a payment of an amount or currency the order does not owe', () => {
    expect(decideSucceededPayment({ ...input, amount: 4000, order: open, attempts: [] })).toEqual({
      action: 'refund',
      why: 'amount_differs',
    });
    expect(decideSucceededPayment({ ...input, currency: 'EUR', order: open, attempts: [] })).toEqual({
      action: 'refund',
      why: 'amount_differs',
    });
  });

  it('refunds a payment of an upsell the shopper said no to, whatever its amount', () => {
    const declined = { ...open, status: 'declined' as const };
    expect(decideSucceededPayment({ ...input, order: declined, attempts: [], upsellDeclined: true })).toEqual(
      {
        action: 'refund',
        why: 'upsell_declined',
      },
    );
    expect(
      decideSucceededPayment({ ...input, order: declined, attempts: [], upsellDeclined: false }),
    ).toEqual({
      action: 'complete',
    });
  });

  it('waits while an attempt holds the payment lease, and not once it ran out', () => {
    const leased = {
      ...open,
      status: 'pending' as const,
      payment_lease_until: new Date(now.getTime() + 1000),
    };
    expect(decideSucceededPayment({ ...input, order: leased, attempts: [] })).toEqual({ action: 'wait' });
    const expired = { ...leased, payment_lease_until: new Date(now.getTime() - 1) };
    expect(decideSucceededPayment({ ...input, order: expired, attempts: [] })).toEqual({
      action: 'complete',
    });
  });
});

describe('hasNoFinalAttempt', () => {
  it('is false once an attempt was approved or declined with the payment, true for pending or other ones', () => {
    const reference = intent.id;
    expect(hasNoFinalAttempt('stripe', reference, [])).toBe(true);
    expect(
      hasNoFinalAttempt('stripe', reference, [
        { status: 'requires_action', gateway: 'stripe', gateway_reference: reference },
      ]),
    ).toBe(true);
    expect(
      hasNoFinalAttempt('stripe', reference, [
        { status: 'declined', gateway: 'stripe', gateway_reference: reference },
      ]),
    ).toBe(false);
    expect(
      hasNoFinalAttempt('stripe', reference, [
        { status: 'approved', gateway: 'test', gateway_reference: reference },
      ]),
    ).toBe(true);
  });
});

describe('hasApprovedAttempt', () => {
  it('is true only for an approved attempt of the same gateway with the payment', () => {
    const reference = intent.id;
    expect(
      hasApprovedAttempt('stripe', reference, [
        { status: 'approved', gateway: 'stripe', gateway_reference: reference },
      ]),
    ).toBe(true);
    expect(
      hasApprovedAttempt('stripe', reference, [
        { status: 'requires_action', gateway: 'stripe', gateway_reference: reference },
      ]),
    ).toBe(false);
    expect(
      hasApprovedAttempt('stripe', reference, [
        { status: 'approved', gateway: 'stripe', gateway_reference: 'pi_other' },
      ]),
    ).toBe(false);
  });
});
