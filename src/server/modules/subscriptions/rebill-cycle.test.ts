import { describe, expect, it } from 'vitest';
import { DEFAULT_DUNNING } from '../../../contract/organization.js';
import { cycleToCharge, nextSchedule, prepaidStepOf } from './rebill-service.js';

const DAY = 86_400_000;
const plan = {
  phases: [
    { cycles: 1, amount: 308, days: 14 },
    { cycles: 2, amount: 2364, days: 30 },
    { cycles: 2, amount: 3446, days: 30 },
  ],
};
const due = { cycle_amount: 2364, interval_days: 30, billing_plan: plan };

describe('cycleToCharge', () => {
  it("charges the kept plan's cycle, and says when it is the last", () => {
    expect(cycleToCharge({ ...due, cycle: 1 })).toEqual({ cycle: 2, amount: 2364, days: 30, isLast: false });
    expect(cycleToCharge({ ...due, cycle: 3 })).toEqual({ cycle: 4, amount: 3446, days: 30, isLast: false });
    expect(cycleToCharge({ ...due, cycle: 4 })).toEqual({ cycle: 5, amount: 3446, days: 30, isLast: true });
  });

  it('charges nothing past the end of the plan', () => {
    expect(cycleToCharge({ ...due, cycle: 5 })).toBeNull();
  });

  it('charges a subscription made before prices by cycle its cycle amount every interval', () => {
    expect(cycleToCharge({ ...due, billing_plan: null, cycle: 7 })).toEqual({
      cycle: 8,
      amount: 2364,
      days: 30,
      isLast: false,
    });
  });
});

describe('nextSchedule', () => {
  const now = new Date('2026-12-10T00:00:00.000Z');

  it("moves an approved charge by the charged cycle's length", () => {
    const schedule = nextSchedule(
      { next_charge_at: now, interval_days: 30, retry_count: 0, cycleDays: 7 },
      { status: 'approved' },
      DEFAULT_DUNNING,
      now,
    );
    expect(schedule.nextChargeAt.getTime()).toBe(now.getTime() + 7 * DAY);
  });
});

describe('prepaidStepOf', () => {
  const prepaid = {
    phases: [
      { cycles: 1, amount: 9939, days: 90 },
      { cycles: null, amount: 9293, days: 90 },
    ],
    prepaid: { cycles: 3, renewal: 'renew', intervalDays: 30 },
  };

  it('fulfils inside the paid period and charges at the start of the next', () => {
    expect(prepaidStepOf({ billing_plan: prepaid, prepaid_shipped_cycle: 2 })).toEqual({
      kind: 'fulfil',
      cycle: 3,
      endsPlan: false,
    });
    expect(prepaidStepOf({ billing_plan: prepaid, prepaid_shipped_cycle: 3 })).toEqual({
      kind: 'charge',
      cycle: 4,
      payment: 2,
    });
  });

  it('leaves any other subscription to its charges', () => {
    expect(prepaidStepOf({ billing_plan: plan, prepaid_shipped_cycle: null })).toBeNull();
  });
});
