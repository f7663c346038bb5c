import type { Database, Queryable, QueryResult } from '../../src/server/platform/db/database.js';

/** What a wrapped database does with one statement: `run` sends it on; `db` is where it was sent (for more work). */
export type QueryHook = (
  sql: string,
  params: readonly unknown[] | undefined,
  run: () => Promise<QueryResult<unknown>>,
  db: Queryable,
) => Promise<QueryResult<unknown>>;

/**
 * The database with each statement sent outside transactions ('direct') or inside them ('transactions') passed through
 * `hook`: how a test makes one statement fail, or runs other work just before or after it (another attempt committing
 * meanwhile, a key released at the worst moment).
 */
export function interceptQueries(db: Database, where: 'direct' | 'transactions', hook: QueryHook): Database {
  const through =
    (q: Queryable): Queryable['query'] =>
    (sql, params) =>
      hook(sql, params, () => q.query(sql, params), q) as never;
  if (where === 'direct') return { ...db, kind: db.kind, query: through(db) };
  const inside = (tx: Queryable): Queryable => ({
    exec: (sql) => tx.exec(sql),
    query: through(tx),
  });
  return { ...db, kind: db.kind, transaction: (fn) => db.transaction((tx) => fn(inside(tx))) };
}
