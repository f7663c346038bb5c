import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.js';
import type { ChargeRequest, ExpressStartRequest } from './gateway.js';
import { createPaypalGateway, type PaypalGatewayOptions } from './paypal-gateway.js';

// Recorded PayPal exchanges, one per file: the request we must send and the answer PayPal gave.
interface Fixture {
  description: string;
  request: {
    method: string;
    path: string;
    headers: Record<string, string>;
    /** the JSON body, exactly; null when no body is sent */
    body?: unknown;
    /** an x-www-form-urlencoded body, exactly */
    form?: Record<string, string>;
  };
  /** no body: a 204 answers nothing */
  response: { status: number; body?: unknown };
}

/** A step that is not a recorded answer: the network fails, PayPal never answers, or answers something odd. */
type Scripted =
  | { method: string; path: string; fail: 'network' | 'hang' }
  | { method: string; path: string; status: number; text: string };
type Step = string | Scripted;

const API_BASE = 'https://api-m.sandbox.paypal.com';
const CLIENT_SECRET = 'EKtestSecret-do-not-leak';
const BASIC = `Basic ${Buffer.from(`AZtestClientId-sandbox:${CLIENT_SECRET}`).toString('base64')}`;
const ACCESS_TOKENS = ['A21AAFirstAccessTokenForTests', 'A21AASecondAccessTokenForTests'];

function loadFixture(name: string): Fixture {
  return JSON.parse(
    readFileSync(new URL(`./fixtures/paypal/${name}.json`, import.meta.url), 'utf8'),
  ) as Fixture;
}

interface Replay {
  fetch: typeof fetch;
  /** every request the adapter sent, as PayPal would have received it */
  sent: string[];
  verify(): void;
}

const active: Replay[] = [];

// Mismatches are collected rather than thrown inside fetch: the adapter would turn a thrown assertion into a
// "network error" result, and a test expecting that result would pass without noticing.
afterEach(() => {
  for (const replay of active.splice(0)) replay.verify();
});

/** A fetch that answers the steps in order and checks each request against its recording. */
function replay(...steps: Step[]): Replay {
  const remaining = [...steps];
  const problems: string[] = [];
  const sent: string[] = [];

  const fakeFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input));
    const method = init?.method ?? 'GET';
    const headers = new Headers(init?.headers);
    const body = typeof init?.body === 'string' ? init.body : null;
    sent.push(JSON.stringify({ url: url.toString(), method, headers: [...headers.entries()], body }));
    const step = remaining.shift();
    const where = `${method} ${url.pathname}`;
    if (step === undefined) {
      problems.push(`unexpected request ${where}`);
      return new Response('{}', { status: 599 });
    }
    const expected = typeof step === 'string' ? loadFixture(step).request : step;
    const label = typeof step === 'string' ? step : where;
    if (method !== expected.method) problems.push(`${label}: method ${method}, expected ${expected.method}`);
    if (`${url.origin}${url.pathname}${url.search}` !== `${API_BASE}${expected.path}`) {
      problems.push(`${label}: sent to ${url.toString()}, expected ${API_BASE}${expected.path}`);
    }
    if (typeof step !== 'string') {
      if ('fail' in step && step.fail === 'network') throw new TypeError('fetch failed');
      if ('fail' in step) {
        return new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () =>
            reject(new DOMException('This operation was aborted', 'AbortError')),
          );
        });
      }
      return new Response(step.text, { status: step.status });
    }

    const fixture = loadFixture(step);
    for (const [name, value] of Object.entries(fixture.request.headers)) {
      if (headers.get(name) !== value) {
        problems.push(`${label}: header ${name} is ${String(headers.get(name))}, expected ${value}`);
      }
    }
    if (fixture.request.form !== undefined) {
      const form = Object.fromEntries(new URLSearchParams(body ?? ''));
      if (!isDeepStrictEqual(form, fixture.request.form)) {
        problems.push(
          `${label}: form ${JSON.stringify(form)}, expected ${JSON.stringify(fixture.request.form)}`,
        );
      }
    } else {
      const actual = body === null ? null : (JSON.parse(body) as unknown);
      if (!isDeepStrictEqual(actual, fixture.request.body ?? null)) {
        problems.push(
          `${label}: body ${JSON.stringify(actual)}, expected ${JSON.stringify(fixture.request.body)}`,
        );
      }
    }
    if (fixture.response.body === undefined) return new Response(null, { status: fixture.response.status });
    return new Response(JSON.stringify(fixture.response.body), {
      status: fixture.response.status,
      headers: { 'content-type': 'application/json' },
    });
  };

  const result: Replay = {
    fetch: fakeFetch as typeof fetch,
    sent,
    verify() {
      expect(problems, 'requests that did not match their recording').toEqual([]);
      expect(
        remaining.map((step) => (typeof step === 'string' ? step : `${step.method} ${step.path}`)),
        'recorded exchanges never requested',
      ).toEqual([]);
    },
  };
  active.push(result);
  return result;
}

