import { afterEach, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../src/server/platform/db/database.js';
import { AppError } from '../../src/server/platform/errors.js';
import {
  hashIdempotencyKey,
  idempotencyKeySecret,
  runIdempotent,
} from '../../src/server/modules/orders/idempotency.js';
import { interceptQueries } from '../helpers/intercept-queries.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';

// runIdempotent on the real database: the paths a key takes when requests with it overlap.
let database: TestDatabase | null = null;

afterEach(async () => {
  await database?.drop();
  database = null;
});

const NOW = new Date('2026-11-21T12:00:00Z');
const SECRET = idempotencyKeySecret('a token secret of at least thirty-two characters');
const hashOf = (organizationId: number, key: string) => hashIdempotencyKey(SECRET, organizationId, key);

async function organization(db: Database): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    "INSERT INTO organizations (public_id, name, currency) VALUES ('keys', 'Keys', 'USD') RETURNING id",
  );
  return rows[0]!.id;
}

function request(organizationId: number, key: string, now = NOW) {
  return {
    organizationId,
    scope: 'orders',
    keyHash: hashOf(organizationId, key),
    requestHash: 'hash-a',
    now,
    leaseMs: 60_000,
  };
}

async function keyRow(db: Queryable, organizationId: number, key: string) {
  const { rows } = await db.query<{ status: string; response_status: number | null; response_body: unknown }>(
    'SELECT status, response_status, response_body FROM idempotency_keys WHERE key_hash = $1',
    [hashOf(organizationId, key)],
  );
  return rows;
}

/**
 * Starts a request that holds `key` while `work` runs, and waits until its key is in the database; `answer` is its
 * outcome, or what it threw.
 */
async function holding<T>(db: Database, org: number, key: string, work: () => Promise<T>) {
  const running = runIdempotent(db, request(org, key), async () => ({
    status: 200,
    body: await work(),
  })).catch((error: unknown) => error);
  for (let i = 0; i < 200 && (await keyRow(db, org, key)).length === 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { answer: running };
}

/**
 * The database as a request sees it when the holder of its key lets the key go at the worst moment: right after this
 * request's insert found the key taken, before it reads the key's row (the holder failed with a "try again" outcome
 * and released it).
 */
function releasedAfterInsert(db: Database): Database {
  let released = false;
  return interceptQueries(db, 'direct', async (sql, params, run) => {
    const result = await run();
    if (!released && sql.includes('INSERT INTO idempotency_keys') && result.rowCount === 0) {
      released = true;
      await db.query("DELETE FROM idempotency_keys WHERE key_hash = $1 AND status = 'in_progress'", [
        params?.[2],
      ]);
    }
    return result;
  });
}

describe('an Idempotency-Key', () => {
  it('released by its holder between a retry’s insert and its read is taken by the retry, which runs once', async () => {
    database = await createTestDatabase();
    const { db } = database;
    const org = await organization(db);
    // The holder: in progress, its lease still running.
    await db.query(
      `INSERT INTO idempotency_keys (organization_id, scope, key_hash, request_hash, status, locked_until, created_at, expires_at)
       VALUES ($1, 'orders', $5, 'hash-a', 'in_progress', $2, $3, $4)`,
      [
        org,
        new Date(NOW.getTime() + 60_000),
        NOW,
        new Date(NOW.getTime() + 86_400_000),
        hashOf(org, 'k-released'),
      ],
    );
    let runs = 0;
    const outcome = await runIdempotent(releasedAfterInsert(db), request(org, 'k-released'), async () => {
      runs++;
      return { status: 200, body: { placed: true } };
    });
    expect(outcome).toEqual({ status: 200, body: { placed: true } });
    expect(runs).toBe(1);
    expect(await keyRow(db, org, 'k-released')).toEqual([
      { status: 'done', response_status: 200, response_body: { placed: true } },
    ]);
    // A later retry is answered from the key, without running again.
    const replay = await runIdempotent(db, request(org, 'k-released'), async () => {
      runs++;
      return { status: 200, body: { placed: 'again' } };
    });
    expect(replay).toEqual({ status: 200, body: { placed: true } });
    expect(runs).toBe(1);
  });

  it('held by a request still running answers 409 and runs nothing; once its lease ran out, a retry takes it over', async () => {
    database = await createTestDatabase();
    const { db } = database;
    const org = await organization(db);
    let finish!: () => void;
    const held = new Promise<void>((resolve) => (finish = resolve));
    const first = await holding(db, org, 'k-held', async () => {
      await held;
      return { by: 'first' };
    });
    let ran = false;
    const refused = await runIdempotent(db, request(org, 'k-held'), async () => {
      ran = true;
      return { status: 200, body: { by: 'second' } };
    }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 409, code: 'request_in_progress' });
    expect(ran).toBe(false);

    // The first holder is taken for dead once its lease ran out: a retry after it runs.
    const later = new Date(NOW.getTime() + 61_000);
    const takeover = await runIdempotent(db, request(org, 'k-held', later), async () => ({
      status: 200,
      body: { by: 'takeover' },
    }));
    expect(takeover).toEqual({ status: 200, body: { by: 'takeover' } });
    // The first request was not dead after all: its late answer goes to its own client, not into the key.
    finish();
    expect(await first.answer).toEqual({ status: 200, body: { by: 'first' } });
    expect(await keyRow(db, org, 'k-held')).toEqual([
      { status: 'done', response_status: 200, response_body: { by: 'takeover' } },
    ]);
  });

  it('taken over is not let go by the earlier holder failing late: the request holding it keeps it', async () => {
    database = await createTestDatabase();
    const { db } = database;
    const org = await organization(db);
    let fail!: () => void;
    const failing = new Promise<void>((resolve) => (fail = resolve));
    const first = await holding(db, org, 'k-late', async () => {
      await failing;
      // A "try again" outcome: the key is released so that a retry runs.
      throw new AppError(503, 'payment_unavailable', 'The payment service did not answer.');
    });
    // Past the first's lease a retry takes the key and is still running when the first fails.
    let finishRetry!: () => void;
    const retrying = new Promise<void>((resolve) => (finishRetry = resolve));
    const retry = runIdempotent(db, request(org, 'k-late', new Date(NOW.getTime() + 61_000)), async () => {
      await retrying;
      return { status: 200, body: { by: 'retry' } };
    });
    for (let i = 0; i < 200; i++) {
      const { rows } = await db.query<{ locked_until: Date }>(
        'SELECT locked_until FROM idempotency_keys WHERE key_hash = $1',
        [hashOf(org, 'k-late')],
      );
      if (rows[0] && rows[0].locked_until.getTime() > NOW.getTime() + 60_000) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    fail();
    expect(await first.answer).toMatchObject({ status: 503 });
    // Still the retry's: a third request with the key is told it is in progress instead of running again.
    expect(await keyRow(db, org, 'k-late')).toEqual([
      { status: 'in_progress', response_status: null, response_body: null },
    ]);
    const third = await runIdempotent(
      db,
      request(org, 'k-late', new Date(NOW.getTime() + 62_000)),
      async () => ({
        status: 200,
        body: { by: 'third' },
      }),
    ).catch((error: unknown) => error);
    expect(third).toMatchObject({ status: 409, code: 'request_in_progress' });
    finishRetry();
    expect(await retry).toEqual({ status: 200, body: { by: 'retry' } });
    expect(await keyRow(db, org, 'k-late')).toEqual([
      { status: 'done', response_status: 200, response_body: { by: 'retry' } },
    ]);
  });
});
