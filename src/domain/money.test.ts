import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  adoptMoneyFormat,
  allocate,
  currencyDigits,
  describeMoneyFormat,
  formatMoney,
  formatWith,
  fromMajor,
  minor,
  mulDivRound,
  toMajor,
} from './money.js';

describe('currency minor units', () => {
  it('knows the minor unit of common currencies', () => {
    expect(currencyDigits('USD')).toBe(2);
    expect(currencyDigits('JPY')).toBe(0);
    expect(currencyDigits('BHD')).toBe(3);
  });

  it('converts between major and minor units without floating-point drift', () => {
    expect(fromMajor(49.99, 'USD')).toBe(4999);
    expect(fromMajor(0.29, 'USD')).toBe(29);
    expect(fromMajor(1.005, 'USD')).toBeNull();
    expect(fromMajor(1500, 'JPY')).toBe(1500);
    expect(fromMajor(15.5, 'JPY')).toBeNull();
    expect(fromMajor(Number.NaN, 'USD')).toBeNull();
    expect(toMajor(minor(4999), 'USD')).toBe(49.99);
    expect(toMajor(minor(1500), 'JPY')).toBe(1500);
  });

  it('round-trips every cent amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_00 }), (cents) => {
        expect(fromMajor(toMajor(minor(cents), 'USD'), 'USD')).toBe(cents);
      }),
    );
  });

  it('formats for the shopper', () => {
    expect(formatMoney(minor(5412), 'USD')).toBe('$54.12');
  });

  it('formats each currency and locale with its own kept formatter', () => {
    expect(formatMoney(minor(5412), 'JPY')).toBe('¥5,412');
    expect(formatMoney(minor(5412), 'EUR', 'de-DE')).toBe('54,12\u00a0€');
    expect(formatMoney(minor(5412), 'EUR')).toBe('€54.12');
    expect(formatMoney(minor(54123), 'BHD')).toBe('BHD\u00a054.123');
    expect(formatMoney(minor(99), 'USD')).toBe('$0.99');
    expect(() => formatMoney(minor(1), 'XYZW')).toThrow(RangeError);
  });

  it('refuses fractional minor units', () => {
    expect(() => minor(1.5)).toThrow(RangeError);
  });
});

describe('money formats described for the page', () => {
  it('writes every amount of every currency Intl knows exactly as Intl does in en-US', () => {
    const currencies = Intl.supportedValuesOf('currency');
    const formats = new Map(currencies.map((currency) => [currency, describeMoneyFormat(currency)]));
    // en-US writes every currency as text around digits grouped by threes.
    expect([...formats].filter(([, format]) => format === null).map(([currency]) => currency)).toEqual([]);
    fc.assert(
      fc.property(
        fc.constantFrom(...currencies),
        // Up to ten trillion minor units: beyond, the Intl side's float (toMajor) loses the last decimal, not the format.
        fc.integer({ min: -10_000_000_000_000, max: 10_000_000_000_000 }),
        (currency, amount) => {
          const intl = new Intl.NumberFormat('en-US', { style: 'currency', currency });
          expect(formatWith(formats.get(currency)!, minor(amount))).toBe(
            intl.format(toMajor(minor(amount), currency)),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('describes the text around the digits and the separators', () => {
    expect(describeMoneyFormat('USD')).toEqual({
      locale: 'en-US',
      currency: 'USD',
      digits: 2,
      prefix: '$',
      suffix: '',
      negative_prefix: '-$',
      negative_suffix: '',
      group: ',',
      decimal: '.',
    });
    expect(describeMoneyFormat('EUR', 'de-DE')).toMatchObject({
      prefix: '',
      suffix: '\u00a0€',
      negative_prefix: '-',
      group: '.',
      decimal: ',',
    });
    expect(describeMoneyFormat('JPY')).toMatchObject({ digits: 0, prefix: '¥' });
    expect(formatWith(describeMoneyFormat('BHD')!, minor(-1234567))).toBe('-BHD\u00a01,234.567');
  });

  it('gives no format where digits are not grouped by threes, or Intl does not know the currency', () => {
    // India groups by twos after the first three (₹12,34,567.00).
    expect(describeMoneyFormat('INR', 'en-IN')).toBeNull();
    expect(describeMoneyFormat('XYZW')).toBeNull();
  });

  it('formats an adopted format without making an Intl formatter, and ignores one that does not hold together', () => {
    const format = describeMoneyFormat('NZD')!;
    const made: unknown[] = [];
    const NumberFormat = Intl.NumberFormat;
    Intl.NumberFormat = function (...args: ConstructorParameters<typeof NumberFormat>) {
      made.push(args);
      return new NumberFormat(...args);
    } as unknown as typeof NumberFormat;
    try {
      adoptMoneyFormat({ ...format, locale: 'en-NZ-x-test', prefix: 'NZ$ ' });
      expect(formatMoney(minor(123456), 'NZD', 'en-NZ-x-test')).toBe('NZ$ 1,234.56');
      // XTS (ISO's code for testing) has 2 decimals in Intl: the adopted format's 3 are the ones answered.
      adoptMoneyFormat({ ...format, currency: 'XTS', locale: 'en-US-x-test', prefix: 'T ', digits: 3 });
      expect(currencyDigits('XTS')).toBe(3);
      expect(formatMoney(minor(1234567), 'XTS', 'en-US-x-test')).toBe('T 1,234.567');
      adoptMoneyFormat({ ...format, locale: 'en-US-x-broken', digits: 9 });
      expect(made).toEqual([]);
      expect(formatMoney(minor(123456), 'NZD', 'en-US-x-broken')).toBe('NZ$1,234.56');
      expect(made).toHaveLength(1);
    } finally {
      Intl.NumberFormat = NumberFormat;
    }
  });
});

describe('mulDivRound', () => {
  it('rounds half away from zero', () => {
    expect(mulDivRound(1, 1, 2)).toBe(1);
    expect(mulDivRound(3, 1, 2)).toBe(2);
    expect(mulDivRound(1000, 82_500, 1_000_000)).toBe(83);
    expect(mulDivRound(-3, 1, 2)).toBe(-2);
  });
});

describe('allocate (largest remainder)', () => {
  it('splits 100 over three equal weights as 34/33/33', () => {
    expect(allocate(minor(100), [1, 1, 1])).toEqual([34, 33, 33]);
  });

  it('gives nothing to zero weights', () => {
    expect(allocate(minor(10), [0, 5, 0, 5])).toEqual([0, 5, 0, 5]);
  });

  it('parts always sum to the total and each is within one unit of its exact share', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000_00 }),
        fc
          .array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 1, maxLength: 20 })
          .filter((w) => w.some((x) => x > 0)),
        (total, weights) => {
          const parts = allocate(minor(total), weights);
          expect(parts.reduce((a, b) => a + b, 0)).toBe(total);
          const weightSum = weights.reduce((a, b) => a + b, 0);
          parts.forEach((part, i) => {
            const exact = (total * (weights[i] ?? 0)) / weightSum;
            expect(Math.abs(part - exact)).toBeLessThan(1 + 1e-9);
            expect(part).toBeGreaterThanOrEqual(0);
          });
        },
      ),
    );
  });

  it('refuses to spread a non-zero total over nothing', () => {
    expect(() => allocate(minor(5), [0, 0])).toThrow(RangeError);
    expect(allocate(minor(0), [0, 0])).toEqual([0, 0]);
  });
});
