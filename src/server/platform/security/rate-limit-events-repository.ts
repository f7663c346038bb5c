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

/**
 * The check and the record of a rate-limited event in one statement (under the buckets' locks, taken before by
 * lockRateLimitBuckets): reads when each counted bucket's events after its `since` happened (oldest first, at most
 * `limit` per bucket), and only when every rule counts fewer events than its limit over its buckets (the rule
 * findBrokenRules applies to those times) records one event in each `add` bucket as insertRateLimitEvents does.
 */
export async function insertRateLimitEventsUnlessBroken(
  tx: Queryable,
  input: {
    counted: readonly { name: string; since: Date }[];
    limit: number;
    rules: readonly { bucketNames: readonly string[]; limit: number }[];
    add: readonly { name: string; before: Date | null }[];
    organizationId: number | null;
    occurredAt: Date;
  },
): Promise<{ inserted: boolean; times: Map<string, Date[]> }> {
  if (!Number.isSafeInteger(input.limit) || input.limit < 1) throw new Error(`bad limit ${input.limit}`);
  const times = new Map<string, Date[]>(input.counted.map((bucket) => [bucket.name, []]));
  const params: unknown[] = [input.organizationId, input.occurredAt];
  const counted = rowsOf(
    ['text', 'timestamptz', 'int'],
    input.counted.map((bucket, index) => [bucket.name, bucket.since.toISOString(), index + 1]),
    params,
  );
  const rules = rowsOf(
    ['int', 'int'],
    input.rules.map((rule, index) => [rule.limit, index + 1]),
    params,
  );
  const members = rowsOf(
    ['int', 'text'],
    input.rules.flatMap((rule, index) => rule.bucketNames.map((name) => [index + 1, name])),
    params,
  );
  const added = rowsOf(
    ['text', 'timestamptz'],
    input.add.map((bucket) => [bucket.name, bucket.before?.toISOString() ?? null]),
    params,
  );
  const { rows } = await tx.query<{ inserted: boolean; times: [string, string][] | null }>(
    `WITH counted (name, since, position) AS (${counted}),
     rules (lim, rule) AS (${rules}),
     members (rule, name) AS (${members}),
     added (name, before) AS (${added}),
     times AS (
       SELECT b.name, b.position, e.occurred_at, e.id
         FROM counted b
         CROSS JOIN LATERAL (
           SELECT occurred_at, id FROM rate_limit_events
            WHERE bucket = b.name AND occurred_at > b.since
            ORDER BY occurred_at, id LIMIT ${input.limit}
         ) e
     ), counts AS (
       SELECT name, count(*) AS n FROM times GROUP BY name
     ), admitted AS (
       SELECT NOT EXISTS (
         SELECT 1 FROM rules r
          WHERE r.lim <= (SELECT coalesce(sum(c.n), 0)
                            FROM members m
                            JOIN counts c ON c.name = m.name
                           WHERE m.rule = r.rule)
       ) AS ok
     ), forgotten AS (
       DELETE FROM rate_limit_events e
        USING added b, admitted
        WHERE admitted.ok AND e.bucket = b.name AND e.occurred_at <= b.before
     ), recorded AS (
       INSERT INTO rate_limit_events (organization_id, bucket, occurred_at)
       SELECT $1, b.name, $2 FROM added b, admitted WHERE admitted.ok
     )
     SELECT (SELECT ok FROM admitted) AS inserted,
            (SELECT json_agg(json_build_array(name, occurred_at) ORDER BY position, occurred_at, id) FROM times) AS times`,
    params,
  );
  const row = rows[0];
  for (const [name, time] of row?.times ?? []) times.get(name)?.push(new Date(time));
  return { inserted: row?.inserted === true, times };
}

/**
 * A list of rows as SQL, its values appended to `params`: `VALUES ($3::text, ...), ...`, or no rows of those types.
 * Unlike unnest() of an array parameter, whose rows the planner guesses at 10, it has as many rows as the planner
 * sees: with unnest, the generic plan of the check looked four times dearer than planning each call afresh, so
 * PostgreSQL planned it on every order (0.3 ms, more than running it). Each shape of lists is a statement of its own.
 */
function rowsOf(types: readonly string[], rows: readonly unknown[][], params: unknown[]): string {
  if (rows.length === 0) return `SELECT ${types.map((type) => `NULL::${type}`).join(', ')} WHERE false`;
  const values = rows.map(
    (row) =>
      `(${row
        .map((value, index) => {
          params.push(value);
          return `$${params.length}::${types[index]}`;
        })
        .join(', ')})`,
  );
  return `VALUES ${values.join(', ')}`;
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
