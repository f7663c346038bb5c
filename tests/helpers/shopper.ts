import type { FastifyInstance } from 'fastify';
import { injectJson, type JsonResponse } from './test-app.js';

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
  const url = (path: string, query: Record<string, string> = {}) => {
    const params = new URLSearchParams({ ...query, ...(options.testMode ? { cypress: '1' } : {}) });
    const search = params.toString();
    return `/checkout/api/vrio/${path}${search ? `?${search}` : ''}`;
  };
  const withMarker = (body: unknown) =>
    body !== null && typeof body === 'object' && !Array.isArray(body)
      ? { ...body, _is_vrio_checkout: 1 }
      : body;
  return {
    csrfToken,
    accessToken,
    get: (path, query, extra = {}) =>
      injectJson(app, { method: 'GET', url: url(path, query), headers: { ...headers, ...extra } }),
    put: (path, body, extra = {}) =>
      injectJson(app, {
        method: 'PUT',
        url: url(path),
        headers: { ...headers, ...extra },
        payload: withMarker(body) as object,
      }),
    post: (path, body, extra = {}) =>
      injectJson(app, {
        method: 'POST',
        url: url(path),
        headers: { ...headers, ...extra },
        payload: withMarker(body) as object,
      }),
    patch: (path, body) =>
      injectJson(app, { method: 'PATCH', url: url(path), headers, payload: withMarker(body) as object }),
  };
}
