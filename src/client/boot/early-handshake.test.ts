import { afterEach, describe, expect, it, vi } from 'vitest';
import { handshakeFor, startEarlyHandshake } from './early-handshake.js';

const ok = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });

function pageWith(config: unknown): Document {
  const doc = document.implementation.createHTMLDocument('checkout');
  const script = doc.createElement('script');
  script.type = 'application/json';
  script.id = 'checkout-config';
  script.textContent = typeof config === 'string' ? config : JSON.stringify(config);
  doc.body.append(script);
  return doc;
}

const config = { api_base: '/checkout/api', organization: 'demo', test_mode: false };

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('startEarlyHandshake', () => {
  it('sends the CSRF call, then authorizes, from the raw config, and tells a late listener the token expiry', async () => {
    const paths: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
        paths.push(`${init.method} ${String(input)}`);
        return String(input).endsWith('/csrf')
          ? ok({ csrfToken: 'csrf-1', csrfTokenExpiry: 1800 })
          : ok({ access_token: 'token-1', token_type: 'Bearer', expires_in: 3600 });
      }),
    );
    const early = startEarlyHandshake(pageWith(config));
    expect(early).not.toBeNull();
    expect(paths).toEqual(['POST /checkout/api/csrf']);
    expect(await early?.http.start()).toBe(true);
    expect(paths).toEqual(['POST /checkout/api/csrf', 'POST /checkout/api/authorize']);
    const told: number[] = [];
    early?.onCsrfToken((expiry) => told.push(expiry));
    expect(told).toEqual([1800]);
  });

  it('starts nothing when the config is missing, broken or lacks what the calls need', () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    expect(startEarlyHandshake(document.implementation.createHTMLDocument('empty'))).toBeNull();
    expect(startEarlyHandshake(pageWith('{not json'))).toBeNull();
    expect(startEarlyHandshake(pageWith({ ...config, organization: 7 }))).toBeNull();
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe('handshakeFor', () => {
  it('hands over the early handshake only when the checked config names the same store', () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => ok({})),
    );
    const early = startEarlyHandshake(pageWith(config));
    expect(handshakeFor(early, config)).toBe(early);
    expect(handshakeFor(early, { ...config, organization: 'other' })).toBeNull();
    expect(handshakeFor(early, { ...config, test_mode: true })).toBeNull();
    expect(handshakeFor(null, config)).toBeNull();
  });
});
