import type { Database } from '../../src/server/platform/db/database.js';
import { interceptQueries } from './intercept-queries.js';
import { createTestApp, type TestApp } from './test-app.js';
import { createTestDatabase } from './test-database.js';

/** Card charges the test gateway received for the organization: what "charged once" and "nothing charged" count. */
export async function gatewayCharges(db: Database, organizationId: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM test_gateway_charges WHERE organization_id = $1 AND kind = 'charge'",
    [organizationId],
  );
  return rows[0]?.n ?? 0;
}

/**
 * The database, where what `meanwhile` is given next runs once, right after the test gateway records a charge: what
 * another attempt commits while the gateway answers this one.
 */
export function withWorkDuringCharges(db: Database) {
  let next: ((db: Database) => Promise<void>) | null = null;
  const wrapped = interceptQueries(db, 'direct', async (sql, _params, run) => {
    const result = await run();
    if (next !== null && /^\s*INSERT INTO test_gateway_charges/.test(sql)) {
      const work = next;
      next = null;
      await work(db);
    }
    return result;
  });
  return {
    db: wrapped,
    meanwhile(work: (db: Database) => Promise<void>): void {
      next = work;
    },
    /** whether the work given last is still waiting for a charge */
    pending: () => next !== null,
  };
}

/** A test app on a new database whose test gateway lets `charges.meanwhile` work run while it answers a charge. */
export async function testAppWithWorkDuringCharges(): Promise<{
  t: TestApp;
  charges: ReturnType<typeof withWorkDuringCharges>;
}> {
  const database = await createTestDatabase();
  const charges = withWorkDuringCharges(database.db);
  return { t: await createTestApp({ database: { ...database, db: charges.db } }), charges };
}
