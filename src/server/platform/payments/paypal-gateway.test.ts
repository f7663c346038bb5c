import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.js';
import type { ExpressStartRequest } from './gateway.js';
import {
  BASIC,
  CAPTURE_PATH,
  CLIENT_SECRET,
  confirmedTotal,
  expressComplete,
  ORDER_PATH,
  sentRequests,
  setup,
  verifyReplays,
} from './testing/paypal-replay.js';

// The PayPal adapter against recorded PayPal exchanges: its access token and the express (PayPal button) flow.
// Card charges and refunds: paypal-charges.test.ts; what never reaches a result or a log: paypal-secrets.test.ts.

afterEach(verifyReplays);

const expressStart: ExpressStartRequest = {
  amount: 5498,
  currency: 'USD',
  paymentTokenId: 'pt_7QmV2c9XwKd3',
  returnUrl: 'https://pay.example.com/checkout/express/return?payment_token_id=pt_7QmV2c9XwKd3',
  cancelUrl: 'https://pay.example.com/checkout/express/cancel?payment_token_id=pt_7QmV2c9XwKd3',
  idempotencyKey: 'express-start-7QmV2c9XwKd3',
  description: 'Coffee Club order',
  storeForFuture: false,
};

const AMOUNT_UPDATE_REFUSED = {
  status: 'declined',
  code: 'payment_declined',
  message:
    'PayPal did not accept the final total of this order. Choose PayPal again to approve the new total, or pay by card.',
  reference: null,
};

describe('PayPal access token', () => {
  it('fetches a token with the client credentials and reuses it for later calls', async () => {
    const { gateway } = setup(['token', 'express-create-order', 'express-create-order']);
    expect((await gateway.startExpress(expressStart)).status).toBe('created');
    expect((await gateway.startExpress(expressStart)).status).toBe('created');
  });

  it('fetches a new token when the cached one is about to expire', async () => {
    const clock = new ManualClock();
    const { gateway } = setup(
      ['token', 'express-create-order', 'token-second', 'express-create-order-with-second-token'],
      {
        clock,
      },
    );
    expect((await gateway.startExpress(expressStart)).status).toBe('created');
    // expires_in is 32400 s: two minutes before the end is inside the renewal margin.
    clock.advance((32400 - 120) * 1000);
    expect((await gateway.startExpress(expressStart)).status).toBe('created');
  });

  it('fetches a new token once and repeats the call, with the same PayPal-Request-Id, when PayPal answers 401', async () => {
    const { gateway } = setup([
      'token',
      'express-create-order-unauthorized',
      'token-second',
      'express-create-order-with-second-token',
    ]);
    expect(await gateway.startExpress(expressStart)).toEqual({
      status: 'created',
      providerReference: '5O190127TN364715T',
      approvalUrl: 'https://www.sandbox.paypal.com/checkoutnow?token=5O190127TN364715T',
    });
  });

  it('answers a retryable error and tells the operator when PayPal refuses the credentials', async () => {
    const { gateway, logLines } = setup(['token-invalid-client']);
    const result = await gateway.startExpress(expressStart);
    expect(result).toMatchObject({ status: 'error', retryable: true });
    expect(logLines.join('\n')).toMatch(/PAYPAL_CLIENT_SECRET/);
    const everything = JSON.stringify(result) + logLines.join('\n');
    expect(everything).not.toContain(CLIENT_SECRET);
    expect(everything).not.toContain(BASIC.slice(6));
  });
});

