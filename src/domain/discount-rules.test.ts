import { describe, expect, it } from 'vitest';
import { checkDiscountCode, isDiscountCodeUsedUp, type DiscountCodeFacts } from './discount-rules.js';
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
    expect(checkDiscountCode(code({ active: false }), cart)).toEqual({
      ok: false,
      status: 404,
      code: 'discount_code_not_found',
      message: "We don't recognize the code SAVE5.",
    });
  });

  it('says when a code starts and when it expired', () => {
    expect(checkDiscountCode(code({ startsAt: new Date('2026-12-01T00:00:00Z') }), cart)).toMatchObject({
      status: 422,
      code: 'discount_code_not_started',
      message: 'The code SAVE5 can be used from December 1, 2026.',
    });
    expect(checkDiscountCode(code({ endsAt: new Date('2026-11-01T00:00:00Z') }), cart)).toMatchObject({
      code: 'discount_code_expired',
      message: 'The code SAVE5 expired on November 1, 2026.',
    });
    // The end instant itself is outside the window.
    expect(checkDiscountCode(code({ endsAt: cart.now }), cart)).toMatchObject({
      code: 'discount_code_expired',
    });
  });

  it('refuses a code whose uses are all taken', () => {
    expect(checkDiscountCode(code({ usageLimit: 3, usageCount: 3 }), cart)).toMatchObject({
      code: 'discount_code_used_up',
      message: 'The code SAVE5 has been used as many times as it allows.',
    });
  });

  it('says how much more to add for a minimum', () => {
    expect(checkDiscountCode(code({ minSubtotal: minor(7500) }), cart)).toMatchObject({
      code: 'discount_code_minimum_not_met',
      message: 'The code SAVE5 needs an order of $75.00 or more. Add $25.00 to use it.',
    });
  });

  it('refuses a code for other items', () => {
    expect(checkDiscountCode(code({ offerIds: [7] }), cart)).toMatchObject({
      code: 'discount_code_not_applicable',
      message: 'The code SAVE5 is not valid for the items in your cart.',
    });
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
