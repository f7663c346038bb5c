import { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../src/server/platform/db/database.js';
import { loadMigrations, migrate } from '../../src/server/platform/db/migrate.js';
import { loadCartSnapshot } from '../../src/server/modules/carts/cart-snapshot-repository.js';
import { analyzeGrownTables } from '../../src/server/platform/maintenance/statistics-keeper.js';
import { DEMO_ORGANIZATION, ensureDemoStore } from '../../src/server/modules/demo/demo-store.js';
import { createPostgresDatabase } from '../../src/server/platform/db/postgres.js';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '../helpers/test-database.js';

let database: TestDatabase | null = null;

afterEach(async () => {
  await database?.drop();
  database = null;
});

describe('migrations', () => {
  it('apply on a new database and change nothing when run again (a restart)', async () => {
    database = await createTestDatabase({ migrated: false });
    const all = await loadMigrations();
    expect(await migrate(database.db)).toEqual(all.map((m) => m.version));
    expect(await migrate(database.db)).toEqual([]);
    const { rows } = await database.db.query<{ version: number }>(
      'SELECT version FROM schema_migrations ORDER BY version',
    );
    expect(rows.map((row) => row.version)).toEqual(all.map((m) => m.version));
  });

  it('refuse to run when an applied migration was edited', async () => {
    database = await createTestDatabase({ migrated: false });
    const all = await loadMigrations();
    await migrate(database.db, all);
    const edited = all.map((m, i) => (i === 0 ? { ...m, checksum: 'different' } : m));
    await expect(migrate(database.db, edited)).rejects.toThrow(/was changed after it was applied/);
  });

  it('key every business table by organization', async () => {
    database = await createTestDatabase();
    const { rows } = await database.db.query<{ table_name: string }>(
      `SELECT t.table_name FROM information_schema.tables t
        WHERE t.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
          AND t.table_name NOT IN ('organizations', 'schema_migrations')
          AND NOT EXISTS (SELECT 1 FROM information_schema.columns c
                           WHERE c.table_schema = t.table_schema AND c.table_name = t.table_name
                             AND c.column_name = 'organization_id')`,
    );
    expect(rows).toEqual([]);
  });

  it('keep money in whole minor units', async () => {
    database = await createTestDatabase();
    const { rows } = await database.db.query<{ data_type: string }>(
      `SELECT DISTINCT data_type FROM information_schema.columns
        WHERE table_schema = current_schema()
          AND column_name IN ('price', 'next_price', 'amount_off', 'min_subtotal', 'free_over', 'shipping_price',
                              'subtotal', 'total', 'total_tax', 'amount', 'cycle_amount')`,
    );
    expect(rows.map((row) => row.data_type)).toEqual(['bigint']);
  });
  it("refuse to change an organization's public id (instances remember which organization it names)", async () => {
    database = await createTestDatabase();
    const { db } = database;
    const { rows } = await db.query<{ id: number }>(
      "INSERT INTO organizations (public_id, name, currency) VALUES ('fixed-name', 'Fixed', 'USD') RETURNING id",
    );
    const id = rows[0]?.id;
    await expect(
      db.query("UPDATE organizations SET public_id = 'other-name' WHERE id = $1", [id]),
    ).rejects.toThrow(/public_id cannot change/);
    // Everything else about it still changes, including a write of the same public id.
    await db.query("UPDATE organizations SET name = 'Renamed', public_id = 'fixed-name' WHERE id = $1", [id]);
    const after = await db.query<{ public_id: string; name: string }>(
      'SELECT public_id, name FROM organizations WHERE id = $1',
      [id],
    );
    expect(after.rows).toEqual([{ public_id: 'fixed-name', name: 'Renamed' }]);
  });
  it('refuse to delete an organization (instances remember which organization its public id names)', async () => {
    database = await createTestDatabase();
    const { db } = database;
    const { rows } = await db.query<{ id: number }>(
      "INSERT INTO organizations (public_id, name, currency) VALUES ('kept-name', 'Kept', 'USD') RETURNING id",
    );
    const id = rows[0]?.id;
    // An organization with nothing in it yet: no foreign key stops the delete, the trigger does.
    await expect(db.query('DELETE FROM organizations WHERE id = $1', [id])).rejects.toThrow(
      /organizations are not deleted/,
    );
    const after = await db.query<{ id: number }>('SELECT id FROM organizations WHERE public_id = $1', [
      'kept-name',
    ]);
    expect(after.rows).toEqual([{ id }]);
    // Removing one on purpose: the trigger is dropped in the same transaction (docs/operations.md).
    await db.transaction(async (tx) => {
      await tx.exec('DROP TRIGGER organizations_kept ON organizations');
      await tx.query('DELETE FROM organizations WHERE id = $1', [id]);
      await tx.exec(
        'CREATE TRIGGER organizations_kept BEFORE DELETE ON organizations FOR EACH ROW EXECUTE FUNCTION organizations_kept()',
      );
    });
    expect((await db.query('SELECT id FROM organizations WHERE id = $1', [id])).rows).toEqual([]);
    await expect(db.query('DELETE FROM organizations')).resolves.toMatchObject({ rowCount: 0 });
  });
});

describe('demo store', () => {
  it('is seeded once, and a restart reuses the open demo cart', async () => {
    database = await createTestDatabase();
    const options = {
      apiKey: 'sk_demo_key_for_tests_0123456789',
      publicUrl: 'http://x.test',
      now: new Date(),
    };
    const first = await ensureDemoStore(database.db, options);
    expect(first.created).toBe(true);
    expect(first.organization.public_id).toBe(DEMO_ORGANIZATION);
    expect(first.checkoutUrl).toMatch(/^http:\/\/x\.test\/checkout\/[A-Za-z0-9]{24}$/);

    const count = async (table: string) =>
      (await database!.db.query<{ n: number }>(`SELECT count(*)::bigint AS n FROM ${table}`)).rows[0]?.n;
    const offers = await count('offers');
    expect(offers).toBe(4);

    const second = await ensureDemoStore(database.db, options);
    expect(second.created).toBe(false);
    expect(second.checkoutUrl).toBe(first.checkoutUrl);
    expect(await count('offers')).toBe(offers);
    expect(await count('organizations')).toBe(1);
    expect(await count('merchant_api_keys')).toBe(1);
    expect(await count('carts')).toBe(1);
  });
});

describe('queries', () => {
  it('keep answering, in and out of transactions, after a migration changes the columns of a table they read', async () => {
    database = await createTestDatabase();
    const { db } = database;
    await db.query(
      "INSERT INTO organizations (public_id, name, currency) VALUES ('plans-org', 'Plans', 'USD')",
    );
    const read = () =>
      db.query<Record<string, unknown>>("SELECT * FROM organizations WHERE public_id = 'plans-org'");
    const readInTransaction = () =>
      db.transaction((tx) =>
        tx.query<Record<string, unknown>>("SELECT * FROM organizations WHERE public_id = 'plans-org'"),
      );
    // Several times, on several connections at once: each has prepared and planned the statements.
    for (let round = 0; round < 3; round++)
      await Promise.all([read(), read(), readInTransaction(), readInTransaction()]);

    // What a newer instance's migration would do while this one runs.
    await db.exec('ALTER TABLE organizations ADD COLUMN plans_probe text');
    const answers = await Promise.all([read(), read(), readInTransaction(), readInTransaction(), read()]);
    for (const answer of answers) {
      expect(answer.rows).toHaveLength(1);
      expect(answer.rows[0]).toHaveProperty('plans_probe', null);
    }
  });
});

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

function planNodes(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(planNodes)];
}

