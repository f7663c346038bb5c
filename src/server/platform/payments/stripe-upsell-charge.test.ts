import { afterEach, describe, expect, it } from 'vitest';
import {
  CUSTOMER,
  rebillCharge,
  setupStripe,
  verifyStripeReplays,
  VISA_PM,
} from './testing/stripe-replay.js';

// A one-click upsell charges the order's stored card off-session with the shopper on the page (docs/payments.md,
// "Stripe"): a bank that wants 3-D Secure gets it on the page instead of a decline.

afterEach(verifyStripeReplays);

const INTENT = 'pi_3QvS7h2eZvKYlo2C0AuthRq';

const upsellCharge = (shopperPresent: boolean) =>
  rebillCharge({
    amount: 2557,
    source: { kind: 'stored', token: VISA_PM, customerReference: CUSTOMER, shopperPresent },
    idempotencyKey: 'upsell_1_31_step_1_attempt_1',
    description: 'Order 32 (after order 31) at Coffee Club',
    orderId: 32,
    attempt: 1,
  });

describe('an upsell charge the bank wants authenticated', () => {
  it('confirms the same PaymentIntent again on-session and answers its client secret for the page', async () => {
    const { gateway, recording } = setupStripe([
      'upsell-authentication-required',
      'upsell-confirm-requires-action',
    ]);
    expect(await gateway.charge(upsellCharge(true))).toEqual({
      status: 'requires_action',
      reference: INTENT,
      action: { type: 'stripe', client_secret: `${INTENT}_secret_Fq3cTz9v1mWb7Hn2` },
    });
    expect(recording.sent.map((sent) => sent.headers['idempotency-key'])).toEqual([
      'upsell_1_31_step_1_attempt_1',
      'upsell_1_31_step_1_attempt_1_on_session',
    ]);
  });

  it('stays a decline when the shopper is not there (a rebill)', async () => {
    const { gateway } = setupStripe([
      {
        method: 'POST',
        path: '/v1/payment_intents',
        answer: 'upsell-authentication-required',
      },
    ]);
    expect(await gateway.charge(upsellCharge(false))).toMatchObject({
      status: 'declined',
      code: 'authentication_required',
      reference: INTENT,
    });
  });

  it('reads the authenticated payment with what Stripe says it took', async () => {
    const { gateway } = setupStripe(['upsell-retrieve-succeeded']);
    expect(
      await gateway.charge({ ...upsellCharge(true), source: { kind: 'authenticated', reference: INTENT } }),
    ).toMatchObject({ status: 'approved', reference: INTENT, charged: { amount: 2557, currency: 'USD' } });
  });

  it('answers a failed authentication as a decline', async () => {
    const { gateway } = setupStripe(['upsell-retrieve-authentication-failed']);
    expect(
      await gateway.charge({ ...upsellCharge(true), source: { kind: 'authenticated', reference: INTENT } }),
    ).toMatchObject({ status: 'declined', code: 'authentication_failed', reference: INTENT });
  });
});

describe('a payment waiting for authentication that the shopper said no to', () => {
  const cancel = { reference: INTENT, idempotencyKey: 'upsell_1_31_step_1_cancel_1' };

  it('cancels the PaymentIntent, with its own key', async () => {
    const { gateway } = setupStripe(['upsell-cancel']);
    expect(await gateway.cancelPayment?.(cancel)).toEqual({ status: 'canceled' });
  });

  it('answers succeeded when Stripe refuses because the shopper passed the challenge first', async () => {
    const { gateway } = setupStripe(['upsell-cancel-already-succeeded']);
    expect(await gateway.cancelPayment?.(cancel)).toEqual({ status: 'succeeded' });
  });

  it('answers an error to ask again when Stripe does not answer', async () => {
    const { gateway } = setupStripe([
      { method: 'POST', path: `/v1/payment_intents/${INTENT}/cancel`, fail: 'network' },
    ]);
    expect(await gateway.cancelPayment?.(cancel)).toMatchObject({ status: 'error', retryable: true });
  });
});
