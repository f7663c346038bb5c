import { describe, expect, it } from 'vitest';
import type { Language } from '../i18n/languages.js';
import {
  checkDiscountCode,
  discountRefusalMessage,
  isDiscountCodeUsedUp,
  type DiscountCheck,
  type DiscountCodeFacts,
} from './discount-rules.js';
import { minor } from './money.js';

const code = (overrides: Partial<DiscountCodeFacts> = {}): DiscountCodeFacts => ({
  code: 'SAVE5',
  active: true,
  startsAt: null,
  endsAt: null,
  usageLimit: null,
  usageCount: 0,
  minSubtotal: minor(0),
  offerIds: [],
  ...overrides,
});
const cart = {
  now: new Date('2026-11-21T12:00:00Z'),
  subtotal: minor(5000),
  offerIds: [1, 2],
  currency: 'USD',
};

/** The refusal's message in a language (English on the cart unless told). */
function said(check: DiscountCheck, language: Language = 'en', when: 'cart' | 'order' = 'cart') {
  if (check.ok) throw new Error('The code was accepted.');
  return discountRefusalMessage(check, language, when);
}

describe('checkDiscountCode', () => {
  it('accepts a code within its window, limit and minimum', () => {
    expect(
      checkDiscountCode(
        code({
          startsAt: new Date('2026-11-01T00:00:00Z'),
          endsAt: new Date('2026-12-01T00:00:00Z'),
          usageLimit: 5,
          usageCount: 4,
          minSubtotal: minor(5000),
          offerIds: [2, 9],
        }),
        cart,
      ),
    ).toEqual({ ok: true });
  });

  it('treats an inactive code as unknown', () => {
    const check = checkDiscountCode(code({ active: false }), cart);
    expect(check).toMatchObject({ ok: false, status: 404, code: 'discount_code_not_found' });
    expect(said(check)).toEqual({ key: 'errors.discount_code_not_found', values: { code: 'SAVE5' } });
  });

  it('says when a code starts and when it expired', () => {
    const notStarted = checkDiscountCode(code({ startsAt: new Date('2026-12-01T00:00:00Z') }), cart);
    expect(notStarted).toMatchObject({ status: 422, code: 'discount_code_not_started' });
    expect(said(notStarted)).toEqual({
      key: 'errors.discount_code_not_started',
      values: { code: 'SAVE5', date: 'December 1, 2026' },
    });
    const expired = checkDiscountCode(code({ endsAt: new Date('2026-11-01T00:00:00Z') }), cart);
    expect(expired).toMatchObject({ code: 'discount_code_expired' });
    expect(said(expired)).toEqual({
      key: 'errors.discount_code_expired',
      values: { code: 'SAVE5', date: 'November 1, 2026' },
    });
    // The end instant itself is outside the window.
    expect(checkDiscountCode(code({ endsAt: cart.now }), cart)).toMatchObject({
      code: 'discount_code_expired',
    });
  });

  it('refuses a code whose uses are all taken', () => {
    const check = checkDiscountCode(code({ usageLimit: 3, usageCount: 3 }), cart);
    expect(check).toMatchObject({ code: 'discount_code_used_up' });
    expect(said(check)).toEqual({ key: 'errors.discount_code_used_up', values: { code: 'SAVE5' } });
  });

  it('says how much more to add for a minimum', () => {
    const check = checkDiscountCode(code({ minSubtotal: minor(7500) }), cart);
    expect(check).toMatchObject({ code: 'discount_code_minimum_not_met' });
    expect(said(check)).toEqual({
      key: 'errors.discount_code_minimum_not_met',
      values: { code: 'SAVE5', minimum: '$75.00', missing: '$25.00' },
    });
  });

  it('writes dates and amounts as the reader’s language does', () => {
    const notStarted = checkDiscountCode(code({ startsAt: new Date('2026-12-01T00:00:00Z') }), cart);
    expect(said(notStarted, 'es').values).toEqual({ code: 'SAVE5', date: '1 de diciembre de 2026' });
    const minimum = checkDiscountCode(code({ minSubtotal: minor(7500) }), { ...cart, currency: 'EUR' });
    expect(said(minimum, 'de').values).toEqual({
      code: 'SAVE5',
      minimum: '75,00\u00a0€',
      missing: '25,00\u00a0€',
    });
  });

  it('tells the shopper placing an order to remove a code that does not apply', () => {
    const check = checkDiscountCode(code({ usageLimit: 3, usageCount: 3 }), cart);
    expect(said(check, 'en', 'order')).toEqual({
      key: 'errors.order_discount_code_used_up',
      values: { code: 'SAVE5' },
    });
  });

  it('refuses a code for other items', () => {
    const check = checkDiscountCode(code({ offerIds: [7] }), cart);
    expect(check).toMatchObject({ code: 'discount_code_not_applicable' });
    expect(said(check)).toEqual({ key: 'errors.discount_code_not_applicable', values: { code: 'SAVE5' } });
  });
});

describe('isDiscountCodeUsedUp', () => {
  it('is used up once completed orders took every use it allows', () => {
    expect(isDiscountCodeUsedUp({ usageLimit: 5, usageCount: 5 })).toBe(true);
    expect(isDiscountCodeUsedUp({ usageLimit: 5, usageCount: 4 })).toBe(false);
  });

  it('is never used up without a limit', () => {
    expect(isDiscountCodeUsedUp({ usageLimit: null, usageCount: 1_000_000 })).toBe(false);
  });
});
