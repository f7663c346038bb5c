import { createHash } from 'node:crypto';
import pg from 'pg';
import { isRetryable, pgErrorCode, type Database, type Queryable, type QueryResult } from './database.js';

// int8 (ids, money in minor units) as JS numbers: every value we store stays far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
// _int8 (bigint[]): its built-in parser yields strings, whatever the int8 parser says.
const INT8_ARRAY_OID = 1016 as Parameters<typeof pg.types.getTypeParser>[0];
const parseInt8ArrayAsStrings = pg.types.getTypeParser(INT8_ARRAY_OID) as (
  value: string,
) => (string | null)[];
pg.types.setTypeParser(INT8_ARRAY_OID, (value) =>
  parseInt8ArrayAsStrings(value).map((item) => (item === null ? null : Number(item))),
);

/** Attempts of a transaction that lost a serialization conflict or a deadlock, or met a stale plan. */
const MAX_ATTEMPTS = 4;
/** Distinct SQL texts given a statement name; past this (generated SQL gone wild) queries run unnamed. */
const MAX_NAMED_STATEMENTS = 2000;

/**
 * A prepared statement planned before a migration changed its table's columns ("cached plan must not change result
 * type"), as happens to instances still running while a new one migrates.
 */
function isStalePlan(error: unknown): boolean {
  return pgErrorCode(error) === '0A000' && /cached plan must not change result type/.test(String(error));
}

export function createPostgresDatabase(
  connectionString: string,
  options: {
    poolSize?: number;
    /** Named (server-side prepared) statements; off for a pooler that cannot keep them (docs/operations.md). */
    preparedStatements?: boolean;
  } = {},
): Database {
  const pool = new pg.Pool({
    connectionString,
    max: options.poolSize ?? 10,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});

  // Each SQL text gets a statement name, so PostgreSQL parses and plans it once per connection instead of on every
  // call: that was two thirds of the database's CPU on a cart read. A stale plan bumps the generation, which
  // renames every statement so it is prepared afresh.
  const prepared = options.preparedStatements ?? true;
  let generation = 0;
  const names = new Map<string, string>();
  const nameOf = (sql: string): string | undefined => {
    if (!prepared) return undefined;
    let name = names.get(sql);
    if (name === undefined && names.size < MAX_NAMED_STATEMENTS) {
      name = `sc${generation}_${createHash('sha1').update(sql).digest('hex').slice(0, 24)}`;
      names.set(sql, name);
    }
    return name;
  };
  const forgetPlans = () => {
    generation++;
    names.clear();
  };

  const wrap = (client: pg.Pool | pg.PoolClient, inTransaction: boolean): Queryable => ({
    async query<Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<Row>> {
      const run = () => client.query({ name: nameOf(sql), text: sql, values: params as unknown[] });
      let result;
      try {
        result = await run();
      } catch (error) {
        if (!isStalePlan(error)) throw error;
        forgetPlans();
        // Inside a transaction the error aborted it: transaction() runs it again instead.
        if (inTransaction) throw error;
        result = await run();
      }
      return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
    },
    async exec(sql: string): Promise<void> {
      await client.query(sql);
    },
  });
  const direct = wrap(pool, false);

  return {
    kind: 'postgres',
    query: direct.query,
    exec: direct.exec,
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      for (let attempt = 1; ; attempt++) {
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          const result = await fn(wrap(client, true));
          await client.query('COMMIT');
          client.release();
          return result;
        } catch (error) {
          await client.query('ROLLBACK').catch(() => {});
          client.release();
          if (attempt < MAX_ATTEMPTS && (isRetryable(error) || isStalePlan(error))) continue;
          throw error;
        }
      }
    },
    async close() {
      await pool.end();
    },
  };
}
