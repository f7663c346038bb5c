import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { minor, toMajor } from '../../../domain/money.js';
import { toPaypalAmount } from './paypal-amount.js';

describe('toPaypalAmount', () => {
  it('writes cents as a two-decimal string', () => {
    expect(toPaypalAmount(4999, 'USD')).toBe('49.99');
    expect(toPaypalAmount(5, 'EUR')).toBe('0.05');
    expect(toPaypalAmount(0, 'USD')).toBe('0.00');
    expect(toPaypalAmount(100000, 'GBP')).toBe('1000.00');
  });

  it('writes zero-decimal currencies as whole numbers', () => {
    expect(toPaypalAmount(1500, 'JPY')).toBe('1500');
  });

  it('writes TWD in whole units, as PayPal requires, and refuses a fraction of one', () => {
    expect(toPaypalAmount(150000, 'TWD')).toBe('1500');
    expect(toPaypalAmount(150050, 'TWD')).toBeNull();
  });

  it('refuses negative and non-integer amounts', () => {
    expect(toPaypalAmount(-1, 'USD')).toBeNull();
    expect(toPaypalAmount(1.5, 'USD')).toBeNull();
  });

  it('agrees with toMajor for every amount, beyond where floating point would round', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 50 }), (amount) => {
        const text = toPaypalAmount(amount, 'USD');
        expect(text).toMatch(/^\d+\.\d{2}$/);
        expect(Number(text)).toBe(toMajor(minor(amount), 'USD'));
        expect(text?.replace('.', '').replace(/^0+(?=\d)/, '')).toBe(String(amount));
      }),
    );
  });
});
