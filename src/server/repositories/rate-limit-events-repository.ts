import type { Queryable } from '../db/database.js';

// Namespaces the rate limiter's advisory locks (the two-key form) away from the migrator's one-key lock.
const RATE_LIMIT_LOCK_SPACE = 727_274_002;

/**
 * Takes a transaction-scoped advisory lock per bucket, in name order so two transactions naming the same buckets
 * never wait on each other crosswise. Held until the transaction ends: a check and its insert are one step.
 */
export async function lockRateLimitBuckets(tx: Queryable, buckets: readonly string[]): Promise<void> {
  for (const bucket of [...new Set(buckets)].sort()) {
    await tx.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2))', [RATE_LIMIT_LOCK_SPACE, bucket]);
  }
}

/** When each of a bucket's events after `since` happened, oldest first. */
export async function listRateLimitEventTimes(
  tx: Queryable,
  bucket: string,
  since: Date,
  limit: number,
): Promise<Date[]> {
  const { rows } = await tx.query<{ occurred_at: Date | string }>(
    `SELECT occurred_at FROM rate_limit_events
      WHERE bucket = $1 AND occurred_at > $2
      ORDER BY occurred_at, id LIMIT $3`,
    [bucket, since, limit],
  );
  return rows.map((row) => new Date(row.occurred_at));
}

export async function insertRateLimitEvent(
  tx: Queryable,
  input: { bucket: string; organizationId: number | null; occurredAt: Date },
): Promise<void> {
  await tx.query('INSERT INTO rate_limit_events (organization_id, bucket, occurred_at) VALUES ($1, $2, $3)', [
    input.organizationId,
    input.bucket,
    input.occurredAt,
  ]);
}

/** Removes the oldest event of a bucket after `since`, if there is one. */
export async function deleteOldestRateLimitEvent(tx: Queryable, bucket: string, since: Date): Promise<void> {
  await tx.query(
    `DELETE FROM rate_limit_events WHERE id = (
       SELECT id FROM rate_limit_events WHERE bucket = $1 AND occurred_at > $2 ORDER BY occurred_at, id LIMIT 1
     )`,
    [bucket, since],
  );
}

/** Forgets a bucket's events at or before `before` (they no longer count). */
export async function deleteRateLimitEventsBefore(
  tx: Queryable,
  bucket: string,
  before: Date,
): Promise<void> {
  await tx.query('DELETE FROM rate_limit_events WHERE bucket = $1 AND occurred_at <= $2', [bucket, before]);
}

/** Forgets every event at or before `before`, whatever its bucket. Returns how many went. */
export async function pruneRateLimitEvents(db: Queryable, before: Date): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM rate_limit_events WHERE occurred_at <= $1', [before]);
  return rowCount;
}
