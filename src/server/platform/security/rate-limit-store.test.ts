import { describe, expect, it } from 'vitest';
import { findBrokenRules, type Bucket } from './rate-limit-store.js';

const failed: Bucket = { name: 'failed', windowMs: 600_000 };
const pending: Bucket = { name: 'pending', windowMs: 60_000 };

describe('findBrokenRules', () => {
  it('breaks no rule below its limit', () => {
    const times = { failed: [1000, 2000], pending: [] as number[] };
    expect(
      findBrokenRules([{ buckets: [failed], limit: 3 }], (b) => times[b.name as 'failed'], 3000),
    ).toEqual([]);
  });

  it('breaks a rule at its limit and says when its oldest event leaves the window', () => {
    const times = { failed: [1000, 2000, 3000] };
    expect(
      findBrokenRules([{ buckets: [failed], limit: 3 }], (b) => times[b.name as 'failed'], 5000),
    ).toEqual([{ rule: 0, counts: [3], retryAfterMs: 600_000 + 1000 - 5000 }]);
  });

  it('waits for as many events to leave as the count is over the limit', () => {
    const times = { failed: [1000, 2000, 3000, 4000] };
    const [broken] = findBrokenRules(
      [{ buckets: [failed], limit: 2 }],
      (b) => times[b.name as 'failed'],
      5000,
    );
    // 4 events, limit 2: the third-oldest must leave before one more is admitted.
    expect(broken?.retryAfterMs).toBe(600_000 + 3000 - 5000);
  });

  it('sums buckets with their own windows, and ignores events that have left theirs', () => {
    const times: Record<string, number[]> = { failed: [0, 500_000], pending: [10_000, 630_000] };
    const rules = [{ buckets: [failed, pending], limit: 3 }];
    // At 640 000 failed counts 500 000 only (0 has left), pending 630 000 only (10 000 has left): 2, below 3.
    expect(findBrokenRules(rules, (b) => times[b.name] ?? [], 640_000)).toEqual([]);
    // At 60 000 both count; with limit 2 the pending one leaves first (at 70 000), before failed 0 (at 600 000).
    const early: Record<string, number[]> = { failed: [0], pending: [10_000] };
    expect(
      findBrokenRules([{ buckets: [failed, pending], limit: 2 }], (b) => early[b.name] ?? [], 60_000),
    ).toEqual([{ rule: 0, counts: [1, 1], retryAfterMs: 10_000 }]);
  });
});
