import { describe, expect, it } from 'vitest';
import { isTlsRequest, pageContentSecurityPolicy } from './security-headers.js';

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