describe('transactions (Database.transaction)', () => {
  it('run statements sent without waiting in the order sent: a read sent with a lock is made once the lock is held', async () => {
    database = await createTestDatabase();
    const { db } = database;
    await db.exec(
      'CREATE TABLE pipeline_probe (id int PRIMARY KEY, n int NOT NULL); INSERT INTO pipeline_probe VALUES (1, 0), (2, 0);',
    );
    const lock = 'SELECT id FROM pipeline_probe WHERE id = 1 FOR UPDATE';
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    // The writer ahead: holds row 1 and changes row 2 (another row, as a cart's writer changes its order and lines).
    const writer = db.transaction(async (tx) => {
      await tx.query(lock);
      holding();
      await released;
      await tx.query('UPDATE pipeline_probe SET n = 1 WHERE id = 2');
    });
    await held;
    // The lock and the read go out together (loadCartSnapshot, the PostgreSQL rate-limit store). Run in that order,
    // the read starts once the writer has committed; run first, or beside the lock, it would see row 2 as before.
    const reader = db.transaction(async (tx) => {
      const [locked, read] = await Promise.all([
        tx.query<{ id: number }>(lock),
        tx.query<{ n: number }>('SELECT n FROM pipeline_probe WHERE id = 2'),
      ]);
      return { locked: locked.rows.length, n: read.rows[0]?.n };
    });
    // Long enough for the reader's statements to reach the database and the lock to wait there (PGlite queues the
    // whole transaction behind the writer's instead).
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    await writer;
    expect(await reader).toEqual({ locked: 1, n: 1 });
  });

  it('are on disk when they resolve, also one that announced a change (committed past the notify lock)', async () => {
    database = await createTestDatabase();
    const { db } = database;
    await db.exec('CREATE TABLE durability_probe (id int PRIMARY KEY)');
    for (const [id, announces] of [
      [1, true],
      [2, false],
      [3, true],
    ] as const) {
      // The WAL's end once this transaction has written all but its commit record, which comes after it.
      const written = await db.transaction(async (tx) => {
        await tx.query('INSERT INTO durability_probe VALUES ($1)', [id]);
        if (announces) tx.announce('cart_view_changes', `c:probe-${id}`);
        const { rows } = await tx.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn');
        return rows[0]?.lsn;
      });
      const { rows } = await db.query<{ flushed: boolean }>(
        'SELECT pg_wal_lsn_diff(pg_current_wal_flush_lsn(), $1::pg_lsn) > 0 AS flushed',
        [written],
      );
      expect({ id, flushed: rows[0]?.flushed }).toEqual({ id, flushed: true });
    }
  });

  it('fail whole when their COMMIT fails, also one that announced, announce nothing, and leave the connections usable', async () => {
    database = await createTestDatabase();
    const { db } = database;
    // A constraint checked at COMMIT: the statements succeed, the COMMIT (sent with the flush, when announcing) fails.
    await db.exec(
      'CREATE TABLE commit_probe (id int, CONSTRAINT commit_probe_once UNIQUE (id) DEFERRABLE INITIALLY DEFERRED)',
    );
    const heard: string[] = [];
    const stop = await db.listen('cart_view_changes', { message: (p) => heard.push(p), listening: () => {} });
    try {
      for (const announces of [true, false]) {
        await expect(
          db.transaction(async (tx) => {
            await tx.query('INSERT INTO commit_probe VALUES (1), (1)');
            if (announces) tx.announce('cart_view_changes', 'c:commit-failed');
          }),
        ).rejects.toThrow(/commit_probe_once/);
      }
      // Every connection of the pool, some of them the ones whose COMMIT failed, commits the next transaction.
      await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          db.transaction(async (tx) => {
            await tx.query('INSERT INTO commit_probe VALUES ($1)', [i]);
            tx.announce('cart_view_changes', `c:committed-${i}`);
          }),
        ),
      );
      const { rows } = await db.query<{ ids: number[] }>(
        'SELECT coalesce(array_agg(id ORDER BY id), ARRAY[]::int[]) AS ids FROM commit_probe',
      );
      expect(rows[0]?.ids).toEqual(Array.from({ length: 12 }, (_, i) => i));
      expect(heard).not.toContain('c:commit-failed');
      expect(heard.filter((p) => p.startsWith('c:committed-'))).toHaveLength(12);
    } finally {
      await stop();
    }
  });
});

