import { describe, expect, it } from 'vitest';
import {
  cancelTakesEffect,
  skippedChargeAt,
  skipRefusal,
  type SubscriptionState,
} from './subscription-changes.js';

const DAY = 86_400_000;
const now = new Date('2026-11-26T08:00:00Z');
const next = new Date('2026-12-10T08:00:00Z');
const active: SubscriptionState = { status: 'active', nextChargeAt: next, intervalDays: 30, cancelAt: null };

describe('skipping the next charge', () => {
  it('lets an active subscription skip the charge the subscriber saw', () => {
    expect(skipRefusal(active, next)).toBeNull();
    expect(skipRefusal(active, null)).toBeNull();
  });

  it('moves the charge one interval later', () => {
    expect(skippedChargeAt(active).getTime()).toBe(next.getTime() + 30 * DAY);
  });

  it.each([
    ['paused', 'subscription_paused'],
    ['past_due', 'subscription_past_due'],
    ['cancelled', 'subscription_cancelled'],
  ] as const)('refuses a %s subscription', (status, code) => {
    expect(skipRefusal({ ...active, status }, next)?.code).toBe(code);
  });

  it('refuses a subscription whose cancel is scheduled', () => {
    expect(skipRefusal({ ...active, cancelAt: next }, next)).toMatchObject({
      code: 'subscription_cancel_scheduled',
      message: expect.stringContaining('2026-12-10'),
    });
  });

  it('refuses a second skip of a charge already moved (a double click)', () => {
    const moved = { ...active, nextChargeAt: skippedChargeAt(active) };
    expect(skipRefusal(moved, next)).toMatchObject({
      code: 'charge_already_moved',
      message: expect.stringContaining('2027-01-09'),
    });
  });
});

describe('when a cancel takes effect', () => {
  const endOfPeriod = { cancel: 'end_of_period' } as const;

  it("takes the merchant's cancel at once", () => {
    expect(cancelTakesEffect({ by: 'merchant', state: active, selfService: endOfPeriod, now })).toEqual({
      kind: 'now',
    });
  });

  it("takes the subscriber's cancel at the end of the paid period by default", () => {
    expect(cancelTakesEffect({ by: 'subscriber', state: active, selfService: endOfPeriod, now })).toEqual({
      kind: 'at',
      at: next,
    });
  });

  it("takes the subscriber's cancel at once when the organization says so", () => {
    const immediately = { cancel: 'immediately' } as const;
    expect(cancelTakesEffect({ by: 'subscriber', state: active, selfService: immediately, now }).kind).toBe(
      'now',
    );
  });

  it.each(['paused', 'past_due'] as const)(
    'cancels a %s subscription at once: no period is left',
    (status) => {
      expect(
        cancelTakesEffect({ by: 'subscriber', state: { ...active, status }, selfService: endOfPeriod, now })
          .kind,
      ).toBe('now');
    },
  );

  it('cancels at once when the charge is already due', () => {
    expect(
      cancelTakesEffect({
        by: 'subscriber',
        state: { ...active, nextChargeAt: now },
        selfService: endOfPeriod,
        now,
      }).kind,
    ).toBe('now');
  });
});

describe('skipRefusal of a prepaid plan', () => {
  it('refuses: its deliveries are paid for until the end of its period', () => {
    const refusal = skipRefusal(
      {
        status: 'active',
        nextChargeAt: new Date('2026-04-01T00:00:00Z'),
        intervalDays: 30,
        cancelAt: null,
        prepaid: true,
      },
      null,
    );
    expect(refusal).toMatchObject({ code: 'subscription_prepaid' });
    expect(refusal?.message).toMatch(/prepaid until 2026-04-01/);
  });
});
