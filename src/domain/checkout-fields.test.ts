import { describe, expect, it } from 'vitest';
import { checkCard, checkEmail, checkPhone, expiryYear } from './checkout-fields.js';

const now = new Date('2026-11-21T12:00:00Z');

describe('contact fields', () => {
  it('requires a plausible email', () => {
    expect(checkEmail('ada@example.com')).toBeNull();
    expect(checkEmail('')).toEqual({ key: 'fields.email_required' });
    expect(checkEmail('ada@example')).toEqual({ key: 'fields.email_invalid' });
    expect(checkEmail('ada example.com')).toEqual({ key: 'fields.email_invalid' });
  });

  it('takes an optional phone with 7 to 15 digits', () => {
    expect(checkPhone(undefined)).toBeNull();
    expect(checkPhone('+1 (555) 010-0199')).toBeNull();
    expect(checkPhone('12345')).toEqual({ key: 'fields.phone_invalid' });
    expect(checkPhone('call me')).toEqual({ key: 'fields.phone_invalid' });
  });
});

describe('checkCard', () => {
  const visa = { number: '4111 1111 1111 1111', cvv: '123', expMonth: 12, expYear: 2028 };

  it('accepts a valid card of an accepted brand', () => {
    expect(checkCard(visa, { now })).toEqual({});
    expect(
      checkCard({ number: '378282246310005', cvv: '1234', expMonth: '01', expYear: '29' }, { now }),
    ).toEqual({});
  });

  it('refuses other brands and says which are accepted', () => {
    expect(checkCard({ ...visa, number: '3530111333300000' }, { now })).toEqual({
      'payment.card_number':
        'We accept Visa, Mastercard, Discover and American Express. Use one of those cards.',
    });
  });

  it('catches typos, lengths, expiry and CVV length', () => {
    expect(checkCard({ ...visa, number: '4111111111111112' }, { now })['payment.card_number']).toBe(
      'This card number is not valid. Check it for typos.',
    );
    expect(checkCard({ ...visa, number: '41111111111' }, { now })['payment.card_number']).toBe(
      'This card number is too short or too long. Check it and try again.',
    );
    expect(checkCard({ ...visa, expMonth: 10, expYear: 2026 }, { now })).toEqual({
      'payment.card_exp_year': 'This card has expired. Use another card.',
    });
    // Valid through the end of its month.
    expect(checkCard({ ...visa, expMonth: 11, expYear: 2026 }, { now })).toEqual({});
    expect(checkCard({ ...visa, expMonth: 13 }, { now })).toEqual({
      'payment.card_exp_month': 'Enter the expiry month, 01 to 12.',
    });
    expect(checkCard({ number: '378282246310005', cvv: '123', expMonth: 1, expYear: 2029 }, { now })).toEqual(
      {
        'payment.card_cvv': 'Enter the 4-digit security code on the front of the card.',
      },
    );
    expect(checkCard({ ...visa, cvv: '12' }, { now })).toEqual({
      'payment.card_cvv': 'Enter the 3-digit security code on the back of the card.',
    });
  });

  it('accepts the organization test cards even when they are not Luhn-valid', () => {
    expect(
      checkCard({ ...visa, number: '4242424242424241' }, { now, testCards: ['4242424242424241'] }),
    ).toEqual({});
  });

  it('reads two- and four-digit years', () => {
    expect(expiryYear('28')).toBe(2028);
    expect(expiryYear(2031)).toBe(2031);
    expect(expiryYear('2x')).toBeNull();
  });
});
