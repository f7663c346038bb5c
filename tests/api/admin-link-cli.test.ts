import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/server/platform/db/migrate.js';
import { createPgliteDatabase } from '../../src/server/platform/db/pglite.js';
import { inspectLink } from '../../src/server/modules/staff/staff-service.js';
import { createOrganization } from '../../src/server/modules/organizations/organization-service.js';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '../helpers/test-database.js';

const run = promisify(execFile);

/** A database `npm run admin:link` can open from its own process: PostgreSQL, or an embedded one in a data folder. */
async function sharedDatabase(): Promise<{
  database: TestDatabase;
  env: Record<string, string>;
  reopen: () => Promise<TestDatabase>;
}> {
  if (testDatabaseKind() === 'postgres') {
    const database = await createTestDatabase();
    return { database, env: { DATABASE_URL: database.url ?? '' }, reopen: async () => database };
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sc-admin-link-'));
  const open = async (): Promise<TestDatabase> => {
    const db = await createPgliteDatabase(path.join(dataDir, 'pglite'));
    return { db, kind: 'pglite', url: null, drop: () => db.close() };
  };
  const database = await open();
  await migrate(database.db);
  return { database, env: { DATA_DIR: dataDir }, reopen: open };
}

async function adminLink(env: Record<string, string>, args: string[] = []) {
  return run(process.execPath, ['--import', 'tsx', 'scripts/admin-link.ts', ...args], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      LOG_LEVEL: 'warn',
      PUBLIC_URL: 'https://shop.example',
      ...env,
    },
    timeout: 60_000,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

describe('npm run admin:link', () => {
  it("prints a new owner's link for the only store, asks which store when there are several", async () => {
    const shared = await sharedDatabase();
    await createOrganization(shared.database.db, { publicId: 'cli-one', name: 'CLI One', currency: 'USD' });
    if (shared.database.kind === 'pglite') await shared.database.drop();

    const printed = await adminLink(shared.env);
    expect(printed.code, printed.stderr).toBe(0);
    const url = /sets a password at (https:\/\/shop\.example\/admin\/link#[\w-]{43})/.exec(
      printed.stdout,
    )?.[1];
    expect(url, printed.stdout).toBeDefined();

    let database = shared.database.kind === 'pglite' ? await shared.reopen() : shared.database;
    expect(await inspectLink(database.db, new URL(url ?? '').hash.slice(1), new Date())).toMatchObject({
      purpose: 'owner_setup',
      organization_name: 'CLI One',
    });
    await createOrganization(database.db, { publicId: 'cli-two', name: 'CLI Two', currency: 'USD' });
    if (database.kind === 'pglite') await database.drop();

    const ambiguous = await adminLink(shared.env);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain('Name the store: npm run admin:link -- <cli-one | cli-two>');
    const unknown = await adminLink(shared.env, ['nope']);
    expect(unknown.stderr).toContain('There is no store "nope".');
    const named = await adminLink(shared.env, ['cli-two']);
    expect(named.stdout).toContain('The owner of "CLI Two" sets a password at');

    database = shared.database.kind === 'pglite' ? await shared.reopen() : shared.database;
    // The first link still works: a new link ends only the earlier ones of the same store.
    expect(
      (await inspectLink(database.db, new URL(url ?? '').hash.slice(1), new Date())).organization_name,
    ).toBe('CLI One');
    await database.drop();
  }, 180_000);
});
