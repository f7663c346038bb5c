import { describe, expect, it } from 'vitest';
import {
  checkPostalCode,
  COUNTRY_CODES,
  countryHasStates,
  isCountryCode,
  isStateOf,
  statesOf,
} from './countries.js';

describe('countries', () => {
  it('lists every ISO 3166-1 alpha-2 code once', () => {
    expect(COUNTRY_CODES).toHaveLength(249);
    expect(new Set(COUNTRY_CODES).size).toBe(249);
    expect(isCountryCode('US')).toBe(true);
    expect(isCountryCode('XX')).toBe(false);
  });

  it('names every country through the platform', () => {
    const names = new Intl.DisplayNames(['en'], { type: 'region' });
    for (const code of COUNTRY_CODES) expect(names.of(code)).not.toBe(code);
  });

  it('knows which countries need a state', () => {
    expect(countryHasStates('US')).toBe(true);
    expect(statesOf('CA')).toHaveLength(13);
    expect(countryHasStates('DE')).toBe(false);
    expect(isStateOf('US', 'TX')).toBe(true);
    expect(isStateOf('US', 'ON')).toBe(false);
  });

  it('gives the same state list each time, and none for names that are not countries', () => {
    expect(statesOf('US')).toBe(statesOf('US'));
    expect(statesOf('constructor')).toEqual([]);
    expect(statesOf('toString')).toEqual([]);
  });
});

describe('checkPostalCode', () => {
  it('accepts the formats of the country', () => {
    expect(checkPostalCode('US', '73301')).toEqual({ ok: true });
    expect(checkPostalCode('US', '73301-1234')).toEqual({ ok: true });
    expect(checkPostalCode('CA', 'K1A 0B1')).toEqual({ ok: true });
    expect(checkPostalCode('GB', 'SW1A 1AA')).toEqual({ ok: true });
    expect(checkPostalCode('IE', 'D02 AF30')).toEqual({ ok: true });
    expect(checkPostalCode('NL', '1011AB')).toEqual({ ok: true });
  });

  it('says what shape is expected', () => {
    expect(checkPostalCode('US', '7330')).toEqual({ ok: false, message: 'Enter a ZIP code like 73301.' });
    expect(checkPostalCode('GB', '12345')).toEqual({ ok: false, message: 'Enter a postcode like SW1A 1AA.' });
    expect(checkPostalCode('US', ' ')).toEqual({ ok: false, message: 'Enter a ZIP code.' });
  });

  it('lets countries without everyday postal codes leave it empty', () => {
    expect(checkPostalCode('AE', '')).toEqual({ ok: true });
    expect(checkPostalCode('IE', '')).toEqual({ ok: true });
  });

  it('checks a generic shape where no format is known', () => {
    expect(checkPostalCode('KE', '00100')).toEqual({ ok: true });
    expect(checkPostalCode('KE', '<script>')).toEqual({ ok: false, message: 'Enter a valid postal code.' });
  });
});
