import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/platform/db/database.js';
import {
  analyzeGrownTables,
  autovacuumKeepsStatistics,
  keepTables,
  startStatisticsKeeper,
} from '../../src/server/platform/maintenance/statistics-keeper.js';
import { createPostgresDatabase } from '../../src/server/platform/db/postgres.js';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '../helpers/test-database.js';

// The planner statistics, kept by the server where autovacuum does not keep them (PGlite; a server with it off).
let database: TestDatabase | null = null;

afterEach(async () => {
  await database?.drop();
  database = null;
});

/** An organization and `count` more carts of it. */
async function addCarts(db: Database, from: number, count: number): Promise<void> {
  await db.query(
    `INSERT INTO organizations (public_id, name, currency) VALUES ('statistics', 'Statistics', 'USD')
     ON CONFLICT (public_id) DO NOTHING`,
  );
  await db.query(
    `INSERT INTO carts (organization_id, token, source)
     SELECT o.id, 'statisticstoken' || lpad(n::text, 8, '0'), 'merchant'
       FROM organizations o, generate_series($1::int, $2::int) AS n WHERE o.public_id = 'statistics'`,
    [from, from + count - 1],
  );
}

/**
 * Waits until the server's activity statistics show `count` dead rows in carts: the connection that deleted them
 * reports its counts once it has been idle for up to a second.
 */
