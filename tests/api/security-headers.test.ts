import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { createLogger } from '../../src/server/platform/logging.js';
import { CONFIG_PLACEHOLDER } from '../../src/server/modules/page/page-service.js';
import { anotherInstance } from '../helpers/another-instance.js';
import { createStore } from '../helpers/store.js';
import { createTestApp, TEST_PROCESSOR_URL, type TestApp } from '../helpers/test-app.js';

/** The page's policy, framing the card fields of `frameSrc` (the card processor's origin) and nothing else. */
const pagePolicy = (frameSrc: string) =>
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; connect-src 'self'; " +
  `frame-src ${frameSrc}; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; ` +
  "frame-ancestors 'none'; report-uri /checkout/api/csp-reports; report-to csp";
/** The test apps' page: their card processor is the test processor at TEST_PROCESSOR_URL; no page manifest. */
const PAGE_POLICY = pagePolicy(TEST_PROCESSOR_URL);
const RESOURCE_POLICY = "default-src 'none'; frame-ancestors 'none'";

let t: TestApp;
/** The same app with a built page on disk (assets and images), as `npm start` serves it. */
let built: FastifyInstance;
let cartToken: string;
let apiKey: string;

beforeAll(async () => {
  t = await createTestApp();
  const store = await createStore(t.app, t.db);
  apiKey = store.org.apiKey;
  cartToken = await store.cart([{ offer_id: store.offers.beans.id }]);

  const clientDir = mkdtempSync(path.join(tmpdir(), 'sc-client-'));
  writeFileSync(
    path.join(clientDir, 'index.html'),
    `<!doctype html><html lang="en"><head><title>Secure Checkout</title>${CONFIG_PLACEHOLDER}` +
      '<script type="module" src="/checkout/assets/app-1a2b3c.js"></script></head><body></body></html>',
  );
  mkdirSync(path.join(clientDir, 'assets'));
  writeFileSync(path.join(clientDir, 'assets', 'app-1a2b3c.js'), 'console.log("checkout");\n');
  mkdirSync(path.join(clientDir, 'images'));
  writeFileSync(path.join(clientDir, 'images', 'mug.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  built = await buildApp({
    config: t.config,
    db: t.db,
    clock: t.clock,
    logger: createLogger({ level: 'silent' }),
    tokenSecrets: { current: t.tokenSecret, previous: null },
    clientDir,
  });
  await built.ready();
});

afterAll(async () => {
  await built.close();
  await t.close();
});

const COMMON = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'permissions-policy':
    'accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(self "https://js.stripe.com"), usb=()',
};

async function headersOf(request: InjectOptions, app: FastifyInstance = t.app) {
  const response = await app.inject(request);
  return { status: response.statusCode, headers: response.headers };
}

