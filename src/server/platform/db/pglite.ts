import { PGlite, types } from '@electric-sql/pglite';
import type { Database, Queryable, QueryResult } from './database.js';

/**
 * The embedded default: PostgreSQL compiled to WebAssembly, one connection. PGlite runs one transaction at a time
 * and queues other queries behind it, so transactions here are serialised; the same SQL runs on PostgreSQL.
 * @param dataDir a folder to keep the database in, or undefined for an in-memory database (tests).
 */
export async function createPgliteDatabase(dataDir?: string): Promise<Database> {
  const db = await PGlite.create({
    ...(dataDir === undefined ? {} : { dataDir }),
    parsers: { [types.INT8]: (value: string) => Number(value) },
  });

  const wrap = (target: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    async query<Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<Row>> {
      const result = await target.query<Row>(sql, params as unknown[]);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
    async exec(sql: string): Promise<void> {
      await target.exec(sql);
    },
  });
  const direct = wrap(db);

  return {
    kind: 'pglite',
    query: direct.query,
    exec: direct.exec,
    transaction: (fn) => db.transaction((tx) => fn(wrap(tx))),
    async close() {
      await db.close();
    },
  };
}
