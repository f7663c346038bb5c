import { describe, expect, it } from 'vitest';
import {
  createSecurityHeaders,
  isTlsRequest,
  pageCardProcessorOf,
  pageContentSecurityPolicy,
  type PageCardProcessor,
} from './security-headers.js';

describe('isTlsRequest', () => {
  const base = { remoteAddress: '81.2.69.160', forwardedProto: undefined, trustedProxies: ['10.0.0.0/8'] };

  it('trusts a TLS socket whatever the headers say', () => {
    expect(isTlsRequest({ ...base, socketEncrypted: true })).toBe(true);
    expect(isTlsRequest({ ...base, socketEncrypted: true, forwardedProto: 'http' })).toBe(true);
  });

  it('believes X-Forwarded-Proto (its first value) only from a trusted proxy', () => {
    const viaProxy = { ...base, socketEncrypted: false, remoteAddress: '10.0.0.5' };
    expect(isTlsRequest({ ...viaProxy, forwardedProto: 'https' })).toBe(true);
    expect(isTlsRequest({ ...viaProxy, forwardedProto: 'HTTPS , http' })).toBe(true);
    expect(isTlsRequest({ ...viaProxy, forwardedProto: ['https', 'http'] })).toBe(true);
    expect(isTlsRequest({ ...viaProxy, forwardedProto: 'http, https' })).toBe(false);
    expect(isTlsRequest({ ...viaProxy, forwardedProto: undefined })).toBe(false);
    expect(isTlsRequest({ ...base, socketEncrypted: false, forwardedProto: 'https' })).toBe(false);
    expect(
      isTlsRequest({ ...base, socketEncrypted: false, remoteAddress: undefined, forwardedProto: 'https' }),
    ).toBe(false);
  });
});

describe('pageContentSecurityPolicy', () => {
  it('allows no inline script and connects only to itself without an error-reporting DSN', () => {
    const policy = pageContentSecurityPolicy(null);
    expect(policy).toContain("script-src 'self';");
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).not.toContain('unsafe-eval');
    expect(policy).toContain("connect-src 'self';");
    expect(policy).toContain("frame-ancestors 'none'");
  });

  it('adds the origin of the DSN, without its key or path', () => {
    expect(pageContentSecurityPolicy('https://key@o1.ingest.example.com:8443/42')).toContain(
      "connect-src 'self' https://o1.ingest.example.com:8443;",
    );
  });
});

describe('pageContentSecurityPolicy and the card processor', () => {
  const directive = (policy: string, name: string) =>
    policy.split('; ').find((entry) => entry.split(' ')[0] === name) ?? null;

  it('frames nothing while the processor is unknown, and reports violations to the checkout', () => {
    const policy = pageContentSecurityPolicy(null);
    expect(directive(policy, 'frame-src')).toBe("frame-src 'none'");
    expect(directive(policy, 'report-uri')).toBe('report-uri /checkout/api/csp-reports');
    expect(directive(policy, 'report-to')).toBe('report-to csp');
  });

  it("frames the test processor's origin only, and nothing of Stripe's", () => {
    const policy = pageContentSecurityPolicy(null, {
      name: 'test',
      origin: 'http://127.0.0.1:3001/frame?x=1',
    });
    expect(directive(policy, 'frame-src')).toBe('frame-src http://127.0.0.1:3001');
    expect(directive(policy, 'script-src')).toBe("script-src 'self'");
    expect(directive(policy, 'connect-src')).toBe("connect-src 'self'");
    expect(policy).not.toContain('stripe');
  });

  it('lets Stripe.js in from js.stripe.com, its frames and its API, beside the DSN', () => {
    const policy = pageContentSecurityPolicy('https://key@o1.ingest.example.com/42', { name: 'stripe' });
    expect(directive(policy, 'script-src')).toBe("script-src 'self' https://js.stripe.com");
    expect(directive(policy, 'frame-src')).toBe('frame-src https://js.stripe.com https://hooks.stripe.com');
    expect(directive(policy, 'connect-src')).toBe(
      "connect-src 'self' https://o1.ingest.example.com https://api.stripe.com",
    );
    expect(directive(policy, 'default-src')).toBe("default-src 'self'");
  });

  it("allows the page's inline import map by its hash, beside Stripe.js when Stripe is on", () => {
    const policy = pageContentSecurityPolicy(null, { name: 'stripe' }, ["'sha256-abc='"]);
    expect(directive(policy, 'script-src')).toBe("script-src 'self' 'sha256-abc=' https://js.stripe.com");
  });

  it('names Stripe when its keys are set, else the test processor at its URL once known', () => {
    const stripe = { secretKey: 'sk_test_x', publishableKey: 'pk_test_x', webhookSecret: null };
    expect(
      pageCardProcessorOf({ stripe, testProcessor: { port: 3001, url: 'http://localhost:3001' } }),
    ).toEqual({
      name: 'stripe',
    });
    expect(
      pageCardProcessorOf({ stripe: null, testProcessor: { port: 3001, url: 'http://localhost:3001/' } }),
    ).toEqual({ name: 'test', origin: 'http://localhost:3001' });
    expect(pageCardProcessorOf({ stripe: null, testProcessor: { port: 0, url: null } })).toBeNull();
  });
});

describe('createSecurityHeaders', () => {
  function pageHeaders(apply: ReturnType<typeof createSecurityHeaders>) {
    const headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8' };
    const reply = {
      getHeader: (name: string) => headers[name],
      header: (name: string, value: string) => void (headers[name] = value),
      headers: (values: Record<string, string>) => void Object.assign(headers, values),
      removeHeader: (name: string) => void delete headers[name],
      hasHeader: (name: string) => name in headers,
    };
    const request = { url: '/checkout/abc', headers: {}, raw: { socket: { remoteAddress: '127.0.0.1' } } };
    apply(request as never, reply as never);
    return headers;
  }

  it('asks a getter for the processor on each page, so a listener bound later is framed', () => {
    let processor: PageCardProcessor | null = null;
    const apply = createSecurityHeaders({
      errorReportingDsn: null,
      trustedProxies: [],
      cardProcessor: () => processor,
    });
    expect(pageHeaders(apply)['content-security-policy']).toContain("frame-src 'none'");
    processor = { name: 'test', origin: 'http://127.0.0.1:40123' };
    expect(pageHeaders(apply)['content-security-policy']).toContain('frame-src http://127.0.0.1:40123;');
    expect(pageHeaders(apply)['reporting-endpoints']).toBe('csp="/checkout/api/csp-reports"');
  });
});