describe('security headers', () => {
  it('give the page a strict Content-Security-Policy: no inline script, never framed', async () => {
    for (const url of [
      `/checkout/${cartToken}`,
      `/checkout?cart_token=${cartToken}`,
      '/checkout/unknown-token',
    ]) {
      const { status, headers } = await headersOf({ method: 'GET', url }, built);
      expect([200, 404]).toContain(status);
      expect(headers['content-type']).toBe('text/html; charset=utf-8');
      expect(headers['content-security-policy'], url).toBe(PAGE_POLICY);
      expect(headers['reporting-endpoints'], url).toBe('csp="/checkout/api/csp-reports"');
      expect(headers).toMatchObject(COMMON);
      expect(headers['x-powered-by']).toBeUndefined();
    }
  });

  it("frame the card processor's fields: the test processor's origin, or Stripe's with Stripe.js", async () => {
    const testProcessor = await anotherInstance(t, {
      config: { testProcessor: { port: 4001, url: 'https://cards.checkout.test:4001/' } },
    });
    const stripe = await anotherInstance(t, {
      config: { stripe: { secretKey: 'sk_test_0123', publishableKey: 'pk_test_0123', webhookSecret: null } },
    });
    try {
      const framed = await headersOf({ method: 'GET', url: '/checkout/unknown' }, testProcessor);
      expect(framed.headers['content-security-policy']).toBe(pagePolicy('https://cards.checkout.test:4001'));
      const withStripe = await headersOf({ method: 'GET', url: '/checkout/unknown' }, stripe);
      expect(withStripe.headers['content-security-policy']).toBe(
        pagePolicy('https://js.stripe.com https://hooks.stripe.com')
          .replace("script-src 'self'", "script-src 'self' https://js.stripe.com")
          .replace("connect-src 'self'", "connect-src 'self' https://api.stripe.com"),
      );
      // Only the page is framed or scripted: the API's answers still load nothing.
      const api = await headersOf({ method: 'GET', url: '/checkout/api/docs' }, stripe);
      expect(api.headers['content-security-policy']).toBe(RESOURCE_POLICY);
      expect(api.headers['reporting-endpoints']).toBeUndefined();
    } finally {
      await testProcessor.close();
      await stripe.close();
    }
  });

  it('let the page report errors to the configured error-reporting origin, and nowhere else', async () => {
    const reporting = await anotherInstance(t, {
      config: { errorReportingDsn: 'https://public-key@o42.ingest.errors.example.com/7' },
    });
    try {
      const { headers } = await headersOf({ method: 'GET', url: '/checkout/unknown' }, reporting);
      expect(headers['content-security-policy']).toBe(
        PAGE_POLICY.replace("connect-src 'self'", "connect-src 'self' https://o42.ingest.errors.example.com"),
      );
      expect(headers['content-security-policy']).not.toContain('public-key');
    } finally {
      await reporting.close();
    }
  });

  it('give every JSON answer, success or error, a policy that loads nothing, and no caching', async () => {
    const requests: [InjectOptions, number][] = [
      [{ method: 'POST', url: '/checkout/api/csrf', payload: {} }, 200],
      [
        {
          method: 'GET',
          url: '/checkout/api/merchant/offers',
          headers: { authorization: `Bearer ${apiKey}` },
        },
        200,
      ],
      [{ method: 'GET', url: '/checkout/api/merchant/offers' }, 401],
      [{ method: 'POST', url: '/checkout/api/authorize', payload: { organization: 'x' } }, 403],
      [{ method: 'GET', url: `/checkout/api/vrio/carts/${cartToken}` }, 401],
      [{ method: 'GET', url: '/checkout/api/nothing' }, 404],
      [
        {
          method: 'POST',
          url: '/checkout/api/csrf',
          headers: { 'content-type': 'application/json' },
          payload: '{',
        },
        400,
      ],
      [
        {
          method: 'POST',
          url: '/checkout/api/csrf',
          headers: { 'content-type': 'text/plain' },
          payload: 'x',
        },
        415,
      ],
      [{ method: 'POST', url: '/checkout/api/csrf', payload: { pad: 'x'.repeat(70_000) } }, 413],
      [{ method: 'GET', url: '/checkout/api/merchant/offers/%E0%A4%A' }, 400],
      [{ method: 'GET', url: '/checkout/api/docs' }, 200],
    ];
    for (const [request, expected] of requests) {
      const { status, headers } = await headersOf(request);
      const label = `${request.method} ${request.url}`;
      expect(status, label).toBe(expected);
      expect(headers['content-security-policy'], label).toBe(RESOURCE_POLICY);
      expect(headers, label).toMatchObject({ ...COMMON, 'cache-control': 'no-store' });
      expect(headers['x-powered-by'], label).toBeUndefined();
    }
    const health = await headersOf({ method: 'GET', url: '/healthz' });
    expect(health.headers).toMatchObject({ ...COMMON, 'content-security-policy': RESOURCE_POLICY });
  });

  it('cover assets and images, keeping their long-lived caching', async () => {
    const script = await headersOf({ method: 'GET', url: '/checkout/assets/app-1a2b3c.js' }, built);
    expect(script.status).toBe(200);
    expect(script.headers).toMatchObject({ ...COMMON, 'content-security-policy': RESOURCE_POLICY });
    expect(script.headers['cache-control']).toContain('immutable');
    const image = await headersOf({ method: 'GET', url: '/checkout/images/mug.svg' }, built);
    expect(image.status).toBe(200);
    // An SVG opened on its own may not run script: it gets the policy that loads nothing.
    expect(image.headers).toMatchObject({ ...COMMON, 'content-security-policy': RESOURCE_POLICY });
    const missing = await headersOf({ method: 'GET', url: '/checkout/assets/nope.js' }, built);
    expect(missing.status).toBe(404);
    expect(missing.headers).toMatchObject(COMMON);
  });

  it('add Strict-Transport-Security only when the shopper came over TLS', async () => {
    expect(
      (await headersOf({ method: 'GET', url: '/healthz' })).headers['strict-transport-security'],
    ).toBeUndefined();
    // Anyone can send X-Forwarded-Proto: it counts only from a trusted proxy.
    const spoofed = await headersOf({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-forwarded-proto': 'https' },
      remoteAddress: '81.2.69.160',
    });
    expect(spoofed.headers['strict-transport-security']).toBeUndefined();

    const proxied = await anotherInstance(t, { config: { trustedProxies: ['10.0.0.0/8'] } });
    try {
      const viaProxy = (proto: string) =>
        headersOf(
          {
            method: 'GET',
            url: `/checkout/${cartToken}`,
            headers: { 'x-forwarded-proto': proto },
            remoteAddress: '10.1.2.3',
          },
          proxied,
        );
      expect((await viaProxy('https')).headers['strict-transport-security']).toBe(
        'max-age=63072000; includeSubDomains',
      );
      expect((await viaProxy('https, http')).headers['strict-transport-security']).toBe(
        'max-age=63072000; includeSubDomains',
      );
      expect((await viaProxy('http')).headers['strict-transport-security']).toBeUndefined();
    } finally {
      await proxied.close();
    }
  });
});