/** What the adapter sent, in order: method, path and the parsed JSON body (null without one). */
function sentRequests(recording: Replay): Array<{ method: string; path: string; body: unknown }> {
  return recording.sent.map((line) => {
    const sent = JSON.parse(line) as { url: string; method: string; body: string | null };
    const url = new URL(sent.url);
    const body: unknown =
      sent.body === null || url.pathname === '/v1/oauth2/token' ? null : JSON.parse(sent.body);
    return { method: sent.method, path: url.pathname, body };
  });
}

function setup(steps: Step[], overrides: Partial<PaypalGatewayOptions> = {}) {
  const recording = replay(...steps);
  const logLines: string[] = [];
  // A plain pino logger, without the app's card scrubbing: the adapter itself must log nothing sensitive.
  const logger = pino({ level: 'warn' }, { write: (line: string) => void logLines.push(line) });
  const gateway = createPaypalGateway({
    clientId: 'AZtestClientId-sandbox',
    clientSecret: CLIENT_SECRET,
    apiBase: API_BASE,
    fetch: recording.fetch,
    clock: new ManualClock(),
    timeoutMs: 50,
    logger,
    ...overrides,
  });
  return { gateway, logLines, recording };
}

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

const expressComplete = {
  providerReference: '5O190127TN364715T',
  amount: 5498,
  approvedAmount: 5498,
  currency: 'USD',
  idempotencyKey: 'express-complete-7QmV2c9XwKd3',
};

const ORDER_PATH = '/v2/checkout/orders/5O190127TN364715T';
const CAPTURE_PATH = `${ORDER_PATH}/capture`;

/** Review flow: approved at 54.98, confirmed on our page at 61.23 once shipping and tax were added. */
const confirmedTotal = { ...expressComplete, amount: 6123 };

const AMOUNT_UPDATE_REFUSED = {
  status: 'declined',
  code: 'payment_declined',
  message:
    'PayPal did not accept the final total of this order. Choose PayPal again to approve the new total, or pay by card.',
  reference: null,
};

function cardCharge(overrides: Partial<ChargeRequest> = {}): ChargeRequest {
  return {
    amount: 5498,
    currency: 'USD',
    source: {
      kind: 'card',
      card: { number: '4111 1111 1111 1111', cvv: '123', expMonth: 12, expYear: 2030 },
      summary: { brand: 'visa', typeId: 2, last4: '1111', expMonth: 12, expYear: 2030 },
    },
    storeForFuture: false,
    idempotencyKey: 'order-ord_8d1-attempt-1',
    description: 'Coffee Club order',
    testCard: false,
    ...overrides,
  };
}

function rebill(token: string, idempotencyKey: string, cycle: number): ChargeRequest {
  return {
    amount: 1900,
    currency: 'USD',
    source: { kind: 'token', token },
    storeForFuture: true,
    idempotencyKey,
    description: `Coffee Club subscription, cycle ${cycle}`,
    testCard: false,
  };
}

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

