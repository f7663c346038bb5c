import { describe, expect, it } from 'vitest';
import { cspViolationsOf, directiveLabel, MAX_REPORTS_PER_BODY, scrubReportUrl } from './csp-reports.js';

const CART = 'Ab3dEf6hIj9kLm2nOp5qRs8t';

describe('scrubReportUrl', () => {
  it('drops queries and fragments and hides cart, link and gift tokens in paths', () => {
    expect(scrubReportUrl(`https://shop.example/checkout/${CART}?cart_token=${CART}&zip=73301#pay`)).toBe(
      'https://shop.example/checkout/[token]',
    );
    expect(scrubReportUrl('https://shop.example/checkout/__c__spring-sale')).toBe(
      'https://shop.example/checkout/[token]',
    );
    expect(scrubReportUrl('https://shop.example/checkout/__g__ABCDEFGHIJKLMNOPQRSTUV')).toBe(
      'https://shop.example/checkout/[token]',
    );
    expect(scrubReportUrl('https://shop.example/checkout/assets/index-Dji13JO7.js')).toBe(
      'https://shop.example/checkout/assets/index-Dji13JO7.js',
    );
  });

  it('masks a card number in a path, and keeps the keywords browsers report instead of a URL', () => {
    expect(scrubReportUrl('https://evil.example/c/4111-1111-1111-1111')).toBe(
      'https://evil.example/c/[card ••••1111]',
    );
    expect(scrubReportUrl('inline')).toBe('inline');
    expect(scrubReportUrl('eval')).toBe('eval');
    expect(scrubReportUrl('data:text/javascript,alert(1)')).toBe('data:');
    expect(scrubReportUrl('not a url')).toBe('[not a URL]');
    expect(scrubReportUrl(42)).toBeNull();
  });
});

describe('directiveLabel', () => {
  it('is a known directive name, or other', () => {
    expect(directiveLabel('script-src-elem')).toBe('script-src-elem');
    expect(directiveLabel("script-src 'self'")).toBe('script-src');
    expect(directiveLabel('FRAME-SRC')).toBe('frame-src');
    expect(directiveLabel('made-up-1')).toBe('other');
    expect(directiveLabel(undefined)).toBe('other');
  });
});

describe('cspViolationsOf', () => {
  it("reads report-uri's body", () => {
    const report = {
      'csp-report': {
        'document-uri': `https://shop.example/checkout/${CART}`,
        'violated-directive': 'script-src-elem',
        'effective-directive': 'script-src-elem',
        'blocked-uri': 'https://cdn.evil.example/skim.js?k=1',
        'line-number': 3,
        disposition: 'enforce',
        'script-sample': '',
      },
    };
    expect(cspViolationsOf(report)).toEqual([
      {
        directive: 'script-src-elem',
        blocked: 'https://cdn.evil.example/skim.js',
        document: 'https://shop.example/checkout/[token]',
        source: null,
        line: 3,
        column: null,
        disposition: 'enforce',
        sample: null,
      },
    ]);
  });

  it("reads the Reporting API's batch, csp-violation reports only, at most a bounded number", () => {
    const violation = {
      type: 'csp-violation',
      url: `https://shop.example/checkout/${CART}`,
      body: {
        documentURL: `https://shop.example/checkout/${CART}`,
        effectiveDirective: 'frame-src',
        blockedURL: 'https://frames.evil.example/pay',
        sample: 'card 4111 1111 1111 1111',
        lineNumber: 1,
        columnNumber: 9,
        disposition: 'enforce',
      },
    };
    const parsed = cspViolationsOf([violation, { type: 'deprecation', body: {} }]);
    expect(parsed).toEqual([
      {
        directive: 'frame-src',
        blocked: 'https://frames.evil.example/pay',
        document: 'https://shop.example/checkout/[token]',
        source: null,
        line: 1,
        column: 9,
        disposition: 'enforce',
        sample: 'card [card ••••1111]',
      },
    ]);
    expect(cspViolationsOf(Array.from({ length: 50 }, () => violation))).toHaveLength(MAX_REPORTS_PER_BODY);
  });

  it('is null for a body of neither shape', () => {
    expect(cspViolationsOf({ hello: 1 })).toBeNull();
    expect(cspViolationsOf('x')).toBeNull();
  });
});
