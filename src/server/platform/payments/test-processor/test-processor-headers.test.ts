import { describe, expect, it } from 'vitest';
import { framedPagePolicy, testProcessorHeaders } from './test-processor-headers.js';

describe('testProcessorHeaders', () => {
  it('lets the checkout origin alone frame the pages, with no X-Frame-Options to forbid it', () => {
    const headers = testProcessorHeaders('framed-page', 'https://shop.example');
    expect(headers['content-security-policy']).toBe(framedPagePolicy('https://shop.example'));
    expect(headers['content-security-policy']).toContain('frame-ancestors https://shop.example');
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(headers['x-frame-options']).toBeUndefined();
    expect(headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' });
  });

  it("allows the pages' own inline style by its hash, and no other", () => {
    const hash = "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='";
    const policy = testProcessorHeaders('framed-page', 'https://shop.example', [hash])[
      'content-security-policy'
    ];
    expect(policy).toContain(`style-src 'self' ${hash};`);
    expect(policy).not.toContain('unsafe-inline');
  });

  it('lets nobody frame anything else', () => {
    expect(testProcessorHeaders('resource', 'https://shop.example')).toMatchObject({
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    });
  });
});