describe('PayPal charges', () => {
  it('rebills a vaulted PayPal wallet with its vault id and keeps the token', async () => {
    const { gateway } = setup(['token', 'rebill-paypal-vault-approved']);
    expect(await gateway.charge(rebill('8kd35871xs1437519', 'rebill-sub-42-cycle-2', 2))).toEqual({
      status: 'approved',
      reference: '2GG279541U471931P',
      paymentMethodToken: '8kd35871xs1437519',
    });
  });

  it('declines a rebill whose wallet funding failed', async () => {
    const { gateway } = setup(['token', 'rebill-paypal-vault-declined']);
    expect(await gateway.charge(rebill('8kd35871xs1437519', 'rebill-sub-42-cycle-3', 3))).toMatchObject({
      status: 'declined',
      code: 'payment_declined',
    });
  });

  it('rebills a card vaulted at PayPal as a merchant-initiated recurring payment', async () => {
    const { gateway } = setup(['token', 'rebill-card-vault-approved']);
    expect(await gateway.charge(rebill('card:9pf17493xb1108442', 'rebill-sub-77-cycle-2', 2))).toEqual({
      status: 'approved',
      reference: '6DR965477U7140544',
      paymentMethodToken: 'card:9pf17493xb1108442',
    });
  });

  it('charges a card and answers the capture id', async () => {
    const { gateway } = setup(['token', 'card-charge-approved']);
    expect(await gateway.charge(cardCharge())).toEqual({
      status: 'approved',
      reference: '2WB02631FY659550C',
      paymentMethodToken: null,
    });
  });

  it('vaults a card for a subscription and answers a card token for the rebills', async () => {
    const { gateway } = setup(['token', 'card-charge-approved-vaulted']);
    const result = await gateway.charge(
      cardCharge({
        amount: 1900,
        storeForFuture: true,
        idempotencyKey: 'order-ord_9e2-attempt-1',
        description: 'Coffee Club subscription',
      }),
    );
    expect(result).toEqual({
      status: 'approved',
      reference: '5XK10291SL5582733',
      paymentMethodToken: 'card:9pf17493xb1108442',
    });
  });

  it('declines a card the issuer refused for insufficient funds', async () => {
    const { gateway } = setup(['token', 'card-charge-declined-insufficient-funds']);
    const result = await gateway.charge(
      cardCharge({
        source: {
          kind: 'card',
          card: { number: '5555555555554444', cvv: '321', expMonth: 1, expYear: 2029 },
          summary: { brand: 'mastercard', typeId: 1, last4: '4444', expMonth: 1, expYear: 2029 },
        },
        idempotencyKey: 'order-ord_4c7-attempt-1',
      }),
    );
    expect(result).toEqual({
      status: 'declined',
      code: 'insufficient_funds',
      message: 'Your card has insufficient funds. Try another card or PayPal.',
      reference: '33U97269RT3112322',
    });
  });

  it('declines a card PayPal says has expired', async () => {
    const { gateway } = setup(['token', 'card-charge-card-expired']);
    const result = await gateway.charge(
      cardCharge({
        source: {
          kind: 'card',
          card: { number: '4111111111111111', cvv: '123', expMonth: 11, expYear: 2026 },
          summary: { brand: 'visa', typeId: 2, last4: '1111', expMonth: 11, expYear: 2026 },
        },
        idempotencyKey: 'order-ord_5f3-attempt-1',
      }),
    );
    expect(result).toMatchObject({ status: 'declined', code: 'expired_card', reference: null });
  });

  it("never sends an organization's test card to PayPal", async () => {
    const { gateway, recording } = setup([]);
    const result = await gateway.charge(cardCharge({ testCard: true }));
    expect(result).toMatchObject({ status: 'declined', code: 'card_declined' });
    expect(recording.sent).toEqual([]);
  });
});

describe('PayPal refunds', () => {
  it('refunds a capture and answers the refund id', async () => {
    const { gateway } = setup(['token', 'refund-completed']);
    expect(
      await gateway.refund({
        reference: '3C679366HH908993F',
        amount: 5498,
        currency: 'USD',
        idempotencyKey: 'refund-ord_8d1-1',
      }),
    ).toEqual({ status: 'refunded', reference: '1JU08902781691411' });
  });

  it('says so when the payment was already refunded in full', async () => {
    const { gateway } = setup(['token', 'refund-already-refunded']);
    expect(
      await gateway.refund({
        reference: '3C679366HH908993F',
        amount: 5498,
        currency: 'USD',
        idempotencyKey: 'refund-ord_8d1-2',
      }),
    ).toEqual({ status: 'error', message: 'This payment has already been refunded in full.' });
  });
});

/** Log lines without the numbers pino adds itself (time, pid), which can contain any 3 digits by chance. */
const withoutLogStamps = (lines: readonly string[]) =>
  lines.map((line) => line.replace(/"(time|pid)":\d+,?/g, ''));

