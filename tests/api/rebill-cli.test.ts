import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/server/platform/db/migrate.js';
import { createPgliteDatabase } from '../../src/server/platform/db/pglite.js';
import { orderBody } from '../helpers/order-body.js';
import { shopperSession } from '../helpers/shopper.js';
import { createStore } from '../helpers/store.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '../helpers/test-database.js';

const run = promisify(execFile);
let t: TestApp | null = null;

afterAll(async () => {
  await t?.close();
});

/** The database a separate process can open too: PostgreSQL, or an embedded one kept in a data folder. */
async function sharedDatabase(): Promise<{
  database: TestDatabase;
  env: Record<string, string>;
  reopen: () => Promise<TestDatabase>;
}> {
  if (testDatabaseKind() === 'postgres') {
    const database = await createTestDatabase();
    return { database, env: { DATABASE_URL: database.url ?? '' }, reopen: async () => database };
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sc-rebill-'));
  const open = async (): Promise<TestDatabase> => {
    const db = await createPgliteDatabase(path.join(dataDir, 'pglite'));
    return { db, kind: 'pglite', url: null, drop: () => db.close() };
  };
  const database = await open();
  await migrate(database.db);
  return { database, env: { DATA_DIR: dataDir }, reopen: open };
}

describe('npm run rebill', () => {
  it('charges due subscriptions from a separate process and reports what it did', async () => {
    const shared = await sharedDatabase();
    t = await createTestApp({ database: shared.database });
    const store = await createStore(t.app, t.db);
    const shopper = await shopperSession(t.app, store.org.publicId);
    const token = await store.cart([{ offer_id: store.offers.club.id }]);
    const placed = await shopper.post('orders', orderBody(token, { subscription_terms_accepted: true }));
    expect(placed.status).toBe(200);
    // Due yesterday in real time: the command runs on the system clock.
    await t.db.query("UPDATE subscriptions SET next_charge_at = now() - interval '1 day'");
    if (shared.database.kind === 'pglite') {
      // The embedded database belongs to one process at a time: hand it over.
      await t.close();
      t = null;
    }

    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/rebill.ts'], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...shared.env },
      timeout: 60_000,
    });
    expect(stdout).toMatch(/^rebill: 1 charged, 0 declined \(0 now past due\), 0 gateway errors;/m);

    const after = shared.database.kind === 'pglite' ? await shared.reopen() : shared.database;
    try {
      const { rows } = await after.db.query<{ cycle: number; charges: number }>(
        'SELECT s.cycle, (SELECT count(*) FROM subscription_charges c WHERE c.subscription_id = s.id)::bigint AS charges FROM subscriptions s',
      );
      expect(rows).toEqual([{ cycle: 2, charges: 1 }]);
    } finally {
      if (shared.database.kind === 'pglite') await after.drop();
    }
  }, 120_000);
});
