import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Database } from '../db/database.js';
import type { JobHandler } from './job-queue.js';
import { claimDueJobs, finishAttempt, type ClaimedJobRow } from './jobs-repository.js';
import { afterFailure, mayRun } from './retry-delays.js';

export type JobOutcome = 'done' | 'retried' | 'failed';

export interface JobWorkerOptions {
  clock: Clock;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** how long to wait before looking again when nothing was due (default 1 s) */
  pollIntervalMs?: number;
  /** jobs run at once (default 4) */
  concurrency?: number;
  /**
   * How long a claimed job is this worker's (default 5 min): past it the worker is taken for dead and the job is run
   * again, so it must exceed the slowest handler.
   */
  leaseSeconds?: number;
  /** each attempt's outcome, by the job's kind (metrics) */
  onOutcome?: (kind: string, outcome: JobOutcome) => void;
}

export interface JobWorker {
  /** Claims and runs due jobs until stopped, looking again every pollIntervalMs when none are due. */
  start(): void;
  /** Stops claiming; resolves once the jobs in progress have ended. */
  stop(): Promise<void>;
  /** Runs due jobs until none are due (tests, the CLI); answers how many attempts it ran. */
  drain(): Promise<number>;
}

/**
 * A worker of the job queue (docs/architecture.md, "Jobs"). Any number of them, in any number of processes, share
 * the queue: each claim takes its jobs under row locks that others skip.
 */
export function createJobWorker(
  db: Database,
  handlers: Readonly<Record<string, JobHandler>>,
  options: JobWorkerOptions,
): JobWorker {
  const { clock, logger } = options;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const leaseMs = (options.leaseSeconds ?? 300) * 1000;

  async function runOne(row: ClaimedJobRow): Promise<void> {
    const job = {
      id: row.id,
      kind: row.kind,
      payload: row.payload,
      organizationId: row.organization_id,
      attempt: row.attempts,
    };
    const attempt = { id: row.id, attempt: row.attempts };
    const log = { job: row.id, kind: row.kind, attempt: row.attempts };
    const record = async (outcome: Parameters<typeof finishAttempt>[2], result: JobOutcome) => {
      if (await finishAttempt(db, attempt, outcome, clock.now())) options.onOutcome?.(row.kind, result);
      else logger.warn(log, 'job attempt ended after its lease was taken over: its outcome is dropped');
    };
    if (!mayRun(row.attempts, row.retry_delays)) {
      // Its worker died on the last attempt it had (the lease ran out).
      logger.error(log, 'job failed: its last attempt never finished');
      await record(
        { status: 'failed', error: 'Its last attempt never finished (the worker stopped).' },
        'failed',
      );
      return;
    }
    const handler = handlers[row.kind];
    try {
      if (!handler) throw new Error(`No handler for jobs of kind "${row.kind}".`);
      await handler(job, { db, now: clock.now() });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const next = afterFailure(row.attempts, row.retry_delays, clock.now());
      if (next.retry) {
        logger.warn({ ...log, err: error, retryAt: next.runAt }, 'job attempt failed: retrying later');
        await record({ status: 'queued', runAt: next.runAt, error: reason }, 'retried');
      } else {
        logger.error({ ...log, err: error }, 'job failed after its last attempt');
        await record({ status: 'failed', error: reason }, 'failed');
      }
      return;
    }
    await record({ status: 'done' }, 'done');
  }

  /** One claim and its jobs; answers how many ran. */
  async function runBatch(): Promise<number> {
    const now = clock.now();
    const rows = await claimDueJobs(db, concurrency, new Date(now.getTime() + leaseMs), now);
    await Promise.all(rows.map((row) => runOne(row)));
    return rows.length;
  }

  let stopped = true;
  let loop: Promise<void> | null = null;
  let wake: (() => void) | null = null;
  const pause = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, pollIntervalMs);
      timer.unref();
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      loop = (async () => {
        while (!stopped) {
          let ran = 0;
          try {
            ran = await runBatch();
          } catch (error) {
            logger.error({ err: error }, 'job worker could not claim jobs');
          }
          if (ran === 0 && !stopped) await pause();
        }
      })();
    },
    async stop() {
      stopped = true;
      wake?.();
      await loop;
      loop = null;
    },
    async drain() {
      let total = 0;
      for (let ran = await runBatch(); ran > 0; ran = await runBatch()) total += ran;
      return total;
    },
  };
}