describe('PayPal express start', () => {
  it('creates a CAPTURE order for the amount and answers the payer-action link and the order id', async () => {
    const { gateway } = setup(['token', 'express-create-order']);
    expect(await gateway.startExpress(expressStart)).toEqual({
      status: 'created',
      providerReference: '5O190127TN364715T',
      approvalUrl: 'https://www.sandbox.paypal.com/checkoutnow?token=5O190127TN364715T',
    });
  });

  it('asks PayPal for a Continue button: the payer comes back to confirm the final total on our page', async () => {
    const { gateway, recording } = setup(['token', 'express-create-order']);
    await gateway.startExpress(expressStart);
    expect(sentRequests(recording)[1]?.body).toMatchObject({
      payment_source: { paypal: { experience_context: { user_action: 'CONTINUE' } } },
    });
  });

  it('asks PayPal to vault the wallet when the order is recurring', async () => {
    const { gateway } = setup(['token', 'express-create-order-vault']);
    const result = await gateway.startExpress({
      ...expressStart,
      amount: 1900,
      paymentTokenId: 'pt_Recurring00001',
      returnUrl: 'https://pay.example.com/checkout/express/return?payment_token_id=pt_Recurring00001',
      cancelUrl: 'https://pay.example.com/checkout/express/cancel?payment_token_id=pt_Recurring00001',
      idempotencyKey: 'express-start-recurring-1',
      description: 'Coffee Club subscription',
      storeForFuture: true,
    });
    expect(result).toMatchObject({ status: 'created', providerReference: '5CV03413K93284929' });
  });

  it('answers a retryable error when PayPal cannot be reached', async () => {
    const { gateway } = setup(['token', { method: 'POST', path: '/v2/checkout/orders', fail: 'network' }]);
    expect(await gateway.startExpress(expressStart)).toMatchObject({ status: 'error', retryable: true });
  });
});

describe('PayPal express capture', () => {
  it('approves a COMPLETED capture with the capture id and the payer and shipping address chosen at PayPal', async () => {
    const { gateway } = setup(['token', 'express-capture-approved']);
    expect(await gateway.completeExpress(expressComplete)).toEqual({
      status: 'approved',
      reference: '3C679366HH908993F',
      paymentMethodToken: null,
      payer: {
        email: 'ana.silva@personal.example.com',
        fname: 'Ana',
        lname: 'Silva',
        ship_fname: 'Bea',
        ship_lname: 'Costa',
        ship_address1: '2211 N First Street',
        ship_address2: 'Building 17',
        ship_city: 'San Jose',
        ship_state: 'CA',
        ship_zipcode: '95131',
        ship_country: 'US',
      },
    });
  });

  it('answers the vault id of a wallet saved for rebills as the payment method token', async () => {
    const { gateway } = setup(['token', 'express-capture-vaulted']);
    const result = await gateway.completeExpress({
      providerReference: '5CV03413K93284929',
      amount: 1900,
      approvedAmount: 1900,
      currency: 'USD',
      idempotencyKey: 'express-complete-recurring-1',
    });
    expect(result).toMatchObject({
      status: 'approved',
      reference: '1TC44271Y2157014M',
      paymentMethodToken: '8kd35871xs1437519',
      payer: {
        email: 'lee.wong@personal.example.com',
        ship_fname: 'Lee',
        ship_lname: 'Wong',
        ship_state: 'OR',
      },
    });
  });

  it("declines when the payer's funding source is declined (INSTRUMENT_DECLINED)", async () => {
    const { gateway } = setup(['token', 'express-capture-instrument-declined']);
    expect(await gateway.completeExpress(expressComplete)).toEqual({
      status: 'declined',
      code: 'payment_declined',
      message: 'PayPal declined this payment. Choose another way to pay in PayPal, or pay by card.',
      reference: null,
    });
  });

  it('sends the payer back to PayPal when PayPal needs their action (PAYER_ACTION_REQUIRED)', async () => {
    const { gateway } = setup(['token', 'express-capture-payer-action-required']);
    expect(await gateway.completeExpress(expressComplete)).toMatchObject({
      status: 'declined',
      code: 'payment_declined',
      message: expect.stringMatching(/Choose PayPal again/),
    });
  });

  it('declines a capture PayPal answered DECLINED and keeps its id', async () => {
    const { gateway } = setup(['token', 'express-capture-declined']);
    expect(await gateway.completeExpress(expressComplete)).toMatchObject({
      status: 'declined',
      code: 'payment_declined',
      reference: '7HR60516KD4415146',
    });
  });

  it('answers a retryable error when PayPal fails with a 5xx', async () => {
    const { gateway } = setup(['token', 'express-capture-server-error']);
    expect(await gateway.completeExpress(expressComplete)).toEqual({
      status: 'error',
      message: 'PayPal did not answer. Try again: you will not be charged twice.',
      retryable: true,
    });
  });

  it('answers a retryable error when the network fails', async () => {
    const { gateway } = setup(['token', { method: 'POST', path: CAPTURE_PATH, fail: 'network' }]);
    expect(await gateway.completeExpress(expressComplete)).toMatchObject({
      status: 'error',
      retryable: true,
    });
  });

  it('gives up on a call PayPal does not answer in time and answers a retryable error', async () => {
    const { gateway } = setup(['token', { method: 'POST', path: CAPTURE_PATH, fail: 'hang' }]);
    expect(await gateway.completeExpress(expressComplete)).toMatchObject({
      status: 'error',
      retryable: true,
    });
  });

  it('answers a retryable error when the token call itself times out', async () => {
    const { gateway } = setup([{ method: 'POST', path: '/v1/oauth2/token', fail: 'hang' }]);
    expect(await gateway.completeExpress(expressComplete)).toMatchObject({
      status: 'error',
      retryable: true,
    });
  });

  it('reads the order when an earlier attempt already captured it, rather than declining a paid order', async () => {
    const { gateway } = setup(['token', 'express-capture-already-captured', 'express-get-order-completed']);
    const result = await gateway.completeExpress({
      ...expressComplete,
      idempotencyKey: 'express-complete-second-try',
    });
    expect(result).toMatchObject({ status: 'approved', reference: '3C679366HH908993F' });
  });

  it('answers a retryable error when a success answer cannot be read', async () => {
    const { gateway } = setup(['token', { method: 'POST', path: CAPTURE_PATH, status: 201, text: '<html>' }]);
    expect(await gateway.completeExpress(expressComplete)).toMatchObject({
      status: 'error',
      retryable: true,
    });
  });
});

