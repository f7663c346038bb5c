import { describe, expect, it } from 'vitest';
import { approvalPageLanguage } from './approval-page-language.js';

const store = { default: 'en' as const, enabled: ['en', 'es', 'ar'] as const };

describe('approvalPageLanguage', () => {
  it("speaks the cart's language over the browser's", () => {
    expect(approvalPageLanguage({ cartLanguage: 'ar', acceptLanguage: 'es,en;q=0.5', store })).toBe('ar');
  });

  it('speaks the language the form was shown in over a language the cart took since', () => {
    expect(
      approvalPageLanguage({ requested: 'es', cartLanguage: 'ar', acceptLanguage: undefined, store }),
    ).toBe('es');
  });

  it("falls back to the browser's first language the store speaks, then to the store's default", () => {
    expect(approvalPageLanguage({ cartLanguage: null, acceptLanguage: 'ja,es;q=0.8', store })).toBe('es');
    expect(approvalPageLanguage({ cartLanguage: null, acceptLanguage: 'ja', store })).toBe('en');
  });

  it("speaks the browser's language for a payment it does not know", () => {
    expect(approvalPageLanguage({ cartLanguage: null, acceptLanguage: 'ja-JP', store: null })).toBe('ja');
    expect(approvalPageLanguage({ cartLanguage: null, acceptLanguage: undefined, store: null })).toBe('en');
  });
});
