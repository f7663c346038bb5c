import { describe, expect, it } from 'vitest';
import { isUniqueCartToken, parseCartToken } from './cart-token.js';

describe('isUniqueCartToken', () => {
  it('is true for a plain non-empty token', () => {
    expect(isUniqueCartToken('Ab3dEf6hIj9kLm2nOp5qRs8t')).toBe(true);
  });

  it('is false for empty, missing and reserved-prefix tokens', () => {
    expect(isUniqueCartToken('')).toBe(false);
    expect(isUniqueCartToken(undefined)).toBe(false);
    expect(isUniqueCartToken(null)).toBe(false);
    expect(isUniqueCartToken('__c__spring-sale')).toBe(false);
    expect(isUniqueCartToken('__g__AAAAAAAAAAAAAAAAAAAAAAAA')).toBe(false);
  });
});

describe('parseCartToken', () => {
  it('tells carts, checkout links and gift claims apart', () => {
    expect(parseCartToken('Ab3dEf6hIj9kLm2nOp5qRs8t')).toEqual({
      kind: 'cart',
      token: 'Ab3dEf6hIj9kLm2nOp5qRs8t',
    });
    expect(parseCartToken('__c__spring-sale')).toEqual({ kind: 'checkout_link', linkId: 'spring-sale' });
    expect(parseCartToken('__g__abcdefghijklmnopqrstuvwxyz012345')).toEqual({
      kind: 'gift_claim',
      claimCode: 'abcdefghijklmnopqrstuvwxyz012345',
    });
  });

  it('refuses anything outside the token alphabet', () => {
    expect(parseCartToken("x' OR 1=1 --")).toEqual({ kind: 'invalid' });
    expect(parseCartToken('__c__')).toEqual({ kind: 'invalid' });
    expect(parseCartToken('short')).toEqual({ kind: 'invalid' });
  });
});
