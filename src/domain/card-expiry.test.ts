import { describe, expect, it } from 'vitest';
import { formatCardExpiry, parseCardExpiry } from './card-expiry.js';

describe('parseCardExpiry', () => {
  it('reads the usual ways of writing an expiry date', () => {
    expect(parseCardExpiry('04 / 28')).toEqual({ month: 4, year: 2028 });
    expect(parseCardExpiry('4/2028')).toEqual({ month: 4, year: 2028 });
    expect(parseCardExpiry('0428')).toEqual({ month: 4, year: 2028 });
  });

  it('refuses what is not a month and a year', () => {
    expect(parseCardExpiry('00/28')).toBeNull();
    expect(parseCardExpiry('13/28')).toBeNull();
    expect(parseCardExpiry('April')).toBeNull();
    expect(parseCardExpiry('04/2')).toBeNull();
  });
});

describe('formatCardExpiry', () => {
  it('formats digits as MM / YY while typing', () => {
    expect(formatCardExpiry('1')).toBe('1');
    expect(formatCardExpiry('4')).toBe('04');
    expect(formatCardExpiry('12')).toBe('12');
    expect(formatCardExpiry('042')).toBe('04 / 2');
    expect(formatCardExpiry('04/289')).toBe('04 / 28');
  });
});
