import { afterEach, describe, expect, it } from 'vitest';
import { loadMigrations, migrate } from '../../src/server/db/migrate.js';
import { DEMO_ORGANIZATION, ensureDemoStore } from '../../src/server/seed/demo-store.js';
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
});
