import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import pino from 'pino';
import { expect } from 'vitest';
import type { ChargeRequest } from '../gateway.js';
import { STRIPE_API_VERSION } from '../stripe-client.js';
import { createStripeGateway, type StripeGatewayOptions } from '../stripe-gateway.js';

// The Stripe adapter's tests (payments/stripe-*.test.ts) replay exchanges shaped as Stripe's API answers them
// (fixtures/stripe/) through this harness. Test code only: tsconfig.build.json leaves testing/ folders out.

interface Fixture {
  description: string;
  request: {
    method: string;
    path: string;
    /** the query string's fields, exactly; none when absent */
    query?: Record<string, string>;
    /** headers that must be sent as given (the Idempotency-Key) */
    headers: Record<string, string>;
    /** the x-www-form-urlencoded body's fields, exactly; no body when absent */
    form?: Record<string, string>;
  };
  response: { status: number; body: unknown };
}

/**
 * A step that is no exact recording: the connection fails, Stripe never answers before the timeout, or (API tests,
 * whose ids and amounts are the database's) a recorded answer to a request checked by method and path only, the
 * test checking the rest from `sent`.
 */
export type Scripted =
  | { method: string; path: string; fail: 'network' | 'hang' }
  | { method: string; path: string; answer: string; optional?: boolean };
export type Step = string | Scripted;

export const API_BASE = 'https://api.stripe.com';
export const SECRET_KEY = 'sk_test_51QvRtJ2eZvKYlo2CdoNotLeak';

export function loadStripeFixture(name: string): Fixture {
  return JSON.parse(
    readFileSync(new URL(`../fixtures/stripe/${name}.json`, import.meta.url), 'utf8'),
  ) as Fixture;
}

/** The recorded answer's body, for tests that build webhook events from it. */
export function recordedBody<T = Record<string, unknown>>(name: string): T {
  return loadStripeFixture(name).response.body as T;
}

export interface SentRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: string | null;
}

export interface StripeReplay {
  fetch: typeof fetch;
  /** every request the adapter sent, as Stripe would have received it */
  sent: SentRequest[];
  verify(): void;
}

const active: StripeReplay[] = [];

// Mismatches are collected rather than thrown inside fetch: the SDK would turn a thrown assertion into a connection
// error, and a test expecting that result would pass without noticing. Test files check them in afterEach.
export function verifyStripeReplays(): void {
  for (const replay of active.splice(0)) replay.verify();
}

async function bodyText(body: RequestInit['body']): Promise<string | null> {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string') return body;
  return new Response(body).text();
}

