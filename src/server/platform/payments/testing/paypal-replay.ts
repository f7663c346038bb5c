import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import pino from 'pino';
import { expect } from 'vitest';
import { ManualClock } from '../../clock.js';
import type { ChargeRequest } from '../gateway.js';
import { createPaypalGateway, type PaypalGatewayOptions } from '../paypal-gateway.js';

// The PayPal adapter's tests (payments/paypal-*.test.ts) replay recorded PayPal exchanges through this
// harness. Test code only: tsconfig.build.json leaves testing/ folders out of the build.

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
export type Scripted =
  | { method: string; path: string; fail: 'network' | 'hang' }
  | { method: string; path: string; status: number; text: string };
export type Step = string | Scripted;

const API_BASE = 'https://api-m.sandbox.paypal.com';
export const CLIENT_SECRET = 'EKtestSecret-do-not-leak';
export const BASIC = `Basic ${Buffer.from(`AZtestClientId-sandbox:${CLIENT_SECRET}`).toString('base64')}`;
export const ACCESS_TOKENS = ['A21AAFirstAccessTokenForTests', 'A21AASecondAccessTokenForTests'];

function loadFixture(name: string): Fixture {
  return JSON.parse(
    readFileSync(new URL(`../fixtures/paypal/${name}.json`, import.meta.url), 'utf8'),
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
// "network error" result, and a test expecting that result would pass without noticing. Each test file checks them
// with afterEach(verifyReplays).
export function verifyReplays(): void {
  for (const replay of active.splice(0)) replay.verify();
}

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
export function sentRequests(recording: Replay): Array<{ method: string; path: string; body: unknown }> {
  return recording.sent.map((line) => {
    const sent = JSON.parse(line) as { url: string; method: string; body: string | null };
    const url = new URL(sent.url);
    const body: unknown =
      sent.body === null || url.pathname === '/v1/oauth2/token' ? null : JSON.parse(sent.body);
    return { method: sent.method, path: url.pathname, body };
  });
}

export function setup(steps: Step[], overrides: Partial<PaypalGatewayOptions> = {}) {
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

export const expressComplete = {
  providerReference: '5O190127TN364715T',
  amount: 5498,
  approvedAmount: 5498,
  currency: 'USD',
  idempotencyKey: 'express-complete-7QmV2c9XwKd3',
};

export const ORDER_PATH = '/v2/checkout/orders/5O190127TN364715T';
export const CAPTURE_PATH = `${ORDER_PATH}/capture`;

/** Review flow: approved at 54.98, confirmed on our page at 61.23 once shipping and tax were added. */
export const confirmedTotal = { ...expressComplete, amount: 6123 };

export function cardCharge(overrides: Partial<ChargeRequest> = {}): ChargeRequest {
  return {
    amount: 5498,
    currency: 'USD',
    // A card an earlier version vaulted at PayPal, rebilled: cards typed on the page go to the card processor.
    source: { kind: 'stored', token: 'card:9pf17493xb1108442', customerReference: null },
    storeForFuture: false,
    idempotencyKey: 'order-ord_8d1-attempt-1',
    description: 'Coffee Club order',
    ...overrides,
  };
}

/** Log lines without the numbers pino adds itself (time, pid), which can contain any 3 digits by chance. */
export const withoutLogStamps = (lines: readonly string[]) =>
  lines.map((line) => line.replace(/"(time|pid)":\d+,?/g, ''));
