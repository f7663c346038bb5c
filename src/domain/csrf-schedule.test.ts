import { describe, expect, it } from 'vitest';
import { CSRF_DEFAULT_EXPIRY_SECONDS, csrfRegenerationSeconds, isValidCsrfExpiry } from './csrf-schedule.js';

describe('csrfRegenerationSeconds', () => {
  it('regenerates the default 3600 s token after 3480 s', () => {
    expect(csrfRegenerationSeconds(CSRF_DEFAULT_EXPIRY_SECONDS)).toBe(3480);
  });

  it('subtracts 9 s below 180 s', () => {
    expect(csrfRegenerationSeconds(16)).toBe(7);
    expect(csrfRegenerationSeconds(179)).toBe(170);
  });

  it('subtracts 120 s from 180 s up', () => {
    expect(csrfRegenerationSeconds(180)).toBe(60);
    expect(csrfRegenerationSeconds(7200)).toBe(7080);
  });

  it('falls back to 3480 s for a missing, non-numeric or too short expiry', () => {
    expect(csrfRegenerationSeconds(undefined)).toBe(3480);
    expect(csrfRegenerationSeconds('3600')).toBe(3480);
    expect(csrfRegenerationSeconds(Number.NaN)).toBe(3480);
    expect(csrfRegenerationSeconds(15)).toBe(3480);
  });
});

describe('isValidCsrfExpiry', () => {
  it('accepts numbers of at least 16 seconds only', () => {
    expect(isValidCsrfExpiry(16)).toBe(true);
    expect(isValidCsrfExpiry(15.9)).toBe(false);
    expect(isValidCsrfExpiry(Infinity)).toBe(false);
    expect(isValidCsrfExpiry(null)).toBe(false);
  });
});
