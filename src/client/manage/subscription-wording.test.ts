import { describe, expect, it } from 'vitest';
import type { MessageKey, MessageValues } from '../../i18n/message-keys.js';
import { fallbackI18n } from '../i18n/fallback-i18n.js';
import * as wording from './subscription-wording.js';

// English, as a page without a provider reads it (tests/helpers/client-setup.ts).
const EN: wording.Words = {
  t: (key: MessageKey, values?: MessageValues) => fallbackI18n()!._(key, values),
  locale: 'en-US',
};
type Of<F> = F extends (value: infer V, words: wording.Words) => string ? (value: V) => string : never;
const statusText: Of<typeof wording.statusText> = (value) => wording.statusText(value, EN);
const statusLabel: Of<typeof wording.statusLabel> = (value) => wording.statusLabel(value, EN);
const cardText: Of<typeof wording.cardText> = (value) => wording.cardText(value, EN);
const cancelConsequence: Of<typeof wording.cancelConsequence> = (value) =>
  wording.cancelConsequence(value, EN);
const intervalText = (days: number) =>
  wording.priceText({ cycle_amount: 25, currency: 'USD', interval_days: days }, EN);

describe('the subscription in words', () => {
  it('names common intervals', () => {
    expect(intervalText(30)).toBe('$25.00 every month');
    expect(intervalText(7)).toBe('$25.00 every week');
    expect(intervalText(45)).toBe('$25.00 every 45 days');
    expect(intervalText(1)).toBe('$25.00 every day');
  });

  it('says when an active subscription is charged next', () => {
    expect(
      statusText({
        status: 'active',
        next_charge_at: '2026-12-24T10:00:00.000Z',
        cancel_at: null,
        cancelled_at: null,
        charges: [],
      }),
    ).toBe('Next charge on December 24, 2026.');
  });

  it('says when a scheduled cancel ends it, and that nothing more is charged', () => {
    expect(
      statusText({
        status: 'active',
        next_charge_at: null,
        cancel_at: '2026-12-24T10:00:00.000Z',
        cancelled_at: null,
        charges: [],
      }),
    ).toBe('Ends on December 24, 2026. You will not be charged again.');
  });

  it('says a declined renewal is tried again, and that a new card can pay it', () => {
    expect(
      statusText({
        status: 'active',
        next_charge_at: '2026-12-25T10:00:00.000Z',
        cancel_at: null,
        cancelled_at: null,
        charges: [{ amount: 27.06, status: 'declined', created_at: '2026-12-24T10:00:00.000Z' }],
      }),
    ).toBe(
      'Your last payment did not go through; it is tried again on December 25, 2026. Update your card to pay with another.',
    );
  });

  it('asks for a new card when the last payment failed', () => {
    expect(
      statusText({
        status: 'past_due',
        next_charge_at: null,
        cancel_at: null,
        cancelled_at: null,
        charges: [],
      }),
    ).toMatch(/Update your card/);
  });

  it('calls a subscription whose cancel is scheduled ending', () => {
    expect(statusLabel({ status: 'active', cancel_at: '2026-12-24T10:00:00.000Z' })).toBe('Ending');
    expect(statusLabel({ status: 'past_due', cancel_at: null })).toBe('Payment failed');
  });

  it('names the card by its brand and last 4', () => {
    expect(cardText({ brand: 'mastercard', last4: '4444' })).toBe('Mastercard ending in 4444');
    expect(cardText({ brand: null, last4: '1111' })).toBe('Card ending in 1111');
    expect(cardText(null)).toBe('No card on file');
  });

  it('tells before cancelling when the cancel takes effect', () => {
    expect(
      cancelConsequence({
        status: 'active',
        next_charge_at: '2026-12-24T10:00:00.000Z',
        cancel_effect: 'end_of_period',
      }),
    ).toBe('Your subscription stays active until December 24, 2026 and is not charged again.');
    expect(
      cancelConsequence({
        status: 'active',
        next_charge_at: '2026-12-24T10:00:00.000Z',
        cancel_effect: 'immediately',
      }),
    ).toBe('Your subscription ends now and is not charged again.');
  });
});
