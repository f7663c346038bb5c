import { setupI18n } from '@lingui/core';
import { compileMessageOrThrow } from '@lingui/message-utils/compileMessage';
import { describe, expect, it } from 'vitest';
import { readShownCounts, withCountsShown, writeCount } from './shown-counts.js';

/** A message compiled as the pages' are, said with the values a page passes. */
function sayOnPage(message: string, values: Record<string, number | string>, language = 'en') {
  const locale = language === 'en' ? 'en-US' : language;
  const i18n = setupI18n({
    locale: language,
    messages: { [language]: { m: readShownCounts(compileMessageOrThrow(message)) } },
  });
  return i18n._('m', withCountsShown(values, locale));
}

describe('a count on a page', () => {
  it('is written as Intl writes it, in every language the pages speak', () => {
    for (const locale of ['en-US', 'es', 'fr', 'de', 'it', 'pt-BR', 'nl', 'ja', 'ar']) {
      for (const count of [0, 1, 7, 30, 999, 1000, 1234, 1_000_000, 2.5]) {
        expect(writeCount(count, locale)).toBe(new Intl.NumberFormat(locale).format(count));
      }
    }
  });

  it("reads the plural's count where Lingui wrote #, nested plurals and selects included", () => {
    expect(sayOnPage('{count, plural, one {# item} other {# items}}', { count: 1 })).toBe('1 item');
    expect(sayOnPage('{count, plural, one {# item} other {# items}}', { count: 1234 })).toBe('1,234 items');
    expect(sayOnPage('{count, plural, one {# item} other {# items}}', { count: 1234 }, 'de')).toBe(
      '1.234 items',
    );
    expect(
      sayOnPage(
        '{unit, select, month {{cycles, plural, one {# month} other {# months}}} other {{cycles, plural, one {# delivery} other {# deliveries}}}}',
        { unit: 'month', cycles: 3 },
      ),
    ).toBe('3 months');
    expect(
      sayOnPage(
        '{days, plural, =1 {every day} other {every # days}} for {n, plural, one {# payment} other {# payments}}',
        {
          days: 30,
          n: 2,
        },
      ),
    ).toBe('every 30 days for 2 payments');
    // An offset's # is the count less the offset: left to Lingui.
    expect(sayOnPage('{n, plural, offset:1 =0 {nobody} other {you and # others}}', { n: 3 })).toBe(
      'you and 2 others',
    );
    // "Order #{number}" is text, not a count.
    expect(sayOnPage('Order #{number}: {count, plural, other {# items}}', { number: 77, count: 2 })).toBe(
      'Order #77: 2 items',
    );
  });

  it('starts no Intl.NumberFormat for a small count in a Latin-digit language', () => {
    const started: unknown[] = [];
    const NumberFormat = Intl.NumberFormat;
    Intl.NumberFormat = new Proxy(NumberFormat, {
      construct(target, args) {
        started.push(args);
        return Reflect.construct(target, args);
      },
    });
    try {
      expect(sayOnPage('{count, plural, one {# item} other {# items}}', { count: 3 }, 'fr')).toBe('3 items');
    } finally {
      Intl.NumberFormat = NumberFormat;
    }
    expect(started).toEqual([]);
  });
});
