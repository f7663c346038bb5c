// The durable job queue (docs/architecture.md, "Jobs"): a job is written by the transaction whose change calls for
// it, so it exists exactly when the change does.
import type { Database, Queryable } from '../db/database.js';
import { insertJob } from './jobs-repository.js';
import { checkedDelays, DEFAULT_RETRY_DELAYS_SECONDS } from './retry-delays.js';

export interface NewJob {
  kind: string;
  payload: Record<string, unknown>;
  organizationId: number | null;
  /** not before (default: now) */
  runAt?: Date;
  /** at most one job per key, ever: a second enqueue with it does nothing */
  key?: string;
  /** seconds to wait after each failed attempt (default DEFAULT_RETRY_DELAYS_SECONDS) */
  retryDelaysSeconds?: readonly number[];
}

export interface Job {
  id: number;
  kind: string;
  payload: Record<string, unknown>;
  organizationId: number | null;
  /** 1 for the first attempt */
  attempt: number;
}

/**
 * Carries a job out. Throwing means the attempt failed: the job runs again after its next delay, and after the last
 * one it is failed with the error's message. A job may run more than once (a worker that died before recording its
 * outcome), so a handler makes each of its effects once, by the job's key.
 */
export type JobHandler = (job: Job, context: { db: Database; now: Date }) => Promise<void>;

/** Enqueues a job in the caller's transaction: rolled back with it, committed with it. */
export async function enqueueJob(tx: Queryable, job: NewJob, now: Date): Promise<void> {
  await insertJob(
    tx,
    {
      kind: job.kind,
      key: job.key ?? null,
      payload: job.payload,
      organizationId: job.organizationId,
      runAt: job.runAt ?? now,
      retryDelays: checkedDelays(job.retryDelaysSeconds ?? DEFAULT_RETRY_DELAYS_SECONDS),
    },
    now,
  );
}
