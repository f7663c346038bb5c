import type { Logger } from 'pino';
import { systemClock, type Clock } from '../clock.js';
import { PaypalTokenSchema } from './paypal-responses.js';

export interface PaypalClientOptions {
  clientId: string;
  clientSecret: string;
  /** https://api-m.sandbox.paypal.com or https://api-m.paypal.com */
  apiBase: string;
  fetch?: typeof fetch;
  clock?: Clock;
  /** Every call, the token call included, is abandoned after this long. */
  timeoutMs?: number;
  /** Operator warnings (rejected credentials, unexpected answers); never bodies, tokens or card data. */
  logger?: Pick<Logger, 'warn'>;
}

export interface PaypalRequest {
  /** PATCH takes a JSON Patch array as its body and answers 204 without one. */
  method: 'GET' | 'POST' | 'PATCH';
  /** e.g. /v2/checkout/orders; ids in it are already URL-encoded */
  path: string;
  body?: unknown;
  /** PayPal-Request-Id: PayPal answers a repeat with the first result instead of acting twice. */
  requestId?: string;
  /** return=representation makes order calls answer the payer, shipping and captures. */
  representation?: boolean;
}

export type PaypalAnswer =
  | { kind: 'answered'; status: number; body: unknown }
  /** nothing usable came back: unreachable, too slow, credentials refused, or an unreadable success */
  | { kind: 'unanswered'; reason: 'network' | 'timeout' | 'credentials' | 'unreadable' };

export interface PaypalClient {
  send(request: PaypalRequest): Promise<PaypalAnswer>;
}

export const DEFAULT_PAYPAL_TIMEOUT_MS = 20_000;

type Exchange =
  { kind: 'answered'; status: number; text: string } | { kind: 'unanswered'; reason: 'network' | 'timeout' };

type TokenResult = { ok: true; token: string } | { ok: false; answer: PaypalAnswer };

/**
 * PayPal REST calls with an OAuth2 client-credentials token (cached until shortly before it expires, fetched again
 * once when PayPal answers 401) and a timeout on every call. Failures come back as values, never as thrown errors,
 * and never carry the client secret, a token, or anything PayPal echoed.
 */
export function createPaypalClient(options: PaypalClientOptions): PaypalClient {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const clock = options.clock ?? systemClock;
  const timeoutMs = options.timeoutMs ?? DEFAULT_PAYPAL_TIMEOUT_MS;
  const apiBase = options.apiBase.replace(/\/+$/, '');
  const basic = Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64');

  let cached: { token: string; refreshAt: number } | null = null;
  // Concurrent calls wait for one token request instead of each fetching their own.
  let pending: Promise<TokenResult> | null = null;

  async function exchange(path: string, init: RequestInit): Promise<Exchange> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const response = await fetchImpl(`${apiBase}${path}`, { ...init, signal: controller.signal });
      // Reading the body is under the same timeout: a server can stall after the headers.
      const text = await response.text();
      return { kind: 'answered', status: response.status, text };
    } catch {
      // The error itself is dropped: a network library's message may quote the request.
      return { kind: 'unanswered', reason: controller.signal.aborted ? 'timeout' : 'network' };
    } finally {
      clearTimeout(timer);
    }
  }

  async function fetchToken(): Promise<TokenResult> {
    const result = await exchange('/v1/oauth2/token', {
      method: 'POST',
      headers: {
        Authorization: `Basic ${basic}`,
        'Content-Type': 'application/x-www-form-urlencoded',
        Accept: 'application/json',
      },
      body: 'grant_type=client_credentials',
    });
    if (result.kind === 'unanswered') return { ok: false, answer: result };
    if (result.status === 401 || result.status === 403) {
      options.logger?.warn(
        { paypal: { operation: 'oauth2/token', status: result.status } },
        'PayPal refused the client credentials: check PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET and PAYPAL_API_BASE (sandbox and live credentials differ)',
      );
      return { ok: false, answer: { kind: 'unanswered', reason: 'credentials' } };
    }
    if (result.status < 200 || result.status >= 300) {
      return { ok: false, answer: { kind: 'answered', status: result.status, body: null } };
    }
    const parsed = PaypalTokenSchema.safeParse(parseJson(result.text));
    if (!parsed.success) return { ok: false, answer: { kind: 'unanswered', reason: 'unreadable' } };
    const lifetimeSeconds = parsed.data.expires_in;
    // Renew a little early so a token never expires between our check and PayPal's.
    const marginSeconds = Math.min(300, lifetimeSeconds / 10);
    cached = {
      token: parsed.data.access_token,
      refreshAt: clock.now().getTime() + (lifetimeSeconds - marginSeconds) * 1000,
    };
    return { ok: true, token: parsed.data.access_token };
  }

  async function accessToken(): Promise<TokenResult> {
    if (cached !== null && clock.now().getTime() < cached.refreshAt) return { ok: true, token: cached.token };
    pending ??= fetchToken().finally(() => {
      pending = null;
    });
    return pending;
  }

  async function call(request: PaypalRequest, token: string): Promise<PaypalAnswer> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${token}`,
      Accept: 'application/json',
    };
    if (request.body !== undefined) headers['Content-Type'] = 'application/json';
    if (request.requestId !== undefined) headers['PayPal-Request-Id'] = request.requestId;
    if (request.representation === true) headers.Prefer = 'return=representation';
    const result = await exchange(request.path, {
      method: request.method,
      headers,
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    });
    if (result.kind === 'unanswered') return result;
    // An empty body reads as null, so a 204 No Content (an order PATCH) is a success, not an unreadable answer.
    const body = parseJson(result.text);
    if (result.status >= 200 && result.status < 300 && body === undefined) {
      return { kind: 'unanswered', reason: 'unreadable' };
    }
    return { kind: 'answered', status: result.status, body: body ?? null };
  }

  return {
    async send(request) {
      const first = await accessToken();
      if (!first.ok) return first.answer;
      const answer = await call(request, first.token);
      if (answer.kind !== 'answered' || answer.status !== 401) return answer;
      // PayPal revoked or expired the token early: fetch a new one and try once more.
      if (cached?.token === first.token) cached = null;
      const second = await accessToken();
      if (!second.ok) return second.answer;
      const retried = await call(request, second.token);
      if (retried.kind === 'answered' && retried.status === 401) {
        options.logger?.warn(
          { paypal: { operation: request.path, status: 401 } },
          'PayPal refused a freshly issued access token',
        );
        return { kind: 'unanswered', reason: 'credentials' };
      }
      return retried;
    },
  };
}

/** The body as JSON; undefined when it is not JSON, null when it is empty. */
function parseJson(text: string): unknown {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