/** A fetch that answers the steps in order and checks each request against its recording. */
export function stripeReplay(...steps: Step[]): StripeReplay {
  const remaining = [...steps];
  const problems: string[] = [];
  const sent: SentRequest[] = [];

  const fakeFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input));
    const method = init?.method ?? 'GET';
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    const body = await bodyText(init?.body);
    const query = Object.fromEntries(url.searchParams);
    sent.push({ method, path: url.pathname, query, headers, body });
    const where = `${method} ${url.pathname}`;
    const step = remaining.shift();
    if (step === undefined) {
      problems.push(`unexpected request ${where}`);
      return new Response('{}', { status: 599 });
    }
    const expected = typeof step === 'string' ? loadStripeFixture(step).request : step;
    const label = typeof step === 'string' ? step : where;
    if (method !== expected.method) problems.push(`${label}: method ${method}, expected ${expected.method}`);
    if (url.origin !== API_BASE || url.pathname !== expected.path) {
      problems.push(`${label}: sent to ${url.origin}${url.pathname}, expected ${API_BASE}${expected.path}`);
    }
    if (headers['stripe-version'] !== STRIPE_API_VERSION) {
      problems.push(`${label}: Stripe-Version ${headers['stripe-version']}, expected ${STRIPE_API_VERSION}`);
    }
    if (headers.authorization !== `Bearer ${SECRET_KEY}`) problems.push(`${label}: wrong Authorization`);
    if (typeof step !== 'string' && 'answer' in step) {
      const { status, body: answer } = loadStripeFixture(step.answer).response;
      return new Response(JSON.stringify(answer), {
        status,
        headers: { 'content-type': 'application/json' },
      });
    }
    if (typeof step !== 'string') {
      if (step.fail === 'network') throw new TypeError('fetch failed');
      return new Promise<Response>((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () =>
          reject(new DOMException('This operation was aborted', 'AbortError')),
        );
      });
    }

    const fixture = loadStripeFixture(step);
    for (const [name, value] of Object.entries(fixture.request.headers)) {
      if (headers[name] !== value) {
        problems.push(`${label}: header ${name} is ${String(headers[name])}, expected ${value}`);
      }
    }
    if (!isDeepStrictEqual(query, fixture.request.query ?? {})) {
      problems.push(
        `${label}: query ${JSON.stringify(query)}, expected ${JSON.stringify(fixture.request.query)}`,
      );
    }
    const form = body === null ? null : Object.fromEntries(new URLSearchParams(body));
    if (!isDeepStrictEqual(form, fixture.request.form ?? null)) {
      problems.push(
        `${label}: form ${JSON.stringify(form)}, expected ${JSON.stringify(fixture.request.form)}`,
      );
    }
    return new Response(JSON.stringify(fixture.response.body), {
      status: fixture.response.status,
      headers: { 'content-type': 'application/json', 'request-id': `req_${step.replace(/\W/g, '')}` },
    });
  };

  const result: StripeReplay = {
    fetch: fakeFetch as typeof fetch,
    sent,
    verify() {
      expect(problems, 'requests that did not match their recording').toEqual([]);
      expect(
        remaining
          .filter((step) => typeof step === 'string' || !('optional' in step && step.optional === true))
          .map((step) => (typeof step === 'string' ? step : `${step.method} ${step.path}`)),
        'recorded exchanges never requested',
      ).toEqual([]);
    },
  };
  active.push(result);
  return result;
}

export function setupStripe(steps: Step[], overrides: Partial<StripeGatewayOptions> = {}) {
  const recording = stripeReplay(...steps);
  const logLines: string[] = [];
  // A plain pino logger, without the app's card scrubbing: the adapter itself must log nothing sensitive.
  const logger = pino({ level: 'warn' }, { write: (line: string) => void logLines.push(line) });
  const gateway = createStripeGateway({
    secretKey: SECRET_KEY,
    fetch: recording.fetch,
    timeoutMs: 50,
    logger,
    ...overrides,
  });
  return { gateway, logLines, recording };
}

export const VISA_PM = 'pm_1QvRtJ2eZvKYlo2Cw8aVisa';
export const CUSTOMER = 'cus_RhZk5n0pQ2xYvB';
export const ORDER_KEY = 'order_1_31_attempt_1';

/** The charge the recorded card_token exchanges answer: order 31 of organization 1, attempt 1. */
export function tokenCharge(overrides: Partial<ChargeRequest> = {}): ChargeRequest {
  return {
    amount: 5498,
    currency: 'USD',
    source: { kind: 'card_token', token: VISA_PM },
    storeForFuture: false,
    idempotencyKey: ORDER_KEY,
    description: 'Order 31 at Coffee Club',
    organizationId: 1,
    orderId: 31,
    attempt: 1,
    ...overrides,
  };
}

/** A rebill of the saved card, as the recorded rebill exchanges expect it. */
export function rebillCharge(overrides: Partial<ChargeRequest> = {}): ChargeRequest {
  return {
    amount: 1900,
    currency: 'USD',
    source: { kind: 'stored', token: VISA_PM, customerReference: CUSTOMER },
    storeForFuture: false,
    idempotencyKey: 'rebill_1_sub_7_cycle_2_attempt_1',
    description: 'Coffee Club subscription, cycle 2',
    organizationId: 1,
    ...overrides,
  };
}