describe('PayPal express amount update (review flow)', () => {
  it('updates the order to the confirmed total, then captures it', async () => {
    const { gateway, recording } = setup([
      'token',
      'express-patch-amount',
      'express-capture-approved-after-patch',
    ]);
    expect(await gateway.completeExpress(confirmedTotal)).toEqual({
      status: 'approved',
      reference: '8MC585209K746392H',
      paymentMethodToken: null,
      payer: {
        email: 'ana.silva@personal.example.com',
        fname: 'Ana',
        lname: 'Silva',
        ship_fname: 'Bea',
        ship_lname: 'Costa',
        ship_address1: '2211 N First Street',
        ship_address2: 'Building 17',
        ship_city: 'San Jose',
        ship_state: 'CA',
        ship_zipcode: '95131',
        ship_country: 'US',
      },
    });
    expect(sentRequests(recording).slice(1)).toEqual([
      {
        method: 'PATCH',
        path: ORDER_PATH,
        body: [
          {
            op: 'replace',
            path: "/purchase_units/@reference_id=='default'/amount",
            value: { currency_code: 'USD', value: '61.23' },
          },
        ],
      },
      { method: 'POST', path: CAPTURE_PATH, body: null },
    ]);
  });

  it('also updates the order when the confirmed total is lower than the approved amount', async () => {
    const { gateway, recording } = setup([
      'token',
      'express-patch-amount-decreased',
      'express-capture-approved-after-decrease',
    ]);
    expect(await gateway.completeExpress({ ...expressComplete, amount: 4998 })).toMatchObject({
      status: 'approved',
      reference: '4RG66024YJ2130357',
    });
    expect(sentRequests(recording)[1]).toMatchObject({ method: 'PATCH', path: ORDER_PATH });
  });

  it('sends no update when the confirmed total is the approved amount', async () => {
    const { gateway, recording } = setup(['token', 'express-capture-approved']);
    expect(await gateway.completeExpress(expressComplete)).toMatchObject({ status: 'approved' });
    expect(sentRequests(recording).map((sent) => `${sent.method} ${sent.path}`)).toEqual([
      'POST /v1/oauth2/token',
      `POST ${CAPTURE_PATH}`,
    ]);
  });

  it.each([
    { fixture: 'express-patch-amount-change-not-allowed', issue: 'AMOUNT_CHANGE_NOT_ALLOWED' },
    { fixture: 'express-patch-payee-account-restricted', issue: 'PAYEE_ACCOUNT_RESTRICTED' },
    { fixture: 'express-patch-order-not-found', issue: 'INVALID_RESOURCE_ID' },
  ])(
    'declines without capturing when PayPal refuses the new total ($issue), and tells the operator',
    async ({ fixture, issue }) => {
      const { gateway, recording, logLines } = setup(['token', fixture]);
      expect(await gateway.completeExpress(confirmedTotal)).toEqual(AMOUNT_UPDATE_REFUSED);
      expect(sentRequests(recording).map((sent) => sent.method)).toEqual(['POST', 'PATCH']);
      expect(logLines).toHaveLength(1);
      expect(logLines[0]).toContain(issue);
      expect(logLines[0]).toContain('update amount');
    },
  );

  it('answers a retryable error without capturing when the update fails with a 5xx', async () => {
    const { gateway, recording } = setup(['token', 'express-patch-server-error']);
    expect(await gateway.completeExpress(confirmedTotal)).toEqual({
      status: 'error',
      message: 'PayPal did not answer. Try again: you will not be charged twice.',
      retryable: true,
    });
    expect(sentRequests(recording).map((sent) => sent.method)).toEqual(['POST', 'PATCH']);
  });

  it.each(['network', 'hang'] as const)(
    'answers a retryable error without capturing when the update fails (%s)',
    async (fail) => {
      const { gateway, recording } = setup(['token', { method: 'PATCH', path: ORDER_PATH, fail }]);
      expect(await gateway.completeExpress(confirmedTotal)).toMatchObject({
        status: 'error',
        retryable: true,
      });
      expect(sentRequests(recording).map((sent) => sent.method)).toEqual(['POST', 'PATCH']);
    },
  );

  it('fetches a new token and sends the same update again when PayPal answers the update 401', async () => {
    const { gateway } = setup([
      'token',
      'express-patch-amount-unauthorized',
      'token-second',
      'express-patch-amount-with-second-token',
      'express-capture-approved-after-patch-with-second-token',
    ]);
    expect(await gateway.completeExpress(confirmedTotal)).toMatchObject({
      status: 'approved',
      reference: '8MC585209K746392H',
    });
  });

  it('updates again and captures when a retry follows an update whose answer was lost', async () => {
    const { gateway } = setup([
      'token',
      { method: 'PATCH', path: ORDER_PATH, fail: 'network' },
      'express-patch-amount',
      'express-capture-approved-after-patch',
    ]);
    expect(await gateway.completeExpress(confirmedTotal)).toMatchObject({ status: 'error', retryable: true });
    expect(await gateway.completeExpress(confirmedTotal)).toMatchObject({
      status: 'approved',
      reference: '8MC585209K746392H',
    });
  });

  it('answers the earlier capture when a retry with the same key finds the order already completed', async () => {
    const { gateway } = setup([
      'token',
      'express-patch-amount',
      { method: 'POST', path: CAPTURE_PATH, fail: 'network' },
      'express-patch-order-already-completed',
      // PayPal answers the repeated PayPal-Request-Id with the first capture's result.
      'express-capture-approved-after-patch',
    ]);
    expect(await gateway.completeExpress(confirmedTotal)).toMatchObject({ status: 'error', retryable: true });
    expect(await gateway.completeExpress(confirmedTotal)).toMatchObject({
      status: 'approved',
      reference: '8MC585209K746392H',
    });
  });

  it('reads the order when a new attempt finds it already updated and captured, rather than declining it', async () => {
    const { gateway } = setup([
      'token',
      'express-patch-order-already-completed',
      'express-capture-already-captured',
      'express-get-order-completed-after-patch',
    ]);
    const result = await gateway.completeExpress({
      ...confirmedTotal,
      idempotencyKey: 'express-complete-second-try',
    });
    expect(result).toMatchObject({ status: 'approved', reference: '8MC585209K746392H' });
  });

  it('declines, without calling PayPal, a confirmed total PayPal cannot express in the currency', async () => {
    const { gateway, recording } = setup([]);
    const result = await gateway.completeExpress({
      ...expressComplete,
      currency: 'TWD',
      approvedAmount: 150_000,
      amount: 150_050,
    });
    expect(result).toEqual({
      status: 'declined',
      code: 'payment_declined',
      message: 'PayPal cannot take this amount in TWD. Pay by card instead.',
      reference: null,
    });
    expect(recording.sent).toEqual([]);
  });
});