/**
 * The writes to PostgreSQL's socket while `work` runs: each is one write system call (pg corks the messages of one
 * statement itself). Counts the writes of every socket to the database's port.
 */
async function writesTo(port: number, work: () => Promise<unknown>): Promise<number> {
  const proto = Socket.prototype as unknown as Record<'_write' | '_writev', (...args: unknown[]) => unknown>;
  const original = { _write: proto._write, _writev: proto._writev };
  let writes = 0;
  for (const method of ['_write', '_writev'] as const) {
    proto[method] = function (this: Socket, ...args: unknown[]) {
      if (this.remotePort === port) writes++;
      return original[method].apply(this, args);
    };
  }
  try {
    await work();
  } finally {
    proto._write = original._write;
    proto._writev = original._writev;
  }
  return writes;
}

// Round trips are counted on the wire: PGlite has none.
if (testDatabaseKind() === 'postgres') {
  describe('transactions on the wire', () => {
    it('send BEGIN with their first statement, and the COMMIT past the notify lock with its flush, as one write each', async () => {
      database = await createTestDatabase();
      const port = Number(new URL(database.url!).port || 5432);
      // One connection, already open, with its statements already prepared: only the transactions' own writes count.
      const db = createPostgresDatabase(database.url!, { poolSize: 1 });
      try {
        await db.exec('CREATE TABLE wire_probe (id int PRIMARY KEY)');
        const insert = (tx: Queryable, id: number) => tx.query('INSERT INTO wire_probe VALUES ($1)', [id]);
        await db.transaction((tx) => insert(tx, 0));

        // BEGIN with the INSERT, then COMMIT: two writes (three if BEGIN went out alone).
        expect(await writesTo(port, () => db.transaction((tx) => insert(tx, 1)))).toBe(2);
        // BEGIN with the INSERT, then SET LOCAL synchronous_commit, COMMIT and the flushing statement together.
        const announcing = () =>
          db.transaction(async (tx) => {
            await insert(tx, 2);
            tx.announce('cart_view_changes', 'c:wire');
          });
        expect(await writesTo(port, announcing)).toBe(2);
        // A statement sent without waiting beside the first goes in the same write.
        const twoAtOnce = () => db.transaction((tx) => Promise.all([insert(tx, 3), insert(tx, 4)]));
        expect(await writesTo(port, twoAtOnce)).toBe(2);
        const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM wire_probe');
        expect(rows[0]?.n).toBe(5);
      } finally {
        await db.close();
      }
    });
  });
}

