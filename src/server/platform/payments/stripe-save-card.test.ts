import { afterEach, describe, expect, it } from 'vitest';
import { DECLINE_MESSAGES } from './decline-messages.js';
import type { SaveCardRequest } from './gateway.js';
import { CUSTOMER, setupStripe, verifyStripeReplays } from './testing/stripe-replay.js';

// A subscriber's new card saved through a SetupIntent (docs/payments.md, "The server adapter"), against Stripe's
// answers (fixtures/stripe/setup-intent-*.json).

afterEach(verifyStripeReplays);

/** The PaymentMethod Stripe's frame made of the new card on the self-service page. */
const NEW_PM = 'pm_1QvT9z2eZvKYlo2CNewCard';
const SAVE_KEY = 'subcard_1_7_5f1c0e2a9b7d4c3e8f6a1b2c3d4e5f60';

function saveRequest(overrides: Partial<SaveCardRequest> = {}): SaveCardRequest {
  return {
    token: NEW_PM,
    customerReference: CUSTOMER,
    idempotencyKey: SAVE_KEY,
    currency: 'USD',
    description: 'Subscription 7, new card',
    organizationId: 1,
    ...overrides,
  };
}

describe('Stripe saves a new card', () => {
  it('confirms a SetupIntent for off-session use on the subscription’s Customer', async () => {
    const { gateway, recording } = setupStripe(['setup-intent-succeeded']);
    expect(await gateway.saveCard?.(saveRequest())).toEqual({
      status: 'saved',
      paymentMethodToken: NEW_PM,
      customerReference: CUSTOMER,
      summary: { brand: 'mastercard', typeId: 1, last4: '4444', expMonth: 11, expYear: 2031 },
      testCard: false,
    });
    expect(recording.sent.map((request) => request.headers['idempotency-key'])).toEqual([SAVE_KEY]);
  });

  it('makes a Customer first, under its own key, when the subscription had none', async () => {
    const { gateway, recording } = setupStripe([
      'save-card-customer-created',
      'setup-intent-succeeded-new-customer',
    ]);
    expect(await gateway.saveCard?.(saveRequest({ customerReference: null }))).toMatchObject({
      status: 'saved',
      paymentMethodToken: NEW_PM,
      customerReference: 'cus_RiA3p9LmQ7xZwC',
    });
    expect(recording.sent.map((request) => request.headers['idempotency-key'])).toEqual([
      `${SAVE_KEY}_customer`,
      SAVE_KEY,
    ]);
  });

  it("refuses a declined card with our code and message, never Stripe's text", async () => {
    const { gateway, logLines } = setupStripe(['setup-intent-card-declined']);
    expect(await gateway.saveCard?.(saveRequest())).toEqual({
      status: 'declined',
      code: 'insufficient_funds',
      message: DECLINE_MESSAGES.insufficient_funds,
    });
    expect(logLines.join('')).not.toContain('insufficient funds.');
  });

  it('asks the page to authenticate a card whose bank wants 3-D Secure, then saves it once authenticated', async () => {
    const { gateway } = setupStripe(['setup-intent-requires-action', 'setup-intent-authenticated']);
    expect(await gateway.saveCard?.(saveRequest())).toEqual({
      status: 'requires_action',
      reference: 'seti_1QvT1b2eZvKYlo2C03dsReq',
      action: { type: 'stripe', client_secret: 'seti_1QvT1b2eZvKYlo2C03dsReq_secret_RkQ2v8Zt4mWb7Hn2' },
    });
    expect(
      await gateway.saveCard?.(saveRequest({ authenticated: 'seti_1QvT1b2eZvKYlo2C03dsReq' })),
    ).toMatchObject({
      status: 'saved',
      paymentMethodToken: NEW_PM,
      customerReference: CUSTOMER,
      summary: { brand: 'mastercard', last4: '4444' },
    });
  });

  it('refuses a save whose authentication failed, or a SetupIntent of another card', async () => {
    const failed = setupStripe(['setup-intent-authentication-failed']);
    expect(
      await failed.gateway.saveCard?.(saveRequest({ authenticated: 'seti_1QvT1b2eZvKYlo2C03dsReq' })),
    ).toEqual({
      status: 'declined',
      code: 'authentication_failed',
      message: DECLINE_MESSAGES.authentication_failed,
    });
    const other = setupStripe(['setup-intent-authenticated']);
    expect(
      await other.gateway.saveCard?.(
        saveRequest({ token: 'pm_1QvT9z2eZvKYlo2COtherCard', authenticated: 'seti_1QvT1b2eZvKYlo2C03dsReq' }),
      ),
    ).toMatchObject({ status: 'declined', code: 'authentication_failed' });
  });

  it('answers an error, nothing saved, when Stripe does not answer', async () => {
    const { gateway } = setupStripe([{ method: 'POST', path: '/v1/setup_intents', fail: 'network' }]);
    expect(await gateway.saveCard?.(saveRequest())).toMatchObject({ status: 'error', retryable: true });
  });
});
