import { describe, expect, it } from 'vitest';
import { chargeAfterNewCard } from './card-update-rules.js';

const now = new Date('2026-11-26T08:00:00Z');
const later = new Date('2026-11-29T08:00:00Z');

describe('the renewal after a new card', () => {
  it('charges a past-due subscription at the next run and makes it active', () => {
    expect(chargeAfterNewCard({ status: 'past_due', retryCount: 4, nextChargeAt: later, now })).toEqual({
      becomesActive: true,
      nextChargeAt: now,
    });
  });

  it('brings a declined renewal waiting for its retry to the next run', () => {
    expect(chargeAfterNewCard({ status: 'active', retryCount: 1, nextChargeAt: later, now })).toEqual({
      becomesActive: false,
      nextChargeAt: now,
    });
  });

  it('keeps the date of a subscription in good standing', () => {
    expect(chargeAfterNewCard({ status: 'active', retryCount: 0, nextChargeAt: later, now })).toBeNull();
  });

  it('keeps a paused subscription paused', () => {
    expect(chargeAfterNewCard({ status: 'paused', retryCount: 2, nextChargeAt: later, now })).toBeNull();
  });
});
