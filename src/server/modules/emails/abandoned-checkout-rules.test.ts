import { describe, expect, it } from 'vitest';
import {
  reasonNotToRemind,
  shouldScheduleAbandonedReminder,
  type ReminderDue,
} from './abandoned-checkout-rules.js';

const on = { enabled: true, after_minutes: 60 };
const off = { enabled: false, after_minutes: 60 };

describe('shouldScheduleAbandonedReminder', () => {
  it('schedules one for a shopper who gave an email and agreed to emails, when the store sends them', () => {
    expect(shouldScheduleAbandonedReminder(on, { email: 'ada@example.com', emailOptIn: true })).toBe(true);
  });

  it('schedules none without consent, without an email, or when the store does not send them', () => {
    expect(shouldScheduleAbandonedReminder(on, { email: 'ada@example.com', emailOptIn: false })).toBe(false);
    expect(shouldScheduleAbandonedReminder(on, { email: '  ', emailOptIn: true })).toBe(false);
    expect(shouldScheduleAbandonedReminder(off, { email: 'ada@example.com', emailOptIn: true })).toBe(false);
  });
});

describe('reasonNotToRemind', () => {
  const due = (change: Partial<NonNullable<ReminderDue['cart']>> | null, setting = on): ReminderDue => ({
    setting,
    scheduledFor: 'ada@example.com',
    cart:
      change === null
        ? null
        : { orderStatus: 'declined', email: 'Ada@Example.com', emailOptIn: true, lineCount: 2, ...change },
  });

  it('sends the reminder of a cart still not ordered, to the same consenting shopper', () => {
    expect(reasonNotToRemind(due({}))).toBeNull();
    expect(reasonNotToRemind(due({ orderStatus: null }))).toBeNull();
  });

  it('sends nothing once the order is placed', () => {
    expect(reasonNotToRemind(due({ orderStatus: 'complete' }))).toBe('The order was placed.');
  });

  it('sends nothing when the shopper withdrew their consent or changed their email', () => {
    expect(reasonNotToRemind(due({ emailOptIn: false }))).toBe('The shopper no longer agrees to emails.');
    expect(reasonNotToRemind(due({ email: 'grace@example.com' }))).toBe('The shopper changed their email.');
  });

  it('sends nothing when the store turned reminders off, or the cart is gone or empty', () => {
    expect(reasonNotToRemind(due({}, off))).toBe('The store turned abandoned-checkout reminders off.');
    expect(reasonNotToRemind(due(null))).toBe('The cart is gone.');
    expect(reasonNotToRemind(due({ lineCount: 0 }))).toBe('The cart is empty.');
  });
});
