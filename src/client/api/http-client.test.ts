import { describe, expect, it, vi } from 'vitest';
import { CartSchema } from '../../contract/cart.js';
import { cartFixture } from '../testing/fixtures.js';
import { NO_RESPONSE_MESSAGE, shopperMessageOf } from '../../domain/api-error-catalogue.js';
import { fallbackI18n } from '../i18n/fallback-i18n.js';
import { ApiRequestError, createHttpClient, type HttpClientOptions } from './http-client.js';

/** The English every component test speaks without a page's provider (tests/helpers/client-setup.ts). */
const say: Parameters<typeof shopperMessageOf>[1] = (key, values) => fallbackI18n()!._(key, values);

const cartSchema = async () => CartSchema;

interface Call {
  url: string;
  init: RequestInit;
}

function server(answers: Record<string, (call: Call) => Response | Promise<Response>>) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const call = { url: String(input), init };
    calls.push(call);
    const path = new URL(call.url, 'http://localhost').pathname;
    const answer = answers[`${init.method ?? 'GET'} ${path}`];
    if (!answer)
      return new Response(JSON.stringify({ status: 404, code: 'x', message: 'No route.' }), { status: 404 });
    return answer(call);
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}

const ok = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
const handshake = {
  'POST /checkout/api/csrf': () => ok({ csrfToken: 'csrf-1', csrfTokenExpiry: 3600 }),
  'POST /checkout/api/authorize': () =>
    ok({ access_token: 'token-1', token_type: 'Bearer', expires_in: 3600 }),
};
const cart = cartFixture();

/** The handshake's CSRF answer, or the browser's error for no answer at all while `network.down`. */
const csrfUnless = (network: { down: boolean }) => () => {
  if (network.down) throw new TypeError('Failed to fetch');
  return handshake['POST /checkout/api/csrf']();
};

function client(fetch: typeof globalThis.fetch, options: Partial<HttpClientOptions> = {}) {
  return createHttpClient({
    apiBase: '/checkout/api',
    organization: 'demo',
    testMode: false,
    fetch,
    ...options,
  });
}

const headerOf = (call: Call | undefined, name: string) =>
  (call?.init.headers as Record<string, string> | undefined)?.[name];

describe('start-up', () => {
  it('gets a CSRF token, then authorizes as the organization with it', async () => {
    const { fetch, calls } = server(handshake);
    const http = client(fetch);
    expect(await http.start()).toBe(true);
    expect(calls.map((call) => new URL(call.url, 'http://x').pathname)).toEqual([
      '/checkout/api/csrf',
      '/checkout/api/authorize',
    ]);
    expect(JSON.parse(String(calls[0]?.init.body))).toMatchObject({
      csrfTokenExpiry: 3600,
      _is_vrio_checkout: 1,
    });
    expect(JSON.parse(String(calls[1]?.init.body))).toMatchObject({ organization: 'demo' });
    expect(headerOf(calls[1], 'CSRF-Token')).toBe('csrf-1');
    expect(http.auth).toMatchObject({ access_token: 'token-1', token_type: 'Bearer', csrfToken: 'csrf-1' });
  });

  it('reports each new CSRF token expiry so the next one can be planned', async () => {
    const onCsrfToken = vi.fn();
    const { fetch } = server(handshake);
    await client(fetch, { onCsrfToken }).start();
    expect(onCsrfToken).toHaveBeenCalledWith(3600);
  });

  it('stores the authorization error as text when there is no response', async () => {
    const fetch = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof globalThis.fetch;
    const http = client(fetch);
    expect(await http.start()).toBe(false);
    expect(http.auth.error).toBe('Failed to fetch');
    // The page says it in the shopper's words, not the browser's.
    expect(http.startError).toBe(NO_RESPONSE_MESSAGE);
  });

  it("stores 'No error data provided' when the failed answer has no body", async () => {
    const { fetch } = server({ 'POST /checkout/api/csrf': () => new Response(null, { status: 500 }) });
    const http = client(fetch);
    await http.start();
    expect(http.auth.error).toBe('No error data provided');
    // The stored error keeps the catalogue's text; the shopper reads what to do.
    expect(http.startError).toBe('No error data provided');
    expect(shopperMessageOf(http.startError ?? '', say)).toMatch(/^The store could not start this checkout/);
  });

  it("stores the answer's message when authorization is refused", async () => {
    const { fetch } = server({
      ...handshake,
      'POST /checkout/api/authorize': () =>
        ok({ status: 404, code: 'organization_not_found', message: 'This store could not be found.' }, 404),
    });
    const http = client(fetch);
    await http.start();
    expect(http.auth.error).toBe('This store could not be found.');
    expect(http.startError).toBe('This store could not be found.');
  });

  it('tells the shopper the store could not be reached until a start succeeds', async () => {
    const network = { down: true };
    const { fetch } = server({
      'POST /checkout/api/csrf': csrfUnless(network),
      'POST /checkout/api/authorize': handshake['POST /checkout/api/authorize'],
    });
    const http = client(fetch);
    expect(http.startError).toBeNull();
    expect(await http.start()).toBe(false);
    expect(http.startError).toBe(NO_RESPONSE_MESSAGE);
    network.down = false;
    expect(await http.start()).toBe(true);
    expect(http.startError).toBeNull();
  });
});

