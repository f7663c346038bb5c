import { describe, expect, it } from 'vitest';
import { formatCardExpiry, parseCardExpiry, validateCard } from './card-validation.js';

const now = new Date(2026, 10, 15);
const context = { testCards: ['4242424242424242', '1234567890123'], now };
const card = (overrides: Partial<Parameters<typeof validateCard>[0]> = {}) => ({
  card_number: '4111 1111 1111 1111',
  card_expiry: '04 / 28',
  card_cvv: '123',
  ...overrides,
});

describe('validateCard', () => {
  it('accepts a valid card', () => {
    expect(validateCard(card(), context)).toEqual({});
    expect(validateCard(card({ card_number: '3782 822463 10005', card_cvv: '1234' }), context)).toEqual({});
  });

  it('asks for each missing field', () => {
    expect(validateCard({ card_number: '', card_expiry: '', card_cvv: '' }, context)).toEqual({
      card_number: 'Enter your card number.',
      card_expiry: 'Enter the expiry date as MM / YY.',
      card_cvv: 'Enter the security code (CVV).',
    });
  });

  it('names the accepted brands for any other brand', () => {
    expect(validateCard(card({ card_number: '3530 1113 3330 0000' }), context).card_number).toBe(
      'We accept Visa, Mastercard, Discover and American Express.',
    );
  });

  it('catches typos and incomplete numbers', () => {
    expect(validateCard(card({ card_number: '4111 1111 1111 1112' }), context).card_number).toMatch(/typo/);
    expect(validateCard(card({ card_number: '4111 1111 1111' }), context).card_number).toMatch(/incomplete/);
  });

  it('accepts test cards from the client option as they are', () => {
    expect(validateCard(card({ card_number: '1234567890123' }), context)).toEqual({});
  });

  it('refuses expired and malformed expiry dates', () => {
    expect(validateCard(card({ card_expiry: '10 / 26' }), context).card_expiry).toBe(
      'This card has expired. Use another card.',
    );
    expect(validateCard(card({ card_expiry: '11 / 26' }), context).card_expiry).toBeUndefined();
    expect(validateCard(card({ card_expiry: '13 / 28' }), context).card_expiry).toMatch(/MM \/ YY/);
    expect(validateCard(card({ card_expiry: '01 / 2099' }), context).card_expiry).toMatch(/MM \/ YY/);
  });

  it('wants 4 CVV digits for American Express and 3 for the others', () => {
    expect(validateCard(card({ card_number: '378282246310005', card_cvv: '123' }), context).card_cvv).toBe(
      'Enter the 4-digit security code.',
    );
    expect(validateCard(card({ card_cvv: '12a' }), context).card_cvv).toBe(
      'Enter the 3-digit security code.',
    );
  });
});

describe('parseCardExpiry', () => {
  it('reads the usual ways of writing an expiry date', () => {
    expect(parseCardExpiry('04 / 28')).toEqual({ month: 4, year: 2028 });
    expect(parseCardExpiry('4/2028')).toEqual({ month: 4, year: 2028 });
    expect(parseCardExpiry('0428')).toEqual({ month: 4, year: 2028 });
    expect(parseCardExpiry('00/28')).toBeNull();
    expect(parseCardExpiry('April')).toBeNull();
  });
});

describe('formatCardExpiry', () => {
  it('formats digits as MM / YY while typing', () => {
    expect(formatCardExpiry('1')).toBe('1');
    expect(formatCardExpiry('4')).toBe('04');
    expect(formatCardExpiry('042')).toBe('04 / 2');
    expect(formatCardExpiry('04/289')).toBe('04 / 28');
  });
});
