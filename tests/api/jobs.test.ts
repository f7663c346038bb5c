import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/server/platform/clock.js';
import { enqueueJob, type JobHandler } from '../../src/server/platform/jobs/job-queue.js';
import { createJobWorker } from '../../src/server/platform/jobs/job-worker.js';
import { claimDueJobs, finishAttempt, findJobByKey } from '../../src/server/platform/jobs/jobs-repository.js';
import { createLogger } from '../../src/server/platform/logging.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';

let database: TestDatabase;
const logger = createLogger({ level: 'silent' });

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database.drop();
});

let counter = 0;
/** A kind of this test's own, so workers in other tests never take its jobs. */
const newKind = () => `test.${process.pid}.${++counter}`;

const workerOf = (clock: ManualClock, handlers: Record<string, JobHandler>, leaseSeconds = 300) =>
  createJobWorker(database.db, handlers, { clock, logger, leaseSeconds, concurrency: 4 });

describe('enqueueJob', () => {
  it('writes the job with its transaction: rolled back, no job; a key already present adds nothing', async () => {
    const clock = new ManualClock();
    const kind = newKind();
    await expect(
      database.db.transaction(async (tx) => {
        await enqueueJob(tx, { kind, key: `${kind}:lost`, payload: {}, organizationId: null }, clock.now());
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await findJobByKey(database.db, `${kind}:lost`)).toBeNull();

    for (const n of [1, 2]) {
      await database.db.transaction((tx) =>
        enqueueJob(tx, { kind, key: `${kind}:kept`, payload: { n }, organizationId: null }, clock.now()),
      );
    }
    const runs: unknown[] = [];
    const worker = workerOf(clock, { [kind]: async (job) => void runs.push(job.payload) });
    expect(await worker.drain()).toBe(1);
    expect(runs).toEqual([{ n: 1 }]);
    expect(await findJobByKey(database.db, `${kind}:kept`)).toMatchObject({ status: 'done', attempts: 1 });
  });
});

describe('a job worker', () => {
  it('retries a handler that throws after each delay, then fails the job with its reason', async () => {
    const clock = new ManualClock();
    const kind = newKind();
    const key = `${kind}:failing`;
    await enqueueJob(
      database.db,
      { kind, key, payload: {}, organizationId: null, retryDelaysSeconds: [10, 20] },
      clock.now(),
    );
    const attempts: number[] = [];
    const worker = workerOf(clock, {
      [kind]: async (job) => {
        attempts.push(job.attempt);
        throw new Error(`SMTP refused attempt ${job.attempt}`);
      },
    });

    expect(await worker.drain()).toBe(1);
    expect(await findJobByKey(database.db, key)).toMatchObject({
      status: 'queued',
      last_error: 'SMTP refused attempt 1',
      run_at: new Date(clock.now().getTime() + 10_000),
    });
    clock.advance(9_999);
    expect(await worker.drain()).toBe(0);
    clock.advance(1);
    expect(await worker.drain()).toBe(1);
    clock.advance(19_999);
    expect(await worker.drain()).toBe(0);
    clock.advance(1);
    expect(await worker.drain()).toBe(1);
    clock.advance(3_600_000);
    expect(await worker.drain()).toBe(0);

    expect(attempts).toEqual([1, 2, 3]);
    expect(await findJobByKey(database.db, key)).toMatchObject({
      status: 'failed',
      attempts: 3,
      last_error: 'SMTP refused attempt 3',
      locked_until: null,
    });
  });

  it('runs again a job whose worker died, once its lease has run out, and drops the dead attempt’s outcome', async () => {
    const clock = new ManualClock();
    const kind = newKind();
    const key = `${kind}:orphan`;
    await enqueueJob(database.db, { kind, key, payload: {}, organizationId: null }, clock.now());
    // A worker claims it with a 60 s lease, then dies before recording anything.
    const [claimed] = await claimDueJobs(
      database.db,
      10,
      new Date(clock.now().getTime() + 60_000),
      clock.now(),
    );
    expect(claimed).toMatchObject({ kind, attempts: 1 });

    const runs: number[] = [];
    const worker = workerOf(clock, { [kind]: async (job) => void runs.push(job.attempt) });
    clock.advance(59_000);
    expect(await worker.drain()).toBe(0);
    clock.advance(1_000);
    expect(await worker.drain()).toBe(1);
    expect(runs).toEqual([2]);
    expect(await findJobByKey(database.db, key)).toMatchObject({ status: 'done', attempts: 2 });

    // The dead worker comes back late: its outcome no longer counts.
    expect(
      await finishAttempt(
        database.db,
        { id: claimed!.id, attempt: 1 },
        { status: 'failed', error: 'late' },
        clock.now(),
      ),
    ).toBe(false);
    expect(await findJobByKey(database.db, key)).toMatchObject({ status: 'done', last_error: null });
  });

  it('fails a job whose worker died on its last attempt instead of running it again', async () => {
    const clock = new ManualClock();
    const kind = newKind();
    const key = `${kind}:last`;
    await enqueueJob(
      database.db,
      { kind, key, payload: {}, organizationId: null, retryDelaysSeconds: [] },
      clock.now(),
    );
    await claimDueJobs(database.db, 10, new Date(clock.now().getTime() + 1_000), clock.now());
    clock.advance(1_000);
    const runs: number[] = [];
    expect(await workerOf(clock, { [kind]: async (job) => void runs.push(job.attempt) }).drain()).toBe(1);
    expect(runs).toEqual([]);
    expect(await findJobByKey(database.db, key)).toMatchObject({
      status: 'failed',
      last_error: 'Its last attempt never finished (the worker stopped).',
    });
  });

  it('fails with its reason a job no handler knows, after its retries', async () => {
    const clock = new ManualClock();
    const kind = newKind();
    await enqueueJob(
      database.db,
      { kind, key: `${kind}:unknown`, payload: {}, organizationId: null, retryDelaysSeconds: [] },
      clock.now(),
    );
    expect(await workerOf(clock, {}).drain()).toBe(1);
    expect(await findJobByKey(database.db, `${kind}:unknown`)).toMatchObject({
      status: 'failed',
      last_error: `No handler for jobs of kind "${kind}".`,
    });
  });

  it('shares the queue with another worker without running any job twice', async () => {
    const clock = new ManualClock();
    const kind = newKind();
    const count = 40;
    for (let n = 0; n < count; n++)
      await enqueueJob(
        database.db,
        { kind, key: `${kind}:${n}`, payload: { n }, organizationId: null },
        clock.now(),
      );
    const runs: { worker: string; n: number }[] = [];
    const handler =
      (worker: string): JobHandler =>
      async (job) => {
        runs.push({ worker, n: Number(job.payload.n) });
        await new Promise((resolve) => setTimeout(resolve, 2));
      };
    if (database.kind === 'postgres') {
      // A worker's claim of five jobs is not committed yet: another worker takes the other jobs at once, past the
      // five, instead of waiting for them or taking them too. (PGlite is one connection: one claim at a time.)
      const heldBack = new Error('the first worker dies before committing its claim');
      await expect(
        database.db.transaction(async (tx) => {
          const held = await claimDueJobs(tx, 5, new Date(clock.now().getTime() + 60_000), clock.now());
          expect(held).toHaveLength(5);
          const other = workerOf(clock, { [kind]: handler('c') }).drain();
          let timer: NodeJS.Timeout | undefined;
          const waited = new Promise((resolve) => {
            timer = setTimeout(() => resolve('waited for the held jobs'), 10_000);
          });
          expect(await Promise.race([other, waited])).toBe(count - 5);
          clearTimeout(timer);
          throw heldBack;
        }),
      ).rejects.toBe(heldBack);
    }
    const [a, b] = await Promise.all([
      workerOf(clock, { [kind]: handler('a') }).drain(),
      workerOf(clock, { [kind]: handler('b') }).drain(),
    ]);
    expect(runs).toHaveLength(count);
    expect(a + b).toBe(database.kind === 'postgres' ? 5 : count);
    expect(runs.map((run) => run.n).sort((x, y) => x - y)).toEqual(
      Array.from({ length: count }, (_, n) => n),
    );
  });

  it('runs jobs as they come once started, and stops when asked', async () => {
    const clock = new ManualClock();
    const kind = newKind();
    let ran: (payload: Record<string, unknown>) => void = () => undefined;
    const done = new Promise<Record<string, unknown>>((resolve) => (ran = resolve));
    const worker = createJobWorker(
      database.db,
      { [kind]: async (job) => ran(job.payload) },
      {
        clock,
        logger,
        pollIntervalMs: 20,
      },
    );
    worker.start();
    try {
      await enqueueJob(database.db, { kind, payload: { hello: 'world' }, organizationId: null }, clock.now());
      expect(await done).toEqual({ hello: 'world' });
    } finally {
      await worker.stop();
    }
  });
});
