/** What repositories need from a database: parameterised SQL, on its own or inside a transaction. */
export interface Queryable {
  /**
   * Runs one statement. No order is promised between statements sent without waiting for each other: await a
   * statement before sending one that must run after it (a lock before the read that must see what the lock waited
   * for). Outside a transaction each may go to a connection of its own.
   */
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<Row>>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface QueryResult<Row> {
  rows: Row[];
  rowCount: number;
}

export interface Database extends Queryable {
  readonly kind: 'postgres' | 'pglite';
  /**
   * Runs fn in one transaction (READ COMMITTED). Commits when fn resolves, rolls back when it throws.
   * On PostgreSQL a serialization failure or deadlock is retried a few times; fn must therefore be safe to re-run.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** PostgreSQL error codes the services react to. */
export const PG_UNIQUE_VIOLATION = '23505';
export const PG_SERIALIZATION_FAILURE = '40001';
export const PG_DEADLOCK_DETECTED = '40P01';

/** A statement that lost a deadlock or a serialization conflict: running its transaction again may succeed. */
export function isRetryable(error: unknown): boolean {
  const code = pgErrorCode(error);
  return code === PG_SERIALIZATION_FAILURE || code === PG_DEADLOCK_DETECTED;
}

export function pgErrorCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error as { code: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}
