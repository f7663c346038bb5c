import type { Database } from '../../src/server/db/database.js';

/** Card charges the test gateway received for the organization: what "charged once" and "nothing charged" count. */
export async function gatewayCharges(db: Database, organizationId: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM test_gateway_charges WHERE organization_id = $1 AND kind = 'charge'",
    [organizationId],
  );
  return rows[0]?.n ?? 0;
}