describe('request', () => {
  it("fails locally with 401 'No access token requested' before start-up", async () => {
    const { fetch, calls } = server(handshake);
    const http = client(fetch);
    const error = await http.request({ method: 'GET', path: 'carts/x', schema: cartSchema }).catch((e) => e);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error.failure).toMatchObject({ status: 401, message: 'No access token requested' });
    expect(calls).toHaveLength(0);
  });

  it('fails locally with the stored authorization error after a failed start', async () => {
    const { fetch } = server({
      'POST /checkout/api/csrf': () => ok({ status: 429, code: 'slow', message: 'Too many attempts.' }, 429),
    });
    const http = client(fetch);
    await http.start();
    const error = await http.request({ method: 'GET', path: 'carts/x', schema: cartSchema }).catch((e) => e);
    expect(error.failure).toMatchObject({ status: 401, message: 'Too many attempts.' });
  });

  it('sends the authorization and CSRF headers, same-origin credentials, and parses the answer', async () => {
    const { fetch, calls } = server({
      ...handshake,
      [`GET /checkout/api/vrio/carts/${cart.cart_token}`]: () => ok(cart),
    });
    const http = client(fetch);
    await http.start();
    const answer = await http.request({
      method: 'GET',
      path: `carts/${cart.cart_token}`,
      schema: cartSchema,
    });
    expect(answer.cart_token).toBe(cart.cart_token);
    const call = calls.at(-1);
    expect(headerOf(call, 'authorization')).toBe('Bearer token-1');
    expect(headerOf(call, 'CSRF-Token')).toBe('csrf-1');
    expect(call?.init.credentials).toBe('same-origin');
    expect(call?.init.body).toBeUndefined();
  });

  it('asks every call, handshake included, to answer in the page’s language as it is now', async () => {
    const { fetch, calls } = server({
      ...handshake,
      [`GET /checkout/api/vrio/carts/${cart.cart_token}`]: () => ok(cart),
    });
    const page = { language: 'es' };
    const http = client(fetch, { language: () => page.language });
    await http.start();
    await http.request({ method: 'GET', path: `carts/${cart.cart_token}`, schema: cartSchema });
    expect(calls.map((call) => headerOf(call, 'accept-language'))).toEqual(['es', 'es', 'es']);
    // The shopper switches the page to French: the next call asks for French.
    page.language = 'fr';
    await http.request({ method: 'GET', path: `carts/${cart.cart_token}`, schema: cartSchema });
    expect(headerOf(calls.at(-1), 'accept-language')).toBe('fr');
  });

  it('takes the page’s language from <html lang> when not told', async () => {
    const { fetch, calls } = server(handshake);
    document.documentElement.lang = 'pt-BR';
    try {
      await client(fetch).start();
    } finally {
      document.documentElement.lang = '';
    }
    expect(headerOf(calls[0], 'accept-language')).toBe('pt-BR');
  });

  it('adds the checkout marker (and the visitor IP when known) to non-GET bodies', async () => {
    const { fetch, calls } = server({
      ...handshake,
      'PUT /checkout/api/vrio/carts/T/quantity': () => ok(cart),
    });
    const http = client(fetch);
    await http.start();
    (http.auth as { ip_address: string | null }).ip_address = '203.0.114.7';
    await http.request({
      method: 'PUT',
      path: 'carts/T/quantity',
      body: { id: 1, quantity: 2 },
      schema: cartSchema,
    });
    expect(JSON.parse(String(calls.at(-1)?.init.body))).toEqual({
      id: 1,
      quantity: 2,
      _is_vrio_checkout: 1,
      ip_address: '203.0.114.7',
    });
  });

  it('adds cypress=1 to every call in test mode', async () => {
    const { fetch, calls } = server({ ...handshake, 'GET /checkout/api/vrio/carts/T': () => ok(cart) });
    const http = client(fetch, { testMode: true });
    await http.start();
    await http.request({ method: 'GET', path: 'carts/T', query: { a: 'b' }, schema: cartSchema });
    expect(calls.every((call) => new URL(call.url, 'http://x').searchParams.get('cypress') === '1')).toBe(
      true,
    );
    expect(calls.at(-1)?.url).toBe('/checkout/api/vrio/carts/T?a=b&cypress=1');
  });

  it('authorizes afresh once after a 401 and retries the call', async () => {
    let cartCalls = 0;
    const { fetch, calls } = server({
      ...handshake,
      'GET /checkout/api/vrio/carts/T': () => {
        cartCalls += 1;
        return cartCalls === 1
          ? ok({ status: 401, code: 'access_token_expired', message: 'Expired.' }, 401)
          : ok(cart);
      },
    });
    const http = client(fetch);
    await http.start();
    const answer = await http.request({ method: 'GET', path: 'carts/T', schema: cartSchema });
    expect(answer.cart_token).toBe(cart.cart_token);
    expect(calls.filter((call) => call.url.endsWith('/authorize'))).toHaveLength(2);
    expect(http.auth.error).toBeNull();
  });

  it("stores the refusal ('Unauthorized' without data) when the fresh authorization does not help", async () => {
    const { fetch, calls } = server({
      ...handshake,
      'GET /checkout/api/vrio/carts/T': () => new Response(null, { status: 403 }),
    });
    const http = client(fetch);
    await http.start();
    const error = await http.request({ method: 'GET', path: 'carts/T', schema: cartSchema }).catch((e) => e);
    expect(error.failure).toMatchObject({ status: 403, message: 'Unauthorized' });
    expect(http.auth.error).toBe('Unauthorized');
    // one fresh authorization only, no loop
    expect(calls.filter((call) => call.url.endsWith('/carts/T'))).toHaveLength(2);
  });

  it('says the store could not be reached when the fresh authorization after a 401 gets no answer', async () => {
    const network = { down: false };
    const { fetch } = server({
      'POST /checkout/api/csrf': csrfUnless(network),
      'POST /checkout/api/authorize': handshake['POST /checkout/api/authorize'],
      'GET /checkout/api/vrio/carts/T': () =>
        ok({ status: 401, code: 'access_token_expired', message: 'Expired.' }, 401),
    });
    const http = client(fetch);
    await http.start();
    network.down = true;
    const error = await http.request({ method: 'GET', path: 'carts/T', schema: cartSchema }).catch((e) => e);
    expect(error.failure).toMatchObject({ status: 401, message: NO_RESPONSE_MESSAGE });
    // The stored error stays the browser's text (docs/checkout-rules.md#error-catalogue).
    expect(http.auth.error).toBe('Failed to fetch');
  });

  it('fails with status 500 and the raw error when there is no response', async () => {
    let first = true;
    const fetch = vi.fn(async (input: RequestInfo | URL) => {
      if (String(input).includes('/vrio/'))
        throw new TypeError('NetworkError when attempting to fetch resource.');
      if (first) {
        first = false;
        return ok({ csrfToken: 'c', csrfTokenExpiry: 3600 });
      }
      return ok({ access_token: 'a', token_type: 'Bearer', expires_in: 60 });
    }) as unknown as typeof globalThis.fetch;
    const http = client(fetch);
    await http.start();
    const error = await http.request({ method: 'GET', path: 'carts/T', schema: cartSchema }).catch((e) => e);
    expect(error.failure).toMatchObject({
      status: 500,
      code: 'no_response',
      cause: expect.stringContaining('NetworkError'),
    });
  });

  it("keeps an error answer's status, code, message and fields", async () => {
    const { fetch } = server({
      ...handshake,
      'PUT /checkout/api/vrio/carts/T/discount_code': () =>
        ok(
          { status: 422, code: 'discount_code_expired', message: 'This code expired on September 1, 2024.' },
          422,
        ),
    });
    const http = client(fetch);
    await http.start();
    const error = await http
      .request({
        method: 'PUT',
        path: 'carts/T/discount_code',
        body: { discount_code: 'OLD' },
        schema: cartSchema,
      })
      .catch((e) => e);
    expect(error.failure).toEqual({
      status: 422,
      code: 'discount_code_expired',
      message: 'This code expired on September 1, 2024.',
    });
  });

  it('refuses an answer that does not match the contract', async () => {
    const { fetch } = server({
      ...handshake,
      'GET /checkout/api/vrio/carts/T': () => ok({ cart_token: 'T' }),
    });
    const http = client(fetch);
    await http.start();
    const error = await http.request({ method: 'GET', path: 'carts/T', schema: cartSchema }).catch((e) => e);
    expect(error.failure.code).toBe('invalid_response');
  });
});
