import { afterEach, describe, expect, it } from 'vitest';
import { DECLINE_MESSAGES } from './decline-messages.js';
import {
  BRANDS_ACCEPTED,
  REENTER_CARD,
  STRIPE_STILL_PROCESSING,
  STRIPE_UNAVAILABLE,
} from './stripe-gateway.js';
import {
  CUSTOMER,
  ORDER_KEY,
  setupStripe,
  tokenCharge,
  verifyStripeReplays,
  VISA_PM,
} from './testing/stripe-replay.js';

// The Stripe adapter against Stripe's answers (fixtures/stripe/): describing card tokens, charging them, 3-D Secure.

afterEach(verifyStripeReplays);

const PAID = 'pi_3QvS0a2eZvKYlo2C1xPaid';
const THREE_DS = 'pi_3QvS3d2eZvKYlo2C03dsReq';
const VISA_SUMMARY = { brand: 'visa', typeId: 2, last4: '4242', expMonth: 12, expYear: 2030 };

describe('Stripe card tokens', () => {
  it('describes a card PaymentMethod by brand, last 4 and expiry', async () => {
    const { gateway } = setupStripe(['payment-method-visa']);
    expect(await gateway.describeCardToken?.(VISA_PM)).toEqual({
      status: 'usable',
      summary: VISA_SUMMARY,
      testCard: false,
    });
  });

  it('describes an Apple Pay card by its card brand (amex as american-express, type 4)', async () => {
    const { gateway } = setupStripe(['payment-method-amex-apple-pay']);
    expect(await gateway.describeCardToken?.('pm_1QvRuA2eZvKYlo2CApplePay')).toEqual({
      status: 'usable',
      summary: { brand: 'american-express', typeId: 4, last4: '8431', expMonth: 3, expYear: 2029 },
      testCard: false,
    });
  });

  it('refuses brands we do not take, and Link, which names no card brand', async () => {
    const { gateway } = setupStripe(['payment-method-jcb', 'payment-method-link']);
    const refused = { status: 'unusable', reason: 'brand_not_accepted', message: BRANDS_ACCEPTED };
    expect(await gateway.describeCardToken?.('pm_1QvRvB2eZvKYlo2CJcbCard')).toEqual(refused);
    expect(await gateway.describeCardToken?.('pm_1QvRwC2eZvKYlo2CLinkPay')).toEqual(refused);
    expect(BRANDS_ACCEPTED).toBe('We accept Visa, Mastercard, Discover and American Express.');
  });

  it('asks for the card again when the token is unknown or was used by an earlier charge', async () => {
    const { gateway } = setupStripe(['payment-method-missing', 'payment-method-attached']);
    const again = { status: 'unusable', reason: 'entry_used', message: REENTER_CARD };
    expect(await gateway.describeCardToken?.('pm_1QvRxD2eZvKYlo2CUnknown')).toEqual(again);
    // Used: Stripe cannot say by which PaymentIntent, so a retry of the same attempt may still send it (same key).
    expect(await gateway.describeCardToken?.(VISA_PM)).toEqual({
      ...again,
      usedBy: {
        idempotencyKey: null,
        summary: expect.objectContaining({ last4: expect.any(String) }),
        testCard: false,
      },
    });
  });

  it('throws when Stripe cannot be asked, rather than calling the card unusable', async () => {
    const { gateway } = setupStripe([
      { method: 'GET', path: `/v1/payment_methods/${VISA_PM}`, fail: 'network' },
    ]);
    await expect(gateway.describeCardToken?.(VISA_PM)).rejects.toThrow(/could not be asked/);
  });
});

