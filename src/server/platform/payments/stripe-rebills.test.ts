import { afterEach, describe, expect, it } from 'vitest';
import { DECLINE_MESSAGES } from './decline-messages.js';
import {
  CUSTOMER,
  rebillCharge,
  SECRET_KEY,
  setupStripe,
  tokenCharge,
  verifyStripeReplays,
} from './testing/stripe-replay.js';

// The Stripe adapter's off-session rebills, refunds and express answers, and what it never sends or logs.

afterEach(verifyStripeReplays);

const PAID = 'pi_3QvS0a2eZvKYlo2C1xPaid';

describe('Stripe rebills', () => {
  it('confirms off-session on the saved PaymentMethod and Customer', async () => {
    const { gateway } = setupStripe(['rebill-succeeded']);
    expect(await gateway.charge(rebillCharge())).toEqual({
      status: 'approved',
      reference: 'pi_3QvS6g2eZvKYlo2C0Rebill',
      paymentMethodToken: null,
      customerReference: CUSTOMER,
    });
  });

  it('declines as authentication_required when the bank wants the cardholder', async () => {
    const { gateway } = setupStripe(['rebill-authentication-required']);
    expect(await gateway.charge(rebillCharge())).toEqual({
      status: 'declined',
      code: 'authentication_required',
      message: DECLINE_MESSAGES.authentication_required,
      reference: 'pi_3QvS7h2eZvKYlo2C0AuthRq',
      hard: false,
    });
  });
});

describe('Stripe refunds', () => {
  it('refunds a PaymentIntent in full and in part, with the key it is given', async () => {
    const { gateway } = setupStripe(['refund-full', 'refund-partial']);
    const refund = { reference: PAID, currency: 'USD' };
    expect(await gateway.refund({ ...refund, amount: 5498, idempotencyKey: 'refund_1_31_1' })).toEqual({
      status: 'refunded',
      reference: 're_3QvS0a2eZvKYlo2C1FullRf',
    });
    expect(await gateway.refund({ ...refund, amount: 1500, idempotencyKey: 'refund_1_31_2' })).toEqual({
      status: 'refunded',
      reference: 're_3QvS0a2eZvKYlo2C1PartRf',
    });
  });

  it('answers an error for a refund Stripe refuses or does not answer', async () => {
    const { gateway, logLines } = setupStripe([
      'refund-already-refunded',
      { method: 'POST', path: '/v1/refunds', fail: 'network' },
    ]);
    const refund = { reference: PAID, currency: 'USD', amount: 5498 };
    // Refused: nothing refunded, and asking again cannot help. No answer: Stripe may have made it (retryable).
    expect(await gateway.refund({ ...refund, idempotencyKey: 'refund_1_31_3' })).toEqual({
      status: 'error',
      message: 'Stripe says this payment has already been refunded in full.',
    });
    expect(await gateway.refund({ ...refund, idempotencyKey: 'refund_1_31_4' })).toMatchObject({
      status: 'error',
      retryable: true,
    });
    expect(logLines.join('')).toContain('charge_already_refunded');
  });

  it("answers a refund beyond what is left as refused, and Stripe's 5xx as retryable", async () => {
    const { gateway, logLines } = setupStripe(['refund-amount-too-large', 'refund-server-error']);
    expect(
      await gateway.refund({
        reference: PAID,
        currency: 'USD',
        amount: 5000,
        idempotencyKey: 'refund_1_31_5',
      }),
    ).toEqual({
      status: 'error',
      message: 'Stripe says the refund is larger than what is left of this payment.',
    });
    expect(
      await gateway.refund({
        reference: PAID,
        currency: 'USD',
        amount: 1500,
        idempotencyKey: 'refund_1_31_6',
      }),
    ).toEqual({ status: 'error', message: 'Stripe did not answer the refund; try again.', retryable: true });
    // Stripe's words can quote what was sent; only its codes are logged.
    expect(logLines.join('')).toContain('amount_too_large');
    expect(logLines.join('')).not.toContain('greater than unrefunded');
  });
});

describe('Stripe and express payments', () => {
  it('answers a retryable error: Stripe does not take our express flow', async () => {
    const { gateway } = setupStripe([]);
    expect(
      await gateway.startExpress({
        amount: 5498,
        currency: 'USD',
        paymentTokenId: 'pt_1',
        returnUrl: 'https://shop.example/return',
        cancelUrl: 'https://shop.example/cancel',
        idempotencyKey: 'express_1',
        description: 'Order 31',
        storeForFuture: false,
      }),
    ).toMatchObject({ status: 'error', retryable: true });
    expect(
      await gateway.completeExpress({
        providerReference: 'x',
        amount: 1,
        approvedAmount: 1,
        currency: 'USD',
        idempotencyKey: 'k',
      }),
    ).toMatchObject({ status: 'error', retryable: true });
  });
});

describe('What the Stripe adapter sends and logs', () => {
  it('sends no card data and logs neither card data nor the secret key, whatever happens', async () => {
    const { gateway, recording, logLines } = setupStripe([
      'payment-method-visa',
      'customer-created',
      'charge-succeeded-stored',
      'charge-card-declined',
      'charge-server-error',
      'charge-requires-action',
      'retrieve-authentication-failed',
      'rebill-authentication-required',
      'refund-already-refunded',
    ]);
    await gateway.describeCardToken?.('pm_1QvRtJ2eZvKYlo2Cw8aVisa');
    await gateway.charge(tokenCharge({ storeForFuture: true }));
    await gateway.charge(tokenCharge());
    await gateway.charge(tokenCharge());
    await gateway.charge(tokenCharge());
    await gateway.charge(
      tokenCharge({ source: { kind: 'authenticated', reference: 'pi_3QvS3d2eZvKYlo2C03dsReq' } }),
    );
    await gateway.charge(rebillCharge());
    await gateway.refund({ reference: PAID, amount: 5498, currency: 'USD', idempotencyKey: 'refund_1_31_3' });
    expect(recording.sent).toHaveLength(9);
    for (const request of recording.sent) {
      const text = `${request.path} ${JSON.stringify(request.query)} ${request.body ?? ''}`;
      expect(text).not.toMatch(/\d{12,19}/);
      expect(text).not.toMatch(/card\[|number|cvc|cvv|exp_month|exp_year/i);
    }
    // Without the numbers pino adds itself (time, pid).
    const logged = logLines.join('\n').replace(/"(time|pid)":\d+,?/g, '');
    expect(logged).not.toContain(SECRET_KEY);
    expect(logged).not.toMatch(/\d{12,19}/);
    // Stripe's own message text never reaches a log (it can quote what was typed).
    expect(logged).not.toContain('has already been refunded');
  });
});
