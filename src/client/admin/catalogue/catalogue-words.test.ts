import { describe, expect, it } from 'vitest';
import { discountText, intervalText, usesText } from './catalogue-words.js';

describe('the catalogue’s words', () => {
  it('says a percent code and a fixed code', () => {
    expect(discountText({ kind: 'percent', percent_off: 20, amount_off: null }, 'USD')).toBe('20 %');
    expect(discountText({ kind: 'fixed', percent_off: null, amount_off: 5 }, 'USD')).toBe('$5.00 off');
    expect(discountText({ kind: 'fixed', percent_off: null, amount_off: 500 }, 'JPY')).toBe('¥500 off');
  });

  it("says a code's use against its limit, or its uses alone", () => {
    expect(usesText({ usage_count: 12, usage_limit: 100 })).toBe('12 of 100');
    expect(usesText({ usage_count: 12, usage_limit: null })).toBe('12 uses');
    expect(usesText({ usage_count: 1, usage_limit: null })).toBe('1 use');
  });

  it('says an interval', () => {
    expect(intervalText(1)).toBe('every day');
    expect(intervalText(30)).toBe('every 30 days');
  });
});
