import type { Database, Queryable } from '../db/database.js';
import {
  deleteOldestRateLimitEvents,
  insertRateLimitEvents,
  insertRateLimitEventsUnlessBroken,
  lockRateLimitBuckets,
  pruneRateLimitEvents,
} from './rate-limit-events-repository.js';
import { findBrokenRules, type Bucket, type ConsumeResult, type RateLimitStore } from './rate-limit-store.js';

// More events than any limit could need to count; bounds what one check reads.
const MAX_EVENTS_READ = 10_000;

/**
 * Rate-limit events as rows of rate_limit_events. Each call runs in one transaction holding an advisory lock per
 * bucket, so the check and the insert are one atomic step for every instance on the database.
 * Old rows are pruned as buckets are touched, and all expired rows every `pruneEveryMs` (whoever comes first).
 */
export function createPostgresRateLimitStore(
  db: Database,
  options: { retentionMs: number; pruneEveryMs?: number },
): RateLimitStore {
  const pruneEveryMs = options.pruneEveryMs ?? 5 * 60_000;
  let nextPruneAt = 0;

  async function pruneWhenDue(nowMs: number): Promise<void> {
    if (nowMs < nextPruneAt) return;
    nextPruneAt = nowMs + pruneEveryMs;
    await pruneRateLimitEvents(db, new Date(nowMs - options.retentionMs));
  }

  const allNames = (...groups: (readonly Bucket[])[]) => groups.flat().map((bucket) => bucket.name);

  /** The check and its record, under the buckets' locks (held until the transaction ends). */
  async function check(
    tx: Queryable,
    { rules, add, now, organizationId }: Parameters<RateLimitStore['consume']>[0],
  ): Promise<ConsumeResult> {
    const nowMs = now.getTime();
    const counted = new Map<string, Date>();
    for (const bucket of rules.flatMap((rule) => rule.buckets)) {
      if (!counted.has(bucket.name)) counted.set(bucket.name, new Date(nowMs - bucket.windowMs));
    }
    // The locks, then the check and the record in one statement: it records only when no rule is at its limit, and
    // reads the events as they are once the locks are held.
    await lockRateLimitBuckets(tx, allNames(...rules.map((rule) => rule.buckets), add));
    const { inserted, times } = await insertRateLimitEventsUnlessBroken(tx, {
      counted: [...counted].map(([name, since]) => ({ name, since })),
      limit: MAX_EVENTS_READ,
      rules: rules.map((rule) => ({
        bucketNames: rule.buckets.map((bucket) => bucket.name),
        limit: rule.limit,
      })),
      add: add.map((bucket) => ({ name: bucket.name, before: new Date(nowMs - bucket.windowMs) })),
      organizationId,
      occurredAt: now,
    });
    if (inserted) return { ok: true };
    const broken = findBrokenRules(
      rules,
      (bucket) => (times.get(bucket.name) ?? []).map((time) => time.getTime()),
      nowMs,
    );
    // The statement and findBrokenRules apply the same rule to the same events.
    if (broken.length === 0) throw new Error('rate-limit check disagrees with the events it read');
    return { ok: false, broken };
  }

  return {
    async consume(input) {
      const result = await db.transaction((tx) => check(tx, input));
      await pruneWhenDue(input.now.getTime());
      return result;
    },

    async consumeInTransaction(tx, input) {
      const result = await check(tx, input);
      // On a connection of its own, not waited for while the caller's transaction holds its locks; a prune that
      // failed is tried again at the next check.
      pruneWhenDue(input.now.getTime()).catch(() => {
        nextPruneAt = 0;
      });
      return result;
    },

    async record({ add, release, now, organizationId }) {
      const nowMs = now.getTime();
      await db.transaction(async (tx) => {
        await lockRateLimitBuckets(tx, allNames(add, release));
        await insertRateLimitEvents(tx, {
          buckets: add.map((bucket) => ({ name: bucket.name, before: null })),
          organizationId,
          occurredAt: now,
        });
        await deleteOldestRateLimitEvents(
          tx,
          release.map((bucket) => ({ name: bucket.name, since: new Date(nowMs - bucket.windowMs) })),
        );
      });
    },

    // The database belongs to the app, which closes it.
    async close() {},
  };
}
