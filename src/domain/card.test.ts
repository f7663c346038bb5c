import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  containsCardNumber,
  cvvLength,
  detectBrand,
  formatCardNumber,
  getCardType,
  luhnValid,
  scrubCardData,
  scrubCardNumbers,
} from './card.js';

describe('card type from the first 4 digits', () => {
  it('maps the four accepted brands to the specification ids', () => {
    expect(getCardType('5555555555554444')).toMatchObject({ brand: 'mastercard', typeId: 1 });
    expect(getCardType('2221000000000009')).toMatchObject({ brand: 'mastercard', typeId: 1 });
    expect(getCardType('4111111111111111')).toMatchObject({ brand: 'visa', typeId: 2 });
    expect(getCardType('6011111111111117')).toMatchObject({ brand: 'discover', typeId: 3 });
    expect(getCardType('378282246310005')).toMatchObject({ brand: 'american-express', typeId: 4 });
  });

  it('needs 4 digits before it names a brand', () => {
    expect(detectBrand('411')).toBeNull();
    expect(detectBrand('4111')).toBe('visa');
  });

  it('yields no card type for any other brand', () => {
    expect(getCardType('3530111333300000')).toBeNull(); // JCB
    expect(getCardType('6200000000000005')).toBeNull(); // UnionPay
    expect(getCardType('30569309025904')).toBeNull(); // Diners Club
  });

  it('shows a test card as type 2 with the testcard icon', () => {
    expect(getCardType('4242 4242 4242 4242', ['4242424242424242'])).toEqual({
      brand: 'testcard',
      typeId: 2,
      icon: 'testcard',
      label: 'Test card',
    });
  });

  it('wants 4 CVV digits for American Express only', () => {
    expect(cvvLength('american-express')).toBe(4);
    expect(cvvLength('visa')).toBe(3);
  });

  it('formats in groups as typed', () => {
    expect(formatCardNumber('4111111111111111')).toBe('4111 1111 1111 1111');
    expect(formatCardNumber('378282246310005')).toBe('3782 822463 10005');
    expect(formatCardNumber('41111')).toBe('4111 1');
  });
});

describe('Luhn', () => {
  it('accepts the test gateway numbers and rejects a typo', () => {
    for (const n of [
      '4111111111111111',
      '5555555555554444',
      '6011111111111117',
      '378282246310005',
      '4000000000000002',
    ]) {
      expect(luhnValid(n)).toBe(true);
    }
    expect(luhnValid('4111111111111112')).toBe(false);
  });
});

describe('scrubbing card data', () => {
  it('masks Luhn-valid numbers in text, grouped or not, keeping the last 4', () => {
    expect(scrubCardNumbers('card 4111111111111111 failed')).toBe('card [card ••••1111] failed');
    expect(scrubCardNumbers('card 4111 1111 1111 1111.')).toBe('card [card ••••1111].');
    expect(scrubCardNumbers('amex 3782-822463-10005')).toBe('amex [card ••••0005]');
  });

  it('leaves other numbers alone', () => {
    expect(scrubCardNumbers('order 4111111111111112 id')).toBe('order 4111111111111112 id');
    expect(scrubCardNumbers('ts 1700000000000')).toBe('ts 1700000000000');
  });

  it('never lets a Luhn-valid number through, wherever it sits in the text', () => {
    const luhnNumber = fc
      .array(fc.integer({ min: 0, max: 9 }), { minLength: 12, maxLength: 18 })
      .map((digits) => {
        for (let check = 0; check <= 9; check++) {
          const candidate = [...digits, check].join('');
          if (luhnValid(candidate)) return candidate;
        }
        throw new Error('unreachable');
      });
    fc.assert(
      fc.property(fc.string(), luhnNumber, fc.string(), (before, pan, after) => {
        const text = `${before} ${pan} ${after}`;
        expect(scrubCardNumbers(text)).not.toContain(pan);
      }),
      { numRuns: 2000 },
    );
  });

  it('notices a card number typed into a text field', () => {
    expect(containsCardNumber('Apt 4111 1111 1111 1111')).toBe(true);
    expect(containsCardNumber('1 Congress Ave, Suite 400')).toBe(false);
  });

  it('redacts card fields by name in objects', () => {
    expect(
      scrubCardData({
        payment: { card_number: '4111111111111111', card_cvv: '123', card_exp_month: 12 },
        note: 'x',
      }),
    ).toEqual({
      payment: { card_number: '[redacted]', card_cvv: '[redacted]', card_exp_month: 12 },
      note: 'x',
    });
  });
});
