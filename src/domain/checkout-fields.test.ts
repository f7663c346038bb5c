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
      'payment.card_number': { key: 'card.brand_not_accepted' },
    });
  });

  it('catches typos, lengths, expiry and CVV length', () => {
    expect(checkCard({ ...visa, number: '' }, { now })['payment.card_number']).toEqual({
      key: 'card.number_missing',
    });
    expect(checkCard({ ...visa, number: '4111111111111112' }, { now })['payment.card_number']).toEqual({
      key: 'card.number_invalid',
    });
    expect(checkCard({ ...visa, number: '41111111111' }, { now })['payment.card_number']).toEqual({
      key: 'card.number_length',
    });
    expect(checkCard({ ...visa, expMonth: 10, expYear: 2026 }, { now })).toEqual({
      'payment.card_exp_year': { key: 'card.expired' },
    });
    expect(checkCard({ ...visa, expYear: 2047 }, { now })).toEqual({
      'payment.card_exp_year': { key: 'card.exp_year_far' },
    });
    expect(checkCard({ ...visa, expYear: '2x' }, { now })).toEqual({
      'payment.card_exp_year': { key: 'card.exp_year_invalid' },
    });
    // Valid through the end of its month.
    expect(checkCard({ ...visa, expMonth: 11, expYear: 2026 }, { now })).toEqual({});
    expect(checkCard({ ...visa, expMonth: 13 }, { now })).toEqual({
      'payment.card_exp_month': { key: 'card.exp_month_invalid' },
    });
    expect(checkCard({ number: '378282246310005', cvv: '123', expMonth: 1, expYear: 2029 }, { now })).toEqual(
      {
        'payment.card_cvv': { key: 'card.cvv_invalid_front', values: { digits: 4 } },
      },
    );
    expect(checkCard({ ...visa, cvv: '12' }, { now })).toEqual({
      'payment.card_cvv': { key: 'card.cvv_invalid_back', values: { digits: 3 } },
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
