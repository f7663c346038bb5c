import type { Queryable } from '../db/database.js';

/** A named series of events, counted over a sliding window (every bucket is always used with the same window). */
export interface Bucket {
  name: string;
  windowMs: number;
}

/** At most `limit` events, summed over the buckets (each within its own window). */
export interface RateRule {
  buckets: readonly Bucket[];
  limit: number;
}

export interface BrokenRule {
  /** index of the rule in the request */
  rule: number;
  /** events counted per bucket of the rule, in the rule's order */
  counts: number[];
  /** how long until the rule admits one more event */
  retryAfterMs: number;
}

export type ConsumeResult = { ok: true } | { ok: false; broken: BrokenRule[] };

/**
 * Where rate-limit events live: PostgreSQL (the default) or Redis. Both make each call atomic across every server
 * instance, so parallel requests can never slip past a limit between a check and its record.
 */
export interface RateLimitStore {
  /** When every rule is below its limit, records one event in each `add` bucket; otherwise records nothing. */
  consume(input: {
    rules: readonly RateRule[];
    add: readonly Bucket[];
    now: Date;
    organizationId: number | null;
  }): Promise<ConsumeResult>;
  /**
   * consume inside the caller's transaction on the store's own database (the PostgreSQL store only): the buckets stay
   * locked until that transaction ends, and the events recorded are kept only if it commits. Unlike consume, a
   * failure leaves that transaction failed.
   */
  consumeInTransaction?(
    tx: Queryable,
    input: { rules: readonly RateRule[]; add: readonly Bucket[]; now: Date; organizationId: number | null },
  ): Promise<ConsumeResult>;
  /** Records one event in each `add` bucket and removes the oldest live event of each `release` bucket. */
  record(input: {
    add: readonly Bucket[];
    release: readonly Bucket[];
    now: Date;
    organizationId: number | null;
  }): Promise<void>;
  close(): Promise<void>;
}

/**
 * The rules an event would break, from the times of the events each bucket still counts. A rule at its limit admits
 * one more event once enough of its oldest events have left their windows to bring the count below the limit.
 */
export function findBrokenRules(
  rules: readonly RateRule[],
  eventTimes: (bucket: Bucket) => readonly number[],
  nowMs: number,
): BrokenRule[] {
  const broken: BrokenRule[] = [];
  rules.forEach((rule, index) => {
    const counts: number[] = [];
    const expiries: number[] = [];
    for (const bucket of rule.buckets) {
      const live = eventTimes(bucket).filter((time) => time > nowMs - bucket.windowMs);
      counts.push(live.length);
      for (const time of live) expiries.push(time + bucket.windowMs);
    }
    const total = expiries.length;
    if (total < rule.limit) return;
    expiries.sort((a, b) => a - b);
    const leaving = expiries[total - rule.limit] ?? nowMs;
    broken.push({ rule: index, counts, retryAfterMs: Math.max(leaving - nowMs, 0) });
  });
  return broken;
}
