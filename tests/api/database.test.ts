import { afterEach, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../src/server/platform/db/database.js';
import { loadMigrations, migrate } from '../../src/server/platform/db/migrate.js';
import { loadCartSnapshot } from '../../src/server/modules/carts/cart-snapshot-repository.js';
import { analyzeGrownTables } from '../../src/server/platform/maintenance/statistics-keeper.js';
import { DEMO_ORGANIZATION, ensureDemoStore } from '../../src/server/modules/demo/demo-store.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';

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

  it('leave no trigger that sends change notices, also on a database migrated before they were dropped', async () => {
    database = await createTestDatabase({ migrated: false });
    const { db } = database;
    const all = await loadMigrations();
    const dropped = all.findIndex((m) => m.name === 'cart_view_changes_dropped');
    expect(dropped).toBeGreaterThan(0);
    // The triggers and functions that sent notices on cart_view_changes; and any function that calls pg_notify.
    const noticeSenders = async () =>
      (
        await db.query<{ name: string }>(
          `SELECT t.tgrelid::regclass::text || '.' || t.tgname AS name FROM pg_trigger t
             JOIN pg_proc p ON p.oid = t.tgfoid
            WHERE NOT t.tgisinternal AND (p.proname LIKE 'cart_view%' OR p.prosrc ILIKE '%pg_notify%')
           UNION ALL
           SELECT p.proname || '()' FROM pg_proc p
            WHERE p.pronamespace = current_schema()::regnamespace
              AND (p.proname LIKE 'cart_view%' OR p.prosrc ILIKE '%pg_notify%')
           ORDER BY 1`,
        )
      ).rows.map((row) => row.name);

    // A database at the version before, with data in it, as one running the previous release would be.
    await migrate(db, all.slice(0, dropped));
    expect(await noticeSenders()).toEqual(
      expect.arrayContaining([
        'carts.cart_view_changes',
        'offers.cart_view_truncated',
        'cart_view_changed()',
      ]),
    );
    await db.query(
      "INSERT INTO organizations (public_id, name, currency) VALUES ('before-drop', 'Before', 'USD')",
    );
    expect(await migrate(db, all)).toEqual(all.slice(dropped).map((m) => m.version));
    expect(await noticeSenders()).toEqual([]);
    // Writes go on as before on every table that had a trigger.
    await db.query("UPDATE organizations SET name = 'After' WHERE public_id = 'before-drop'");
    await db.exec('TRUNCATE tax_rates');
  });

  it('key every business table by organization', async () => {
    database = await createTestDatabase();
    const { rows } = await database.db.query<{ table_name: string }>(
      `SELECT t.table_name FROM information_schema.tables t
        WHERE t.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
          AND t.table_name NOT IN ('organizations', 'schema_migrations')
          -- The test processor's own records stand for another company's systems: its frame knows no organization.
          AND t.table_name NOT LIKE 'test\\_processor\\_%'
          -- A failed sign-in comes before anyone is known: it is counted by email and address across stores.
          AND t.table_name <> 'staff_sign_in_failures'
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
  it('read a locked cart as the writer ahead in the queue left it once it committed (loadCartSnapshot with lock)', async () => {
    database = await createTestDatabase();
    const { db } = database;
    const { rows: orgs } = await db.query<{ id: number }>(
      "INSERT INTO organizations (public_id, name, currency) VALUES ('lock-queue', 'Lock queue', 'USD') RETURNING id",
    );
    const organizationId = orgs[0]!.id;
    const { rows: offers } = await db.query<{ id: number }>(
      "INSERT INTO offers (organization_id, offer_name, item_name, price) VALUES ($1, 'Beans', 'Beans', 1800) RETURNING id",
      [organizationId],
    );
    const { rows: carts } = await db.query<{ id: number }>(
      "INSERT INTO carts (organization_id, token, source) VALUES ($1, 'lockqueuetoken0000000001', 'merchant') RETURNING id",
      [organizationId],
    );
    await db.query(
      'INSERT INTO cart_offers (organization_id, cart_id, position, offer_id) VALUES ($1, $2, 0, $3)',
      [organizationId, carts[0]!.id, offers[0]!.id],
    );
    const key = { token: 'lockqueuetoken0000000001' };
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    // The writer ahead: holds the cart and changes its line (another table, as an order's writer does).
    const writer = db.transaction(async (tx) => {
      await loadCartSnapshot(tx, organizationId, key, { lock: true });
      holding();
      await released;
      await tx.query('UPDATE cart_offers SET quantity = 3 WHERE organization_id = $1 AND cart_id = $2', [
        organizationId,
        carts[0]!.id,
      ]);
    });
    await held;
    // Waits for the writer's lock; the snapshot it then reads shows the writer's change.
    const reader = db.transaction((tx) => loadCartSnapshot(tx, organizationId, key, { lock: true }));
    // Long enough for the reader's lock to wait at the database (PGlite queues the whole transaction instead).
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    await writer;
    expect((await reader)?.lines.map((line) => line.quantity)).toEqual([3]);
  });

  it('are on disk when they resolve', async () => {
    database = await createTestDatabase();
    const { db } = database;
    await db.exec('CREATE TABLE durability_probe (id int PRIMARY KEY)');
    for (const id of [1, 2]) {
      // The WAL's end once this transaction has written all but its commit record, which comes after it.
      const written = await db.transaction(async (tx) => {
        await tx.query('INSERT INTO durability_probe VALUES ($1)', [id]);
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

  it('fail whole when their COMMIT fails, and leave the connections usable', async () => {
    database = await createTestDatabase();
    const { db } = database;
    // A constraint checked at COMMIT: the statements succeed, the COMMIT fails.
    await db.exec(
      'CREATE TABLE commit_probe (id int, CONSTRAINT commit_probe_once UNIQUE (id) DEFERRABLE INITIALLY DEFERRED)',
    );
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO commit_probe VALUES (1), (1)');
      }),
    ).rejects.toThrow(/commit_probe_once/);
    // Every connection of the pool, one of them the one whose COMMIT failed, commits the next transaction.
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        db.transaction(async (tx) => {
          await tx.query('INSERT INTO commit_probe VALUES ($1)', [i]);
        }),
      ),
    );
    const { rows } = await db.query<{ ids: number[] }>(
      'SELECT coalesce(array_agg(id ORDER BY id), ARRAY[]::int[]) AS ids FROM commit_probe',
    );
    expect(rows[0]?.ids).toEqual(Array.from({ length: 12 }, (_, i) => i));
  });
});

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
