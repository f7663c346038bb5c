import { describe, expect, it } from 'vitest';
import { codeNoticeForMerchant, linkClosedReason } from './checkout-link-preview-rules.js';

const now = new Date('2026-11-26T10:00:00Z');
const open = { active: true, expires_at: null, activeLines: 1 };

describe('linkClosedReason', () => {
  it('opens a checkout for an active link with an active offer and no expiry', () => {
    expect(linkClosedReason(open, now)).toBeNull();
    expect(linkClosedReason({ ...open, expires_at: new Date('2026-11-26T10:00:01Z') }, now)).toBeNull();
  });

  it('opens none for an inactive link', () => {
    expect(linkClosedReason({ ...open, active: false }, now)).toMatch(/inactive/);
  });

  it('opens none from the moment the link expires', () => {
    expect(linkClosedReason({ ...open, expires_at: now }, now)).toMatch(/expired/);
  });

  it('opens none when none of its offers is active', () => {
    expect(linkClosedReason({ ...open, activeLines: 0 }, now)).toMatch(/None of its offers/);
  });
});

describe('codeNoticeForMerchant', () => {
  it('says nothing when the link has no code or its code applies', () => {
    expect(codeNoticeForMerchant(null, false, null)).toBeNull();
    expect(codeNoticeForMerchant('WELCOME10', true, null)).toBeNull();
  });

  it("says an inactive code takes nothing off, rather than the shopper's words", () => {
    const notice = { code: 'discount_code_not_found', message: "We don't recognize the code OLD." };
    expect(codeNoticeForMerchant('OLD', true, notice)).toBe(
      'The code OLD is inactive. The checkout takes nothing off. Make it active to apply it.',
    );
  });

  it('keeps the date of an expired code', () => {
    const notice = { code: 'discount_code_expired', message: 'The code OLD expired on Nov 1, 2026.' };
    expect(codeNoticeForMerchant('OLD', true, notice)).toBe(
      'The code OLD expired on Nov 1, 2026. The checkout takes nothing off.',
    );
  });

  it('drops the advice to the shopper from a minimum not met', () => {
    const notice = {
      code: 'discount_code_minimum_not_met',
      message: 'The code SAVE5 needs an order of $30.00 or more. Add $12.00 to use it.',
    };
    expect(codeNoticeForMerchant('SAVE5', true, notice)).toBe(
      'The code SAVE5 needs an order of $30.00 or more. The checkout takes nothing off.',
    );
  });

  it('names a code that no longer exists', () => {
    expect(codeNoticeForMerchant('GONE', false, null)).toMatch(/no longer exists/);
  });
});
