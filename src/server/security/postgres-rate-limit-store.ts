import type { Database } from '../db/database.js';
import {
  deleteOldestRateLimitEvent,
  deleteRateLimitEventsBefore,
  insertRateLimitEvent,
  listRateLimitEventTimes,
  lockRateLimitBuckets,
  pruneRateLimitEvents,
} from '../repositories/rate-limit-events-repository.js';
import { findBrokenRules, type Bucket, type RateLimitStore } from './rate-limit-store.js';

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

  return {
    async consume({ rules, add, now, organizationId }) {
      const nowMs = now.getTime();
      const result = await db.transaction(async (tx) => {
        await lockRateLimitBuckets(tx, allNames(...rules.map((rule) => rule.buckets), add));
        const times = new Map<string, number[]>();
        for (const bucket of rules.flatMap((rule) => rule.buckets)) {
          if (times.has(bucket.name)) continue;
          const since = new Date(nowMs - bucket.windowMs);
          const rows = await listRateLimitEventTimes(tx, bucket.name, since, MAX_EVENTS_READ);
          times.set(
            bucket.name,
            rows.map((time) => time.getTime()),
          );
        }
        const broken = findBrokenRules(rules, (bucket) => times.get(bucket.name) ?? [], nowMs);
        if (broken.length > 0) return { ok: false as const, broken };
        for (const bucket of add) {
          await deleteRateLimitEventsBefore(tx, bucket.name, new Date(nowMs - bucket.windowMs));
          await insertRateLimitEvent(tx, { bucket: bucket.name, organizationId, occurredAt: now });
        }
        return { ok: true as const };
      });
      await pruneWhenDue(nowMs);
      return result;
    },

    async record({ add, release, now, organizationId }) {
      const nowMs = now.getTime();
      await db.transaction(async (tx) => {
        await lockRateLimitBuckets(tx, allNames(add, release));
        for (const bucket of add) {
          await insertRateLimitEvent(tx, { bucket: bucket.name, organizationId, occurredAt: now });
        }
        for (const bucket of release) {
          await deleteOldestRateLimitEvent(tx, bucket.name, new Date(nowMs - bucket.windowMs));
        }
      });
    },

    // The database belongs to the app, which closes it.
    async close() {},
  };
}
