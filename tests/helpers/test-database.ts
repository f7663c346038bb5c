import { randomBytes } from 'node:crypto';
import type { Database } from '../../src/server/platform/db/database.js';
import { migrate } from '../../src/server/platform/db/migrate.js';
import { createPgliteDatabase } from '../../src/server/platform/db/pglite.js';
import { createPostgresDatabase } from '../../src/server/platform/db/postgres.js';

export type TestDatabaseKind = 'pglite' | 'postgres';

/** Which database this vitest project runs on (see vitest.config.ts). */
export function testDatabaseKind(): TestDatabaseKind {
  return process.env.TEST_DB_KIND === 'postgres' ? 'postgres' : 'pglite';
}

export interface TestDatabase {
  db: Database;
  kind: TestDatabaseKind;
  /** A connection string to this database (PostgreSQL only), for child processes. */
  url: string | null;
  drop(): Promise<void>;
}

/** A fresh, migrated database: in-memory PGlite, or a new database on the TEST_DATABASE_URL server. */
export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const kind = testDatabaseKind();
  if (kind === 'pglite') {
    const db = await createPgliteDatabase();
    if (options.migrated !== false) await migrate(db);
    return { db, kind, url: null, drop: () => db.close() };
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('TEST_DATABASE_URL is required for the postgres test project');
  const name = `sc_test_${randomBytes(6).toString('hex')}`;
  const admin = createPostgresDatabase(serverUrl, { poolSize: 1 });
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = createPostgresDatabase(url.toString(), { poolSize: 20 });
  if (options.migrated !== false) await migrate(db);
  return {
    db,
    kind,
    url: url.toString(),
    async drop() {
      await db.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.close();
    },
  };
}
