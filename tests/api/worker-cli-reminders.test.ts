import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/server/platform/clock.js';
import { migrate } from '../../src/server/platform/db/migrate.js';
import { createPgliteDatabase } from '../../src/server/platform/db/pglite.js';
import { startSmtpInbox, type SmtpInbox } from '../helpers/smtp-inbox.js';
import { expectSelfServiceLink, mailFrom, namedStore, subscribe } from '../helpers/subscription-emails.js';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../helpers/test-app.js';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '../helpers/test-database.js';

// The reminder scan runs beside the worker on its own (docs/emails.md, "Subscription emails"): `npm run worker --
// --drain` with no server finds the charge coming up and sends its reminder.

const run = promisify(execFile);
let inbox: SmtpInbox;
let t: TestApp | null = null;

beforeAll(async () => {
  inbox = await startSmtpInbox();
});

afterAll(async () => {
  await Promise.all([t?.close(), inbox?.close()]);
});

/** The database a separate process can open too: PostgreSQL, or an embedded one kept in a data folder. */
async function sharedDatabase(dataDir: string): Promise<{
  database: TestDatabase;
  env: Record<string, string>;
  reopen: () => Promise<TestDatabase>;
}> {
  if (testDatabaseKind() === 'postgres') {
    const database = await createTestDatabase();
    return { database, env: { DATABASE_URL: database.url ?? '' }, reopen: async () => database };
  }
  const open = async (): Promise<TestDatabase> => {
    const db = await createPgliteDatabase(path.join(dataDir, 'pglite'));
    return { db, kind: 'pglite', url: null, drop: () => db.close() };
  };
  const database = await open();
  await migrate(database.db);
  return { database, env: {}, reopen: open };
}

describe('npm run worker -- --drain', () => {
  it('enqueues and sends the reminders due, with no server running', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'sc-worker-'));
    const shared = await sharedDatabase(dataDir);
    t = await createTestApp({ database: shared.database });
    const name = 'Worker Alone Roasters';
    const store = await namedStore(t, name);
    const { id } = await subscribe(t, store);
    // Due in two days in real time: the command runs on the system clock.
    await t.db.query("UPDATE subscriptions SET next_charge_at = now() + interval '2 days' WHERE id = $1", [
      id,
    ]);
    const tokenSecret = t.tokenSecret;
    if (shared.database.kind === 'pglite') {
      // The embedded database belongs to one process at a time: hand it over.
      await t.close();
      t = null;
    }

    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/worker.ts', '--drain'], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        LOG_LEVEL: 'warn',
        DATA_DIR: dataDir,
        PUBLIC_URL: TEST_PUBLIC_URL,
        TOKEN_SECRET: tokenSecret,
        SMTP_URL: inbox.url,
        MAIL_FROM: 'orders@shop.example',
        ...shared.env,
      },
      timeout: 60_000,
    });
    expect(stdout).toMatch(/^worker: 1 charge reminders enqueued, \d+ job attempts run$/m);

    const reminders = mailFrom(inbox, name, / renews on /);
    expect(reminders).toHaveLength(1);
    await expectSelfServiceLink({ tokenSecret, clock: systemClock }, reminders[0]!, {
      organizationId: store.org.id,
      subscriptionId: id,
    });
    // The welcome went out in the same run; the reminder's job is done.
    expect(mailFrom(inbox, name, /^Your Coffee club subscription at Worker Alone Roasters$/)).toHaveLength(1);
    const after = shared.database.kind === 'pglite' ? await shared.reopen() : shared.database;
    try {
      const { rows } = await after.db.query<{ status: string }>(
        "SELECT status FROM jobs WHERE kind = 'email.subscription_charge_reminder'",
      );
      expect(rows).toEqual([{ status: 'done' }]);
    } finally {
      if (shared.database.kind === 'pglite') await after.drop();
    }
  }, 120_000);
});
