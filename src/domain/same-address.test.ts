import { describe, expect, it } from 'vitest';
import { effectiveSameAddress, initialSameAddress, sameAddressWithExpressPayer } from './same-address.js';

describe('initialSameAddress', () => {
  it('defaults to true', () => {
    expect(initialSameAddress(undefined)).toBe(true);
    expect(initialSameAddress({})).toBe(true);
  });

  it("takes the customer's same_address value", () => {
    expect(initialSameAddress({ same_address: false })).toBe(false);
    expect(initialSameAddress({ same_address: true })).toBe(true);
  });
});

describe('express payer data', () => {
  it('sets the box to false when the payer data is enabled', () => {
    expect(sameAddressWithExpressPayer()).toBe(false);
  });
});

describe('effectiveSameAddress', () => {
  it('is false when nothing ships, whatever the box says', () => {
    expect(effectiveSameAddress(true, false)).toBe(false);
    expect(effectiveSameAddress(true, true)).toBe(true);
    expect(effectiveSameAddress(false, true)).toBe(false);
  });
});
