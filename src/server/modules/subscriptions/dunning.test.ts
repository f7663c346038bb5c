import { describe, expect, it } from 'vitest';
import { DEFAULT_DUNNING, type Dunning } from '../../../contract/organization.js';
import { nextDunningStep } from './dunning.js';

const DAY = 86_400_000;
const now = new Date('2026-11-01T00:00:00Z');
const at = (days: number) => ({ kind: 'retry', at: new Date(now.getTime() + days * DAY) });

describe('nextDunningStep', () => {
  it('retries after each day count of the schedule in turn, then ends as configured', () => {
    const dunning: Dunning = { retry_days: [2, 5], after_last_retry: 'cancel' };
    expect(nextDunningStep({ retriesSoFar: 0, dunning, hard: false, now })).toEqual(at(2));
    expect(nextDunningStep({ retriesSoFar: 1, dunning, hard: false, now })).toEqual(at(5));
    expect(nextDunningStep({ retriesSoFar: 2, dunning, hard: false, now })).toEqual({ kind: 'cancelled' });
  });

  it('keeps the default of 1, 3 and 7 days, then past due', () => {
    const steps = [0, 1, 2, 3].map((retriesSoFar) =>
      nextDunningStep({ retriesSoFar, dunning: DEFAULT_DUNNING, hard: false, now }),
    );
    expect(steps).toEqual([at(1), at(3), at(7), { kind: 'past_due' }]);
  });

  it('ends at once on a hard decline, whatever retries are left', () => {
    for (const [after, end] of [
      ['past_due', 'past_due'],
      ['cancel', 'cancelled'],
      ['pause', 'paused'],
    ] as const) {
      const dunning: Dunning = { retry_days: [1, 3, 7], after_last_retry: after };
      expect(nextDunningStep({ retriesSoFar: 0, dunning, hard: true, now })).toEqual({ kind: end });
    }
  });

  it('ends at the first decline with no retries configured', () => {
    const dunning: Dunning = { retry_days: [], after_last_retry: 'pause' };
    expect(nextDunningStep({ retriesSoFar: 0, dunning, hard: false, now })).toEqual({ kind: 'paused' });
  });
});