describe('Stripe charges of a card token', () => {
  it('creates and confirms a PaymentIntent and answers its id', async () => {
    const { gateway } = setupStripe(['charge-succeeded']);
    expect(await gateway.charge(tokenCharge())).toEqual({
      status: 'approved',
      reference: PAID,
      paymentMethodToken: null,
      customerReference: null,
      summary: VISA_SUMMARY,
    });
  });

  it('keeps the card for a subscription: a Customer first, under its own key, then setup_future_usage', async () => {
    const { gateway, recording } = setupStripe(['customer-created', 'charge-succeeded-stored']);
    expect(await gateway.charge(tokenCharge({ storeForFuture: true }))).toEqual({
      status: 'approved',
      reference: 'pi_3QvS5f2eZvKYlo2C0Stored',
      paymentMethodToken: VISA_PM,
      customerReference: CUSTOMER,
      summary: VISA_SUMMARY,
    });
    expect(recording.sent.map((request) => request.headers['idempotency-key'])).toEqual([
      `${ORDER_KEY}_customer`,
      ORDER_KEY,
    ]);
  });

  it("declines with our code and message, never Stripe's text", async () => {
    const { gateway } = setupStripe(['charge-card-declined', 'charge-insufficient-funds']);
    expect(await gateway.charge(tokenCharge())).toEqual({
      status: 'declined',
      code: 'card_declined',
      message: DECLINE_MESSAGES.card_declined,
      reference: 'pi_3QvS1b2eZvKYlo2C0Declin',
      hard: false,
    });
    expect(await gateway.charge(tokenCharge())).toEqual({
      status: 'declined',
      code: 'insufficient_funds',
      message: DECLINE_MESSAGES.insufficient_funds,
      reference: 'pi_3QvS2c2eZvKYlo2C0NoFund',
      hard: false,
    });
  });

  it('declines a lost or stolen card as card_declined and hard, without saying why', async () => {
    const { gateway } = setupStripe(['charge-stolen-card']);
    expect(await gateway.charge(tokenCharge())).toEqual({
      status: 'declined',
      code: 'card_declined',
      message: DECLINE_MESSAGES.card_declined,
      reference: 'pi_3QvS2d2eZvKYlo2C0Stolen',
      hard: true,
    });
  });

  it('answers requires_action with the client secret for the page, and nothing is charged yet', async () => {
    const { gateway } = setupStripe(['charge-requires-action']);
    expect(await gateway.charge(tokenCharge())).toEqual({
      status: 'requires_action',
      reference: THREE_DS,
      action: { type: 'stripe', client_secret: `${THREE_DS}_secret_Fq3cTz9v1mWb7Hn2` },
    });
  });

  it('answers a retryable error for a lost answer, a timeout, a 5xx and a rate limit', async () => {
    const path = '/v1/payment_intents';
    const { gateway, logLines } = setupStripe([
      { method: 'POST', path, fail: 'network' },
      { method: 'POST', path, fail: 'hang' },
      'charge-server-error',
      'charge-rate-limited',
    ]);
    const unavailable = { status: 'error', message: STRIPE_UNAVAILABLE, retryable: true };
    for (let i = 0; i < 4; i++) expect(await gateway.charge(tokenCharge())).toEqual(unavailable);
    expect(logLines.join('')).toContain('StripeAPIError');
  });

  it('answers a payment still processing as an error the webhook settles, not a decline', async () => {
    const { gateway } = setupStripe(['charge-processing']);
    expect(await gateway.charge(tokenCharge())).toEqual({
      status: 'error',
      message: STRIPE_STILL_PROCESSING,
      retryable: true,
    });
  });

  it('sends the idempotency key it is given on every request that changes anything', async () => {
    const { gateway, recording } = setupStripe(['charge-succeeded', 'charge-card-declined']);
    await gateway.charge(tokenCharge());
    await gateway.charge(tokenCharge());
    expect(recording.sent.map((request) => request.headers['idempotency-key'])).toEqual([
      ORDER_KEY,
      ORDER_KEY,
    ]);
  });
});

describe('Stripe payments the shopper authenticated', () => {
  const authenticated = tokenCharge({ source: { kind: 'authenticated', reference: THREE_DS } });

  it('answers approved with the card once the PaymentIntent succeeded', async () => {
    const { gateway } = setupStripe(['charge-requires-action', 'retrieve-succeeded-after-action']);
    expect((await gateway.charge(tokenCharge())).status).toBe('requires_action');
    expect(await gateway.charge(authenticated)).toEqual({
      status: 'approved',
      reference: THREE_DS,
      charged: { amount: 5498, currency: 'USD' },
      paymentMethodToken: null,
      customerReference: null,
      summary: VISA_SUMMARY,
    });
  });

  it('declines a failed authentication as authentication_failed', async () => {
    const { gateway } = setupStripe(['retrieve-authentication-failed']);
    expect(await gateway.charge(authenticated)).toEqual({
      status: 'declined',
      code: 'authentication_failed',
      message: DECLINE_MESSAGES.authentication_failed,
      reference: THREE_DS,
      hard: false,
    });
  });

  it('answers requires_action again while the shopper has not authenticated, and declines a canceled one', async () => {
    const { gateway } = setupStripe(['retrieve-still-requires-action', 'retrieve-canceled']);
    expect((await gateway.charge(authenticated)).status).toBe('requires_action');
    expect(await gateway.charge(authenticated)).toMatchObject({
      status: 'declined',
      code: 'payment_declined',
    });
  });

  it('answers a retryable error when Stripe cannot be reached', async () => {
    const { gateway } = setupStripe([
      { method: 'GET', path: `/v1/payment_intents/${THREE_DS}`, fail: 'network' },
    ]);
    expect(await gateway.charge(authenticated)).toMatchObject({ status: 'error', retryable: true });
  });
});
