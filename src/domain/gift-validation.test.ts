import { describe, expect, it } from 'vitest';
import { earliestTodayAnywhere, isoDate, type GiftValues, validateGift } from './gift-validation.js';

const gift = (overrides: Partial<GiftValues> = {}): GiftValues => ({
  gift_name: 'Grace Hopper',
  gift_email: 'grace@example.com',
  gift_date: '2026-12-24',
  gift_message: 'Enjoy!',
  gift_phone: '',
  order_offer_notes: '',
  ...overrides,
});

describe('validateGift', () => {
  it('accepts a complete gift', () => {
    expect(validateGift(gift(), '2026-11-15')).toEqual({});
  });

  it('asks for the recipient name, email and date', () => {
    expect(validateGift(gift({ gift_name: '', gift_email: '', gift_date: '' }), '2026-11-15')).toEqual({
      gift_name: { key: 'fields.gift_name_required' },
      gift_email: { key: 'fields.gift_email_required' },
      gift_date: { key: 'fields.gift_date_required' },
    });
  });

  it('allows today or a later date only', () => {
    expect(validateGift(gift({ gift_date: '2026-11-15' }), '2026-11-15')).toEqual({});
    expect(validateGift(gift({ gift_date: '2026-11-14' }), '2026-11-15').gift_date).toEqual({
      key: 'fields.gift_date_past',
    });
    expect(validateGift(gift({ gift_date: '2026-02-30' }), '2026-01-01').gift_date).toEqual({
      key: 'fields.gift_date_invalid',
      values: { example: '2026-12-24' },
    });
  });

  it('limits the message and notes to 500 characters', () => {
    const errors = validateGift(
      gift({ gift_message: 'x'.repeat(501), order_offer_notes: 'y'.repeat(501) }),
      '2026-11-15',
    );
    expect(errors.gift_message).toEqual({ key: 'fields.gift_message_too_long', values: { max: 500 } });
    expect(errors.order_offer_notes).toEqual({ key: 'fields.notes_too_long', values: { max: 500 } });
    expect(validateGift(gift({ gift_message: 'x'.repeat(500) }), '2026-11-15')).toEqual({});
  });

  it('checks an optional phone number when given', () => {
    expect(validateGift(gift({ gift_phone: 'abc' }), '2026-11-15').gift_phone).toEqual({
      key: 'fields.phone_invalid',
    });
  });
});

describe('isoDate', () => {
  it('formats a local date as YYYY-MM-DD', () => {
    expect(isoDate(new Date(2026, 0, 5))).toBe('2026-01-05');
  });
});

describe('earliestTodayAnywhere', () => {
  it('is the day before the UTC date, so today in every time zone is accepted', () => {
    expect(earliestTodayAnywhere(new Date('2026-11-21T12:00:00Z'))).toBe('2026-11-20');
    expect(earliestTodayAnywhere(new Date('2026-01-01T00:30:00Z'))).toBe('2025-12-31');
  });
});
