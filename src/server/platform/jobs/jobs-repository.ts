import type { Queryable } from '../db/database.js';
import type { SqlParams } from '../db/sql-params.js';

export interface ClaimedJobRow {
  id: number;
  kind: string;
  payload: Record<string, unknown>;
  organization_id: number | null;
  /** this attempt's number, 1 for the first */
  attempts: number;
  retry_delays: number[];
}

export interface JobRow extends ClaimedJobRow {
  key: string | null;
  status: 'queued' | 'running' | 'done' | 'failed';
  run_at: Date;
  locked_until: Date | null;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

/** Adds a job; one whose key is already present (in any status) is left as it is. */
export async function insertJob(
  tx: Queryable,
  job: {
    kind: string;
    key: string | null;
    payload: Record<string, unknown>;
    organizationId: number | null;
    runAt: Date;
    retryDelays: readonly number[];
  },
  now: Date,
): Promise<void> {
  await tx.query(
    `INSERT INTO jobs (organization_id, kind, key, payload, run_at, retry_delays, created_at, updated_at)
     VALUES ($1, $2, $3, $4::jsonb, $5, $6::jsonb, $7, $7)
     ON CONFLICT (key) DO NOTHING`,
    [
      job.organizationId,
      job.kind,
      job.key,
      JSON.stringify(job.payload),
      job.runAt,
      JSON.stringify(job.retryDelays),
      now,
    ],
  );
}

/**
 * An INSERT, to run as a CTE of a statement that makes a change, enqueueing a job for each row of `rows` (an earlier
 * CTE's name) that `where` keeps: the job is committed with the change, in one statement. `key`, `organizationId`,
 * `payload` and `where` are SQL expressions over that row. As insertJob, a key already present adds nothing.
 */
export function insertJobsFromRows(
  p: SqlParams,
  rows: string,
  job: {
    kind: string;
    key: string;
    organizationId: string;
    payload: string;
    where: string;
    retryDelays: readonly number[];
  },
  now: Date,
): string {
  const at = p.add(now, 'timestamptz');
  return `INSERT INTO jobs (organization_id, kind, key, payload, run_at, retry_delays, created_at, updated_at)
     SELECT ${job.organizationId}, ${p.add(job.kind, 'text')}, ${job.key}, ${job.payload}, ${at},
            ${p.add(JSON.stringify(job.retryDelays), 'jsonb')}, ${at}, ${at}
       FROM ${rows} WHERE ${job.where}
     ON CONFLICT (key) DO NOTHING`;
}

/**
 * Claims up to `limit` jobs that are due: queued ones whose time has come and running ones whose lease ran out (their
 * worker is taken for dead). SKIP LOCKED lets workers claim side by side, each row going to one of them; a row
 * another worker has just claimed no longer matches once its lock is released, so it is not claimed twice.
 */
export async function claimDueJobs(
  db: Queryable,
  limit: number,
  leaseUntil: Date,
  now: Date,
): Promise<ClaimedJobRow[]> {
  const { rows } = await db.query<ClaimedJobRow>(
    `WITH due AS (
       SELECT id FROM jobs
        WHERE (status = 'queued' AND run_at <= $1) OR (status = 'running' AND locked_until <= $1)
        ORDER BY run_at, id
        LIMIT $2
        FOR UPDATE SKIP LOCKED
     )
     UPDATE jobs
        SET status = 'running', attempts = jobs.attempts + 1, locked_until = $3, updated_at = $1
       FROM due
      WHERE jobs.id = due.id
     RETURNING jobs.id, jobs.kind, jobs.payload, jobs.organization_id, jobs.attempts, jobs.retry_delays`,
    [now, limit, leaseUntil],
  );
  return rows;
}

/**
 * Records how an attempt ended. Only the attempt that holds the job writes: once a lease ran out and another worker
 * claimed the job again (attempts moved on), the late outcome is dropped and false is answered.
 */
export async function finishAttempt(
  db: Queryable,
  job: { id: number; attempt: number },
  outcome:
    | { status: 'done' }
    | { status: 'queued'; runAt: Date; error: string }
    | { status: 'failed'; error: string },
  now: Date,
): Promise<boolean> {
  const finished = outcome.status === 'queued' ? null : now;
  const { rowCount } = await db.query(
    `UPDATE jobs
        SET status = $3, run_at = coalesce($4, run_at), last_error = $5, locked_until = NULL,
            finished_at = $6, updated_at = $7
      WHERE id = $1 AND attempts = $2 AND status = 'running'`,
    [
      job.id,
      job.attempt,
      outcome.status,
      outcome.status === 'queued' ? outcome.runAt : null,
      outcome.status === 'done' ? null : outcome.error,
      finished,
      now,
    ],
  );
  return rowCount === 1;
}

export async function findJobByKey(db: Queryable, key: string): Promise<JobRow | null> {
  const { rows } = await db.query<JobRow>('SELECT * FROM jobs WHERE key = $1', [key]);
  return rows[0] ?? null;
}

/**
 * Deletes the jobs that ended (done, or given up) before `before` (docs/operations.md, "Housekeeping"); queued and
 * running ones stay whatever their age. Answers how many went.
 */
export async function deleteFinishedJobs(db: Queryable, before: Date): Promise<number> {
  const { rowCount } = await db.query(
    "DELETE FROM jobs WHERE status IN ('done', 'failed') AND finished_at < $1",
    [before],
  );
  return rowCount;
}
