import type { Queryable } from '../db/database.js';

// Namespaces the rate limiter's advisory locks (the two-key form) away from the migrator's one-key lock.
const RATE_LIMIT_LOCK_SPACE = 727_274_002;

// Each function is one statement over all the buckets of a check, so a check costs a few round trips to the
// database however many buckets it names (it was one to three per bucket, a fifth of an order's queries).

/**
 * Takes a transaction-scoped advisory lock per bucket, in name order so two transactions naming the same buckets
 * never wait on each other crosswise. Held until the transaction ends: a check and its insert are one step.
 */
export async function lockRateLimitBuckets(tx: Queryable, buckets: readonly string[]): Promise<void> {
  const names = [...new Set(buckets)].sort();
  if (names.length === 0) return;
  await tx.query(
    `SELECT pg_advisory_xact_lock($1::int, hashtext(b.name))
       FROM unnest($2::text[]) WITH ORDINALITY AS b(name, position)
      ORDER BY b.position`,
    [RATE_LIMIT_LOCK_SPACE, names],
  );
}

/** When each bucket's events after its `since` happened, oldest first (at most `limit` per bucket). */
export async function listRateLimitEventTimes(
  tx: Queryable,
  buckets: readonly { name: string; since: Date }[],
  limit: number,
): Promise<Map<string, Date[]>> {
  const times = new Map<string, Date[]>(buckets.map((bucket) => [bucket.name, []]));
  if (buckets.length === 0) return times;
  const { rows } = await tx.query<{ bucket: string; occurred_at: Date | string }>(
    `SELECT b.name AS bucket, e.occurred_at
       FROM unnest($1::text[], $2::timestamptz[]) WITH ORDINALITY AS b(name, since, position)
       CROSS JOIN LATERAL (
         SELECT occurred_at, id FROM rate_limit_events
          WHERE bucket = b.name AND occurred_at > b.since
          ORDER BY occurred_at, id LIMIT $3
       ) e
      ORDER BY b.position, e.occurred_at, e.id`,
    [buckets.map((bucket) => bucket.name), buckets.map((bucket) => bucket.since.toISOString()), limit],
  );
  for (const row of rows) times.get(row.bucket)?.push(new Date(row.occurred_at));
  return times;
}

/**
 * Records one event at `occurredAt` in each bucket, first forgetting each bucket's events at or before its `before`
 * (they no longer count).
 */
export async function insertRateLimitEvents(
  tx: Queryable,
  input: {
    buckets: readonly { name: string; before: Date | null }[];
    organizationId: number | null;
    occurredAt: Date;
  },
): Promise<void> {
  if (input.buckets.length === 0) return;
  await tx.query(
    `WITH forgotten AS (
       DELETE FROM rate_limit_events e
        USING unnest($1::text[], $2::timestamptz[]) AS b(name, before)
        WHERE e.bucket = b.name AND e.occurred_at <= b.before
     )
     INSERT INTO rate_limit_events (organization_id, bucket, occurred_at)
     SELECT $3, b.name, $4 FROM unnest($1::text[]) AS b(name)`,
    [
      input.buckets.map((bucket) => bucket.name),
      input.buckets.map((bucket) => bucket.before?.toISOString() ?? null),
      input.organizationId,
      input.occurredAt,
    ],
  );
}

/** Removes the oldest event after `since` of each bucket (one per time the bucket is named), where there is one. */
export async function deleteOldestRateLimitEvents(
  tx: Queryable,
  buckets: readonly { name: string; since: Date }[],
): Promise<void> {
  if (buckets.length === 0) return;
  await tx.query(
    `DELETE FROM rate_limit_events WHERE id IN (
       SELECT e.id
         FROM (SELECT name, min(since) AS since, count(*) AS times
                 FROM unnest($1::text[], $2::timestamptz[]) AS b(name, since) GROUP BY name) b
         CROSS JOIN LATERAL (
           SELECT id FROM rate_limit_events
            WHERE bucket = b.name AND occurred_at > b.since
            ORDER BY occurred_at, id LIMIT b.times
         ) e
     )`,
    [buckets.map((bucket) => bucket.name), buckets.map((bucket) => bucket.since.toISOString())],
  );
}

/** Forgets every event at or before `before`, whatever its bucket. Returns how many went. */
export async function pruneRateLimitEvents(db: Queryable, before: Date): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM rate_limit_events WHERE occurred_at <= $1', [before]);
  return rowCount;
}
