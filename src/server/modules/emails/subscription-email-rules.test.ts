import { describe, expect, it } from 'vitest';
import {
  afterFailedPayment,
  isChargeReminderDue,
  isChargeReminderStillTrue,
  subscriptionEmailFor,
} from './subscription-email-rules.js';

const DAY = 86_400_000;

describe('subscriptionEmailFor', () => {
  const plain = { cause: null, chargeStatus: null } as const;

  it('sends one email for each change the subscriber should hear of', () => {
    expect(subscriptionEmailFor('subscription.created', plain)).toBe('welcome');
    expect(subscriptionEmailFor('subscription.renewed', { cause: null, chargeStatus: 'approved' })).toBe(
      'renewal_receipt',
    );
    expect(
      subscriptionEmailFor('subscription.payment_failed', { cause: null, chargeStatus: 'declined' }),
    ).toBe('payment_failed');
    expect(subscriptionEmailFor('subscription.paused', plain)).toBe('paused');
    expect(subscriptionEmailFor('subscription.resumed', plain)).toBe('resumed');
    expect(subscriptionEmailFor('subscription.cancelled', plain)).toBe('cancelled');
  });

  it('sends nothing for a processor that did not answer: nothing was declined, and it is tried again soon', () => {
    expect(
      subscriptionEmailFor('subscription.payment_failed', { cause: null, chargeStatus: 'error' }),
    ).toBeNull();
  });

  it("confirms a subscriber's own cancel at the period's end, skip and new card, and no other update", () => {
    const update = (cause: 'cancel_scheduled' | 'skip' | 'card' | null) =>
      subscriptionEmailFor('subscription.updated', { cause, chargeStatus: null });
    expect(update('cancel_scheduled')).toBe('cancel_scheduled');
    expect(update('skip')).toBe('skipped');
    expect(update('card')).toBe('card_updated');
    expect(update(null)).toBeNull();
  });

  it("leaves the dunning's end to the failed-payment email that tells it", () => {
    const dunning = { cause: 'dunning', chargeStatus: 'declined' } as const;
    expect(subscriptionEmailFor('subscription.past_due', dunning)).toBeNull();
    expect(subscriptionEmailFor('subscription.paused', dunning)).toBeNull();
    expect(subscriptionEmailFor('subscription.cancelled', dunning)).toBeNull();
  });
});

describe('afterFailedPayment', () => {
  it('is the retry date while the subscription stays active, else where the dunning ended it', () => {
    const at = new Date('2026-11-22T00:00:00.000Z');
    expect(afterFailedPayment({ status: 'active', nextChargeAt: at })).toEqual({ kind: 'retry', at });
    for (const status of ['past_due', 'paused', 'cancelled'] as const)
      expect(afterFailedPayment({ status, nextChargeAt: at })).toEqual({ kind: status });
  });
});

describe('isChargeReminderDue', () => {
  const now = new Date('2026-11-21T12:00:00.000Z');
  const at = (days: number) => new Date(now.getTime() + days * DAY);
  const active = { status: 'active', retryCount: 0, intervalDays: 30 };

  it('is due once the charge is within the days before it, until the charge', () => {
    expect(isChargeReminderDue({ ...active, nextChargeAt: at(3) }, 3, now)).toBe(true);
    expect(isChargeReminderDue({ ...active, nextChargeAt: at(0.5) }, 3, now)).toBe(true);
    expect(isChargeReminderDue({ ...active, nextChargeAt: at(3.01) }, 3, now)).toBe(false);
    expect(isChargeReminderDue({ ...active, nextChargeAt: at(0) }, 3, now)).toBe(false);
    expect(isChargeReminderDue({ ...active, nextChargeAt: at(5) }, 5, now)).toBe(true);
  });

  it('is never due when reminders are off, the subscription is not active, or between dunning retries', () => {
    expect(isChargeReminderDue({ ...active, nextChargeAt: at(1) }, null, now)).toBe(false);
    expect(isChargeReminderDue({ ...active, status: 'paused', nextChargeAt: at(1) }, 3, now)).toBe(false);
    expect(isChargeReminderDue({ ...active, retryCount: 1, nextChargeAt: at(1) }, 3, now)).toBe(false);
  });

  it('is never due for a subscription renewed as often as the reminder window or more', () => {
    expect(isChargeReminderDue({ ...active, intervalDays: 3, nextChargeAt: at(1) }, 3, now)).toBe(false);
    expect(isChargeReminderDue({ ...active, intervalDays: 4, nextChargeAt: at(1) }, 3, now)).toBe(true);
  });
});

describe('isChargeReminderStillTrue', () => {
  const now = new Date('2026-11-21T12:00:00.000Z');
  const date = new Date('2026-11-24T12:00:00.000Z');
  const active = { status: 'active', retryCount: 0, nextChargeAt: date };

  it('holds while the subscription is active with the same charge date, still to come', () => {
    expect(isChargeReminderStillTrue(active, date, 3, now)).toBe(true);
  });

  it('does not hold once paused, moved, in dunning, passed, or with reminders turned off', () => {
    expect(isChargeReminderStillTrue({ ...active, status: 'paused' }, date, 3, now)).toBe(false);
    expect(
      isChargeReminderStillTrue({ ...active, nextChargeAt: new Date(date.getTime() + DAY) }, date, 3, now),
    ).toBe(false);
    expect(isChargeReminderStillTrue({ ...active, retryCount: 1 }, date, 3, now)).toBe(false);
    expect(isChargeReminderStillTrue(active, date, 3, new Date(date.getTime() + 1))).toBe(false);
    expect(isChargeReminderStillTrue(active, date, null, now)).toBe(false);
  });
});
