import pg from 'pg';
import {
  PG_DEADLOCK_DETECTED,
  PG_SERIALIZATION_FAILURE,
  pgErrorCode,
  type Database,
  type Queryable,
  type QueryResult,
} from './database.js';

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

const RETRYABLE = new Set([PG_SERIALIZATION_FAILURE, PG_DEADLOCK_DETECTED]);
const MAX_ATTEMPTS = 4;

export function createPostgresDatabase(
  connectionString: string,
  options: { poolSize?: number } = {},
): Database {
  const pool = new pg.Pool({
    connectionString,
    max: options.poolSize ?? 10,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});

  const wrap = (client: pg.Pool | pg.PoolClient): Queryable => ({
    async query<Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<Row>> {
      const result = await client.query(sql, params as unknown[]);
      return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
    },
    async exec(sql: string): Promise<void> {
      await client.query(sql);
    },
  });
  const direct = wrap(pool);

  return {
    kind: 'postgres',
    query: direct.query,
    exec: direct.exec,
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      for (let attempt = 1; ; attempt++) {
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          const result = await fn(wrap(client));
          await client.query('COMMIT');
          client.release();
          return result;
        } catch (error) {
          await client.query('ROLLBACK').catch(() => {});
          client.release();
          if (attempt < MAX_ATTEMPTS && RETRYABLE.has(pgErrorCode(error) ?? '')) continue;
          throw error;
        }
      }
    },
    async close() {
      await pool.end();
    },
  };
}