describe('query plans', () => {
  /** An organization with one offer; carts (each with its line, an order and a payment attempt) added in ranges. */
  async function manyCarts(db: Queryable) {
    const org = await db.query<{ id: number }>(
      "INSERT INTO organizations (public_id, name, currency) VALUES ('many-carts', 'Many carts', 'USD') RETURNING id",
    );
    const organizationId = org.rows[0]!.id;
    const offer = await db.query<{ id: number }>(
      "INSERT INTO offers (organization_id, offer_name, item_name, price) VALUES ($1, 'Beans', 'Beans', 1800) RETURNING id",
      [organizationId],
    );
    const addCarts = (on: Queryable, from: number, to: number) =>
      on.query(
        `WITH made AS (
           INSERT INTO carts (organization_id, token, source)
           SELECT $1, 'manycartstoken' || lpad(n::text, 8, '0'), 'merchant' FROM generate_series($3::int, $4::int) AS n
           RETURNING id),
         lines AS (
           INSERT INTO cart_offers (organization_id, cart_id, position, offer_id) SELECT $1, id, 0, $2 FROM made),
         ordered AS (
           INSERT INTO orders (organization_id, cart_id, status, currency, subtotal, total, email)
           SELECT $1, id, 'complete', 'USD', 1800, 1800, 'shopper@example.com' FROM made
           RETURNING id, cart_id)
         INSERT INTO payment_attempts (organization_id, order_id, cart_id, method, gateway, status, amount, currency)
         SELECT $1, id, cart_id, 'card', 'test', 'approved', 1800, 'USD' FROM ordered`,
        [organizationId, offer.rows[0]!.id, from, to],
      );
    return { organizationId, addCarts };
  }

  /** The snapshot's own statement, as loadCartSnapshot sends it. */
  async function snapshotSql(db: Queryable, organizationId: number, token: string): Promise<string> {
    let sql = '';
    const recording: Queryable = {
      ...db,
      query(text, params) {
        sql = text;
        return db.query(text, params);
      },
    };
    expect((await loadCartSnapshot(recording, organizationId, { token }))?.order?.status).toBe('complete');
    return sql;
  }

  /** The scans of the tables one cart has rows in that read more than one row to find it. */
  function scansReadingMoreThanOne(plan: PlanNode): { scans: number; wide: PlanNode[] } {
    const onCart = planNodes(plan).filter((node) =>
      /^(cart_offers|gift_details|orders|payment_attempts)/.test(
        node['Index Name'] ?? node['Relation Name'] ?? '',
      ),
    );
    const wide = onCart.filter((node) => node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0) > 1);
    return { scans: onCart.length, wide };
  }

  /**
   * Runs `work` in a transaction holding the snapshot's statement prepared with a generic plan (what a named statement
   * settles on), made at its first EXPLAIN and kept; `explain` runs it for a cart and answers the plan it ran.
   */
  async function withGenericPlan<T>(
    db: Database,
    sql: string,
    organizationId: number,
    work: (explain: (token: string) => Promise<PlanNode>, tx: Queryable) => Promise<T>,
  ): Promise<T> {
    return db.transaction(async (tx) => {
      await tx.exec('SET LOCAL plan_cache_mode = force_generic_plan');
      await tx.exec(`PREPARE snapshot_plan AS ${sql}`);
      try {
        // (EXPLAIN takes no bound parameters: both values are this test's own.)
        const explain = async (token: string) =>
          (
            await tx.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
              `EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE snapshot_plan(${organizationId}, '${token}')`,
            )
          ).rows[0]!['QUERY PLAN'][0].Plan;
        return await work(explain, tx);
      } finally {
        await tx.exec('DEALLOCATE snapshot_plan');
      }
    });
  }

  it("reads one cart's rows by the cart, not by walking the organization's, on a full database not yet analyzed", async () => {
    database = await createTestDatabase();
    const { db } = database;
    const { organizationId, addCarts } = await manyCarts(db);
    // A new database's first minutes: 3,000 carts and no statistics yet (autovacuum's first ANALYZE comes later).
    await addCarts(db, 1, 3000);
    const token = 'manycartstoken00001500';
    const sql = await snapshotSql(db, organizationId, token);

    // A prepared statement's generic plan (what a named statement settles on) walked every line of the organization
    // before migration 0005, combining the cart's index with the organization's: 3,000 rows read to find one.
    const plan = await withGenericPlan(db, sql, organizationId, (explain) => explain(token));
    const { scans, wide } = scansReadingMoreThanOne(plan);
    expect(scans).toBeGreaterThanOrEqual(4);
    expect(wide).toEqual([]);
  });

  it("reads one cart's rows by the cart with a plan made while the database was empty, once the grown tables are analyzed", async () => {
    database = await createTestDatabase();
    const { db } = database;
    const { organizationId, addCarts } = await manyCarts(db);
    await addCarts(db, 1, 1);
    const first = 'manycartstoken00000001';
    const sql = await snapshotSql(db, organizationId, first);

    // Each connection keeps the generic plan it made on its first calls, while a new store had next to no carts. Sized
    // by pages alone, every index starting with organization_id looked as good as the one on cart_id, and the plan
    // found a cart's order by walking the organization's orders newest first: 0.6 ms of the database's time per cart
    // read after 2,000 orders in the benchmark, 1.2 ms after 3,600, growing with every order. Autovacuum's ANALYZE
    // makes every connection plan again; where it does not run, the statistics keeper does the same.
    const plans = await withGenericPlan(db, sql, organizationId, async (explain, tx) => {
      await explain(first); // the generic plan, made and kept now
      await addCarts(tx, 2, 3000);
      const kept = await explain('manycartstoken00001500');
      expect(await analyzeGrownTables(tx)).toEqual(
        expect.arrayContaining(['carts', 'orders', 'payment_attempts']),
      );
      return { kept, replanned: await explain('manycartstoken00001500') };
    });
    // The plan kept from the empty database reads thousands of rows to find one cart's (the planner's choice between
    // indexes it cannot tell apart, so this shows what was measured rather than a promise of PostgreSQL's).
    expect(scansReadingMoreThanOne(plans.kept).wide.length).toBeGreaterThan(0);
    const { scans, wide } = scansReadingMoreThanOne(plans.replanned);
    expect(scans).toBeGreaterThanOrEqual(4);
    expect(wide).toEqual([]);
  });
});