async function deadRowsCounted(db: Database, count: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const { rows } = await db.query<{ dead: number }>(
      "SELECT n_dead_tup::int AS dead FROM pg_stat_user_tables WHERE relid = 'carts'::regclass",
    );
    if ((rows[0]?.dead ?? 0) >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the dead rows of carts were not counted within 5 s`);
}

async function reltuples(db: Database, table: string): Promise<number> {
  const { rows } = await db.query<{ reltuples: number }>(
    'SELECT reltuples::float8 AS reltuples FROM pg_class WHERE oid = $1::regclass',
    [table],
  );
  return rows[0]!.reltuples;
}

describe('the statistics keeper', () => {
  it('analyzes each table that grew since its statistics were taken, once, and again when it has doubled', async () => {
    database = await createTestDatabase();
    const { db } = database;
    await addCarts(db, 1, 3000);
    expect(await reltuples(db, 'carts')).toBeLessThan(0); // never analyzed: the planner knows only its pages

    const first = await db.transaction(analyzeGrownTables);
    expect(first).toEqual(expect.arrayContaining(['carts', 'organizations']));
    // Empty tables are left for later: statistics of nothing would tell the planner nothing.
    expect(first).not.toContain('orders');
    expect(await reltuples(db, 'carts')).toBe(3000);

    // Nothing grew: nothing is analyzed.
    expect(await db.transaction(analyzeGrownTables)).toEqual([]);
    // A few more rows within the same pages: not yet.
    await addCarts(db, 3001, 5);
    expect(await db.transaction(analyzeGrownTables)).toEqual([]);
    // A fifth more (autovacuum's threshold is a tenth): still not, as every ANALYZE makes every connection plan again.
    await addCarts(db, 3006, 600);
    expect(await db.transaction(analyzeGrownTables)).toEqual([]);
    expect(await reltuples(db, 'carts')).toBe(3000);
    // Past twice the size it was analyzed at: carts again, and only carts.
    await addCarts(db, 3606, 4000);
    expect(await db.transaction(analyzeGrownTables)).toEqual(['carts']);
    expect(await reltuples(db, 'carts')).toBe(7605);
  });

  it('vacuums tables with many dead rows, so a table that deletes as much as it inserts stops growing', async () => {
    database = await createTestDatabase();
    const { db } = database;
    const pages = async () => {
      const { rows } = await db.query<{ pages: number }>(
        "SELECT (pg_relation_size('carts') / current_setting('block_size')::int)::int AS pages",
      );
      return rows[0]!.pages;
    };
    // Each round 2,000 new carts come and the 2,000 before them go, as the abuse limits' events and old idempotency
    // keys do: the table holds 2,000 rows throughout.
    const churn = async (round: number) => {
      await addCarts(db, round * 2000 + 1, 2000);
      await db.query(
        "DELETE FROM carts WHERE token LIKE 'statisticstoken%' AND substr(token, 16)::int <= $1",
        [round * 2000],
      );
    };
    await churn(0);
    expect((await keepTables(db)).analyzed).toContain('carts');
    const oneRound = await pages();
    const sizes: number[] = [];
    for (let round = 1; round <= 6; round++) {
      await churn(round);
      if (db.kind === 'postgres') await deadRowsCounted(db, 2000);
      // Each round's deletes are dead rows to clear, whether or not the table grew.
      expect((await keepTables(db)).vacuumed).toContain('carts');
      sizes.push(await pages());
    }
    const { rows } = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM carts');
    expect(rows[0]!.count).toBe(2000);
    // The table holds at most the rows of two rounds, as each round inserts before it deletes. Measured: without any
    // VACUUM it took a round's pages more every round (7 times oneRound after 6); vacuuming only the tables that grew
    // let it grow more slowly, but without end (4 times after 6, 5 times after 12).
    expect(Math.max(...sizes)).toBeLessThanOrEqual(2 * oneRound + 2);
  });

  it('tells where autovacuum keeps them: never on the embedded database, on a server as its settings say', async () => {
    database = await createTestDatabase();
    const { db } = database;
    if (db.kind === 'pglite') {
      expect(await autovacuumKeepsStatistics(db)).toBe(false);
    } else {
      const { rows } = await db.query<{ autovacuum: string; track_counts: string }>(
        "SELECT current_setting('autovacuum') AS autovacuum, current_setting('track_counts') AS track_counts",
      );
      const on = rows[0]!.autovacuum === 'on' && rows[0]!.track_counts === 'on';
      expect(await autovacuumKeepsStatistics(db)).toBe(on);
    }
  });

  it('runs at start where autovacuum does not, says so once, and stops after the check in progress', async () => {
    database = await createTestDatabase();
    const { db } = database;
    await addCarts(db, 1, 500);
    const logged: { level: string; text: string }[] = [];
    const logger = {
      info: (text: string) => logged.push({ level: 'info', text }),
      warn: (...args: unknown[]) => logged.push({ level: 'warn', text: JSON.stringify(args) }),
      debug: (fields: { analyzed: string[]; vacuumed: string[] }, text: string) =>
        logged.push({
          level: 'debug',
          text: `${text}: analyzed ${fields.analyzed.join(',')}; vacuumed ${fields.vacuumed.join(',')}`,
        }),
    } as unknown as Parameters<typeof startStatisticsKeeper>[0]['logger'];

    const keeper = startStatisticsKeeper({ db, logger, everyMs: 60_000 });
    await keeper.stop();

    if (await autovacuumKeepsStatistics(db)) {
      // Autovacuum's job: the keeper neither analyzes nor speaks.
      expect(logged).toEqual([]);
      expect(await reltuples(db, 'carts')).toBeLessThan(0);
    } else {
      expect(logged.filter((line) => line.level === 'info')).toHaveLength(1);
      expect(logged.find((line) => line.level === 'debug')?.text).toMatch(
        /planner statistics updated, tables vacuumed: analyzed .*carts.*; vacuumed .*carts/,
      );
      expect(logged.filter((line) => line.level === 'warn')).toEqual([]);
      expect(await reltuples(db, 'carts')).toBe(500);
    }
  });
});

// Instances sharing one PostgreSQL each run a keeper (the embedded database has one instance: its data folder is locked).
if (testDatabaseKind() === 'postgres') {
  describe('statistics keepers of instances sharing a database', () => {
    it('take turns: while one analyzes, the other analyzes nothing and does not wait for it', async () => {
      database = await createTestDatabase();
      const { db } = database;
      await addCarts(db, 1, 1000);
      // The other instance: its own pool on the same database.
      const other = createPostgresDatabase(database.url!, { poolSize: 2 });
      try {
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        let analyzedFirst: string[] = [];
        const first = db.transaction(async (tx) => {
          analyzedFirst = await analyzeGrownTables(tx);
          await held; // still in its transaction: the lock is held until it commits
        });
        // Wait until the first holds the lock (its ANALYZE has run).
        for (let i = 0; i < 200 && analyzedFirst.length === 0; i++)
          await new Promise((r) => setTimeout(r, 25));
        expect(analyzedFirst).toContain('carts');

        await addCarts(db, 1001, 1500); // more than doubled: the other would analyze carts if it could
        const started = Date.now();
        expect(await other.transaction(analyzeGrownTables)).toEqual([]);
        expect(Date.now() - started).toBeLessThan(5_000); // it did not queue behind the first

        release();
        await first;
        // Once the first committed, the other's next check does the work.
        expect(await other.transaction(analyzeGrownTables)).toEqual(['carts']);
        expect(await reltuples(db, 'carts')).toBe(2500);
      } finally {
        await other.close();
      }
    });

    it('skip a table another is vacuuming instead of waiting for it, and keep it at the next check', async () => {
      database = await createTestDatabase();
      const { db } = database;
      await addCarts(db, 1, 1000);
      await keepTables(db);
      const other = createPostgresDatabase(database.url!, { poolSize: 2 });
      let release = () => {};
      let check: Promise<unknown> = Promise.resolve();
      try {
        // The lock a VACUUM or ANALYZE of carts holds while it runs, held here by "another instance" until released.
        let locked = false;
        const held = new Promise<void>((resolve) => (release = resolve));
        const vacuuming = db.transaction(async (tx) => {
          await tx.exec('LOCK TABLE carts IN SHARE UPDATE EXCLUSIVE MODE');
          locked = true;
          await held;
        });
        for (let i = 0; i < 200 && !locked; i++) await new Promise((r) => setTimeout(r, 25));
        expect(locked).toBe(true);
        // Meanwhile carts more than doubles and has rows to clear: there is work to do for both ANALYZE and VACUUM.
        await addCarts(db, 1001, 1500);
        await db.query(
          "DELETE FROM carts WHERE token LIKE 'statisticstoken%' AND substr(token, 16)::int <= 500",
        );
        await deadRowsCounted(db, 500);

        check = keepTables(other);
        const outcome = await Promise.race([
          check.then(() => 'done'),
          new Promise((resolve) => setTimeout(() => resolve('still waiting after 5 s'), 5_000)),
        ]);
        expect(outcome).toBe('done'); // neither the ANALYZE nor the VACUUM queued behind the lock
        expect(await reltuples(db, 'carts')).toBe(1000); // skipped: the statistics are still the first ones
        const dead = await db.query<{ dead: number }>(
          "SELECT n_dead_tup::int AS dead FROM pg_stat_user_tables WHERE relid = 'carts'::regclass",
        );
        expect(dead.rows[0]!.dead).toBeGreaterThanOrEqual(500);

        release();
        await vacuuming;
        // The next check does both.
        const next = await keepTables(other);
        expect(next.analyzed).toEqual(['carts']);
        expect(next.vacuumed).toContain('carts');
        expect(await reltuples(db, 'carts')).toBe(2000);
        const cleared = await db.query<{ dead: number }>(
          "SELECT n_dead_tup::int AS dead FROM pg_stat_user_tables WHERE relid = 'carts'::regclass",
        );
        expect(cleared.rows[0]!.dead).toBe(0);
      } finally {
        release();
        await check.catch(() => {});
        await other.close();
      }
    });
  });
}
