import { randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { withCardToken, type TypedCard } from './order-body.js';
import { injectJson, processorOf, processorOriginOf, type JsonResponse } from './test-app.js';

/**
 * Makes a token of a typed card at the test processor app serving beside `app` (the frame's POST /v1/tokens, from the
 * processor's own origin): what the page's framed card fields do before an order is sent.
 */
export async function tokenizeCard(
  app: FastifyInstance,
  typed: TypedCard,
  remoteAddress = '127.0.0.1',
): Promise<string> {
  const processor = processorOf(app);
  if (!processor) throw new Error('this app has no test processor beside it: make it with createTestApp');
  const answer = await injectJson(processor, {
    method: 'POST',
    url: '/v1/tokens',
    headers: { origin: processorOriginOf(app) ?? '' },
    payload: typed,
    remoteAddress,
  });
  if (answer.status !== 200) throw new Error(`tokens: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.token as string;
}

export interface ShopperSession {
  csrfToken: string;
  accessToken: string;
  get(path: string, query?: Record<string, string>, headers?: Record<string, string>): Promise<JsonResponse>;
  put(path: string, body: unknown, headers?: Record<string, string>): Promise<JsonResponse>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<JsonResponse>;
  patch(path: string, body: unknown): Promise<JsonResponse>;
}

/** The page's start-up handshake (CSRF token, then an access token), then calls like the page makes them. */
export async function shopperSession(
  app: FastifyInstance,
  organization: string,
  options: { testMode?: boolean; headers?: Record<string, string> } = {},
): Promise<ShopperSession> {
  const csrf = await injectJson(app, { method: 'POST', url: '/checkout/api/csrf', payload: {} });
  if (csrf.status !== 200) throw new Error(`csrf: ${csrf.status} ${JSON.stringify(csrf.body)}`);
  const csrfToken = csrf.body.csrfToken as string;
  const auth = await injectJson(app, {
    method: 'POST',
    url: '/checkout/api/authorize',
    headers: { 'csrf-token': csrfToken },
    payload: { organization, _is_vrio_checkout: 1 },
  });
  if (auth.status !== 200) throw new Error(`authorize: ${auth.status} ${JSON.stringify(auth.body)}`);
  const accessToken = auth.body.access_token as string;
  const headers = { authorization: `Bearer ${accessToken}`, 'csrf-token': csrfToken, ...options.headers };
  // The shopper's browser, as the processor sees it: its own address, so its per-address limits are each shopper's.
  const browserAddress = `10.${randomInt(256)}.${randomInt(256)}.${1 + randomInt(254)}`;
  const url = (path: string, query: Record<string, string> = {}) => {
    const params = new URLSearchParams({ ...query, ...(options.testMode ? { cypress: '1' } : {}) });
    const search = params.toString();
    return `/checkout/api/vrio/${path}${search ? `?${search}` : ''}`;
  };
  const withMarker = async (input: unknown) => {
    const body = await withCardToken(input, (typed) => tokenizeCard(app, typed, browserAddress));
    return body !== null && typeof body === 'object' && !Array.isArray(body)
      ? { ...body, _is_vrio_checkout: 1 }
      : body;
  };
  return {
    csrfToken,
    accessToken,
    get: (path, query, extra = {}) =>
      injectJson(app, { method: 'GET', url: url(path, query), headers: { ...headers, ...extra } }),
    put: async (path, body, extra = {}) =>
      injectJson(app, {
        method: 'PUT',
        url: url(path),
        headers: { ...headers, ...extra },
        payload: (await withMarker(body)) as object,
      }),
    post: async (path, body, extra = {}) =>
      injectJson(app, {
        method: 'POST',
        url: url(path),
        headers: { ...headers, ...extra },
        payload: (await withMarker(body)) as object,
      }),
    patch: async (path, body) =>
      injectJson(app, {
        method: 'PATCH',
        url: url(path),
        headers,
        payload: (await withMarker(body)) as object,
      }),
  };
}