describe('change notices (Database.listen and announce)', () => {
  it('hear what triggers send at COMMIT, and what announce says once its transaction commits, never on rollback', async () => {
    database = await createTestDatabase();
    const { db } = database;
    const heard: string[] = [];
    const states: boolean[] = [];
    const stop = await db.listen('cart_view_changes', {
      message: (payload) => heard.push(payload),
      listening: (on) => states.push(on),
    });
    try {
      expect(states).toEqual([true]);
      const until = async (payload: string) => {
        // The embedded database delivers before the statement resolves; PostgreSQL a moment after the COMMIT.
        for (let waited = 0; !heard.includes(payload) && waited < 2000; waited += 10) {
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        return heard.includes(payload);
      };

      db.announce('cart_view_changes', 'c:outside');
      expect(heard).toEqual(['c:outside']);

      await db.transaction(async (tx) => {
        tx.announce('cart_view_changes', 'c:committed');
        expect(heard).not.toContain('c:committed');
      });
      expect(heard).toContain('c:committed');

      await expect(
        db.transaction(async (tx) => {
          tx.announce('cart_view_changes', 'c:rolled-back');
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');

      const { rows } = await db.query<{ id: number }>(
        "INSERT INTO organizations (public_id, name, currency) VALUES ('notices', 'Notices', 'USD') RETURNING id",
      );
      const id = rows[0]?.id;
      await db.query("UPDATE organizations SET name = 'Renamed' WHERE id = $1", [id]);
      expect(await until(`o:${id}`)).toBe(true);
      // Notices come in commit order: by now anything the rolled-back transaction could have sent would be here.
      expect(heard).not.toContain('c:rolled-back');
      // Its creation sent nothing (no view can show a new organization); the update, one notice.
      expect(heard.filter((payload) => payload === `o:${id}`)).toHaveLength(1);
    } finally {
      await stop();
    }
    // Stopped: nothing more is heard.
    db.announce('cart_view_changes', 'c:after-stop');
    expect(heard).not.toContain('c:after-stop');
  });

  it("name the id of each trigger's column, old and new, and refuse a column they do not know", async () => {
    database = await createTestDatabase();
    const { db } = database;
    // Every trigger of migration 0004 names one of these columns (migration 0007 reads each by name).
    const { rows: triggers } = await db.query<{ args: string }>(
      `SELECT encode(t.tgargs, 'escape') AS args FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
        WHERE p.proname = 'cart_view_changed'`,
    );
    const columns = ['id', 'cart_id', 'cart_offer_id', 'customer_id', 'discount_code_id', 'organization_id'];
    expect(triggers.length).toBeGreaterThanOrEqual(12);
    for (const { args } of triggers) expect(columns).toContain(args.split('\\000')[1]);

    await db.exec(
      `CREATE TABLE notice_probe (id bigint, cart_id bigint, cart_offer_id bigint, customer_id bigint,
                                  discount_code_id bigint, organization_id bigint, other_id bigint)`,
    );
    const heard: string[] = [];
    const stop = await db.listen('cart_view_changes', { message: (p) => heard.push(p), listening: () => {} });
    try {
      for (const [index, column] of columns.entries()) {
        const letter = String.fromCharCode(97 + index);
        await db.exec(
          `CREATE TRIGGER notice_probe AFTER INSERT OR UPDATE OR DELETE ON notice_probe
             FOR EACH ROW EXECUTE FUNCTION cart_view_changed('${letter}', '${column}')`,
        );
        await db.query(`INSERT INTO notice_probe (${column}) VALUES (1)`);
        await db.query(`UPDATE notice_probe SET ${column} = 2`);
        await db.query(`UPDATE notice_probe SET other_id = 3`); // its id unchanged: one notice
        await db.query('DELETE FROM notice_probe');
        const expected = [`${letter}:1`, `${letter}:1`, `${letter}:2`, `${letter}:2`, `${letter}:2`];
        for (let waited = 0; heard.length < expected.length && waited < 2000; waited += 10) {
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        expect({ column, heard }).toEqual({ column, heard: expected });
        heard.length = 0;
        await db.exec('DROP TRIGGER notice_probe ON notice_probe');
      }
      await db.exec(
        `CREATE TRIGGER notice_probe AFTER INSERT ON notice_probe
           FOR EACH ROW EXECUTE FUNCTION cart_view_changed('x', 'other_id')`,
      );
      await expect(db.query('INSERT INTO notice_probe (other_id) VALUES (1)')).rejects.toThrow(
        /case not found/i,
      );
    } finally {
      await stop();
    }
  });
});