describe('card data and credentials never leave the charge call', () => {
  const NUMBER = '4012888888881881';
  const CVV = '846';
  const ORDERS = '/v2/checkout/orders';
  const echo = (status: number, extra: Record<string, unknown> = {}): Scripted => ({
    method: 'POST',
    path: ORDERS,
    status,
    // Some answers quote the request: a field's value, a description, or the whole body.
    text: JSON.stringify({
      name: status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'INVALID_REQUEST',
      message: `Request ${NUMBER} ${CVV} could not be processed`,
      debug_id: 'abc0123def456',
      details: [
        {
          field: '/payment_source/card/number',
          value: NUMBER,
          location: 'body',
          issue: 'INVALID_PARAMETER_VALUE',
          description: `Card ${NUMBER} with security code ${CVV} is invalid`,
        },
        { field: '/payment_source/card/security_code', value: CVV, issue: 'INVALID_SECURITY_CODE_LENGTH' },
      ],
      ...extra,
    }),
  });
  const declinedCapture = (responseCode: string): Scripted => ({
    method: 'POST',
    path: ORDERS,
    status: 201,
    text: JSON.stringify({
      id: '3XB80960XN551094F',
      status: 'COMPLETED',
      payment_source: { card: { number: NUMBER, security_code: CVV, last_digits: '1881' } },
      purchase_units: [
        {
          payments: {
            captures: [
              {
                id: '33U97269RT3112322',
                status: 'DECLINED',
                processor_response: { response_code: responseCode },
              },
            ],
          },
        },
      ],
    }),
  });

  const failurePaths: Array<{ name: string; steps: Step[] }> = [
    {
      name: 'token call unreachable',
      steps: [{ method: 'POST', path: '/v1/oauth2/token', fail: 'network' }],
    },
    { name: 'token call times out', steps: [{ method: 'POST', path: '/v1/oauth2/token', fail: 'hang' }] },
    { name: 'credentials refused', steps: ['token-invalid-client'] },
    {
      name: 'token call 503',
      steps: [{ method: 'POST', path: '/v1/oauth2/token', status: 503, text: 'busy' }],
    },
    { name: 'charge unreachable', steps: ['token', { method: 'POST', path: ORDERS, fail: 'network' }] },
    { name: 'charge times out', steps: ['token', { method: 'POST', path: ORDERS, fail: 'hang' }] },
    { name: 'validation error quoting the card', steps: ['token', echo(400)] },
    { name: 'unprocessable quoting the card', steps: ['token', echo(422)] },
    { name: '500 quoting the card', steps: ['token', echo(500)] },
    {
      name: 'forbidden, quoting the card in an issue PayPal does not relate to the payer',
      steps: [
        'token',
        echo(403, {
          name: 'NOT_AUTHORIZED',
          details: [{ issue: 'PERMISSION_DENIED', description: `No permission for card ${NUMBER} / ${CVV}` }],
        }),
      ],
    },
    {
      name: 'unprocessable for a reason of ours, quoting the card',
      steps: [
        'token',
        echo(422, {
          details: [
            { issue: 'CURRENCY_NOT_SUPPORTED', field: '/purchase_units/0/amount', value: `${NUMBER} ${CVV}` },
          ],
        }),
      ],
    },
    {
      name: 'order answered without a capture, quoting the card',
      steps: [
        'token',
        {
          method: 'POST',
          path: ORDERS,
          status: 201,
          text: JSON.stringify({
            id: '1AB23456CD789012E',
            status: 'CREATED',
            payment_source: { card: { number: NUMBER, security_code: CVV } },
          }),
        },
      ],
    },
    { name: 'rate limited', steps: ['token', echo(429, { name: 'RATE_LIMIT_REACHED' })] },
    { name: 'declined for insufficient funds', steps: ['token', declinedCapture('5120')] },
    { name: 'declined as suspected fraud', steps: ['token', declinedCapture('9500')] },
    { name: 'declined for a wrong CVV', steps: ['token', declinedCapture('00N7')] },
    {
      name: 'non-JSON answer quoting the card',
      steps: ['token', { method: 'POST', path: ORDERS, status: 502, text: `<html>${NUMBER} ${CVV}</html>` }],
    },
    {
      name: 'unreadable success quoting the card',
      steps: ['token', { method: 'POST', path: ORDERS, status: 201, text: `{"id": "${NUMBER}", ${CVV}` }],
    },
    {
      name: 'order needing 3-D Secure',
      steps: [
        'token',
        {
          method: 'POST',
          path: ORDERS,
          status: 201,
          text: JSON.stringify({ id: '1AB23456CD789012E', status: 'PAYER_ACTION_REQUIRED', links: [] }),
        },
      ],
    },
    {
      name: 'token refused twice',
      steps: [
        'token',
        { method: 'POST', path: ORDERS, status: 401, text: '{"error":"invalid_token"}' },
        'token-second',
        { method: 'POST', path: ORDERS, status: 401, text: '{"error":"invalid_token"}' },
      ],
    },
  ];

  const amountUpdateFailures: Array<{ name: string; steps: Step[] }> = [
    { name: 'update refused', steps: ['token', 'express-patch-amount-change-not-allowed'] },
    {
      name: 'update refused for the merchant account',
      steps: ['token', 'express-patch-payee-account-restricted'],
    },
    { name: 'update answered 500', steps: ['token', 'express-patch-server-error'] },
    {
      name: 'update refused, quoting the request and the token',
      steps: [
        'token',
        {
          method: 'PATCH',
          path: ORDER_PATH,
          status: 400,
          text: JSON.stringify({
            name: 'INVALID_REQUEST',
            message: `Bearer ${ACCESS_TOKENS[0]} could not patch ana.silva@personal.example.com`,
            debug_id: 'abc0123def456',
            details: [
              {
                field: "/purchase_units/@reference_id=='default'/amount/value",
                value: 'ana.silva@personal.example.com',
                issue: 'INVALID_PARAMETER_SYNTAX',
                description: `Token ${ACCESS_TOKENS[0]} is not a value`,
              },
            ],
          }),
        },
      ],
    },
    {
      name: 'update answered 200 with something unreadable',
      steps: ['token', { method: 'PATCH', path: ORDER_PATH, status: 200, text: `<html>${ACCESS_TOKENS[0]}` }],
    },
    {
      name: 'token refused twice on the update',
      steps: [
        'token',
        { method: 'PATCH', path: ORDER_PATH, status: 401, text: '{"error":"invalid_token"}' },
        'token-second',
        { method: 'PATCH', path: ORDER_PATH, status: 401, text: '{"error":"invalid_token"}' },
      ],
    },
  ];

  it.each(amountUpdateFailures)(
    'keeps credentials and what PayPal echoed out of the result and the logs, and captures nothing: $name',
    async ({ steps }) => {
      const { gateway, logLines, recording } = setup(steps);
      const result = await gateway.completeExpress(confirmedTotal);
      expect(result).toMatchObject({ status: expect.stringMatching(/^(declined|error)$/) });
      expect(sentRequests(recording).some((sent) => sent.path === CAPTURE_PATH)).toBe(false);
      const seen = [JSON.stringify(result), ...withoutLogStamps(logLines)].join('\n');
      for (const secret of [
        CLIENT_SECRET,
        BASIC.slice(6),
        ...ACCESS_TOKENS,
        'ana.silva@personal.example.com',
        'The amount specified is different',
        'The merchant account is restricted',
      ]) {
        expect(seen).not.toContain(secret);
      }
    },
  );

  it.each(failurePaths)(
    'keeps the card number and CVV out of the result and the logs: $name',
    async ({ steps }) => {
      const { gateway, logLines, recording } = setup(steps);
      const charge = cardCharge({
        source: {
          kind: 'card',
          card: { number: NUMBER, cvv: CVV, expMonth: 5, expYear: 2031 },
          summary: { brand: 'visa', typeId: 2, last4: '1881', expMonth: 5, expYear: 2031 },
        },
      });
      let thrown: unknown;
      let result: unknown;
      try {
        result = await gateway.charge(charge);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeUndefined();
      expect(result).toMatchObject({ status: expect.stringMatching(/^(declined|error)$/) });
      // The card did go to PayPal, in the body of the order call, so the check below is not vacuous.
      if (steps.length > 1) expect(recording.sent.join('\n')).toContain(NUMBER);

      const seen = [JSON.stringify(result), ...withoutLogStamps(logLines)].join('\n');
      for (const secret of [NUMBER, CVV, '4012 8888', CLIENT_SECRET, BASIC.slice(6), ...ACCESS_TOKENS]) {
        expect(seen).not.toContain(secret);
      }
    },
  );
});
