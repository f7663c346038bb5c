import type { Queryable } from './database.js';
import { SqlParams } from './sql-params.js';

/**
 * UPDATE … SET only the given columns, scoped to the organization. Column names come from the caller's allow-list
 * (never from input); values are parameters. Returns the updated row, or null when no row matched.
 */
export async function updateRow<Row>(
  db: Queryable,
  table: string,
  organizationId: number,
  id: number,
  changes: Record<string, unknown>,
  now: Date,
): Promise<Row | null> {
  const params = new SqlParams([organizationId, id]);
  const sets = Object.entries(changes)
    .filter(([, value]) => value !== undefined)
    .map(([column, value]) => `${column} = ${params.add(value)}`);
  sets.push(`updated_at = ${params.add(now)}`);
  const { rows } = await db.query<Row>(
    `UPDATE ${table} SET ${sets.join(', ')} WHERE organization_id = $1 AND id = $2 RETURNING *`,
    params.values,
  );
  return rows[0] ?? null;
}

export interface Page<Row> {
  rows: Row[];
  hasMore: boolean;
}

/** Newest first, keyset-paginated by id: `starting_after` is the last id of the previous page. */
export async function listPage<Row extends { id: number }>(
  db: Queryable,
  table: string,
  organizationId: number,
  options: { limit?: number | undefined; startingAfter?: number | undefined },
): Promise<Page<Row>> {
  const limit = options.limit ?? 50;
  const { rows } = await db.query<Row>(
    `SELECT * FROM ${table}
      WHERE organization_id = $1 AND ($2::bigint IS NULL OR id < $2)
      ORDER BY id DESC LIMIT $3`,
    [organizationId, options.startingAfter ?? null, limit + 1],
  );
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
}
