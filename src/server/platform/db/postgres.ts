import { createHash } from 'node:crypto';
import pg from 'pg';
import {
  announcer,
  checkChannelName,
  createLocalChannels,
  createPendingAnnouncements,
  isRetryable,
  pgErrorCode,
  type ChannelListener,
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

const MAX_ATTEMPTS = 4;

/** Distinct SQL texts given a statement name; past this (generated SQL gone wild) queries run unnamed. */
const MAX_NAMED_STATEMENTS = 2000;
/** Waits before a lost listening connection is opened again: doubling from the first to the last. */
const LISTEN_RETRY_MS = { first: 250, last: 10_000 };
/**
 * How often the listening connection is asked a question: a connection that died without a word (a half-open TCP
 * connection, a missed close) fails it, and is then opened again. Unanswered after LISTEN_TIMEOUT_MS counts as dead.
 */
const LISTEN_HEARTBEAT_MS = 2_000;
/** How the listening connection shows in pg_stat_activity. */
export const LISTEN_APPLICATION_NAME = 'secure-checkout listen';
const LISTEN_TIMEOUT_MS = 5_000;

/**
 * A prepared statement planned before a migration changed its table's columns ("cached plan must not change result
 * type"), as happens to instances still running while a new one migrates.
 */
function isStalePlan(error: unknown): boolean {
  return pgErrorCode(error) === '0A000' && /cached plan must not change result type/.test(String(error));
}

/**
 * COMMIT of a transaction that changed what a cart's view is made of, so that migration 0004's triggers NOTIFY (and
 * the transaction announce()d it). PostgreSQL serialises every committing transaction that notified on one lock, held
 * until its commit record is on disk: with synchronous commit, one such transaction's flush after another's, none
 * sharing a flush with the rest (in the shopper flow: the preview and the order). So this COMMIT does not wait for
 * the flush (the lock is held only while the notices are queued), and the statement sent with it, in a transaction of
 * its own, does: it writes a record (a logical decoding message, which nothing here decodes) and commits
 * synchronously, which flushes the WAL up to its own commit record, past this transaction's. (A transaction that
 * wrote nothing to the WAL commits without a flush, so a mere transaction id would not do.) When this resolves the
 * transaction is as durable as after a synchronous COMMIT, and nothing was answered or charged on it before. One
 * round trip, as a plain COMMIT.
 */
async function commitPastNotifyLock(client: pg.PoolClient): Promise<void> {
  await Promise.all(
    sentTogether(client, () => [
      client.query('SET LOCAL synchronous_commit TO off'),
      client.query('COMMIT'),
      client.query("SELECT pg_logical_emit_message(true, 'secure-checkout', 'commit flushed')"),
    ]),
  );
}

/**
 * Runs `send` with the connection's socket corked until the next tick: the statements it sends then (and any sent
 * before that tick, such as a transaction's first statement after BEGIN) leave in one write. Answers what send does.
 */
function sentTogether<T>(client: pg.PoolClient, send: () => T): T {
  const stream = client.connection.stream;
  stream.cork();
  try {
    return send();
  } finally {
    process.nextTick(() => stream.uncork());
  }
}

export function createPostgresDatabase(
  connectionString: string,
  options: {
    poolSize?: number;
    /** Named (server-side prepared) statements; off for a pooler that cannot keep them (docs/operations.md). */
    preparedStatements?: boolean;
    /** Where listen() connects: a direct connection, not a pooler in transaction mode. connectionString when absent. */
    listenUrl?: string;
  } = {},
): Database {
  const pool = new pg.Pool({
    connectionString,
    max: options.poolSize ?? 10,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
    // A statement may be sent before the one ahead of it on the connection is answered; they still run one after the
    // other, in the order sent. A transaction's BEGIN goes out with its first statement (transaction() below), and a
    // caller that sends statements without waiting (a lock with the read that must follow it) saves round trips.
    pipeline: true,
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

  const channels = createLocalChannels();
  const listeners = new Set<() => Promise<void>>();

  const wrap = (
    client: pg.Pool | pg.PoolClient,
    announcements: ReturnType<typeof createPendingAnnouncements> | null,
    begun: Promise<unknown> | null = null,
  ): Queryable => {
    // A transaction's BEGIN, until its first statement is sent: that statement waits for BEGIN's answer too (an error
    // in BEGIN fails it); transaction() waits for it before COMMIT whatever fn sent.
    let unanswered = begun;
    return {
      async query<Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<Row>> {
        const run = () => client.query({ name: nameOf(sql), text: sql, values: params as unknown[] });
        const begin = unanswered;
        unanswered = null;
        let result;
        try {
          result = begin ? (await Promise.all([begin, run()]))[1] : await run();
        } catch (error) {
          if (!isStalePlan(error)) throw error;
          forgetPlans();
          // Inside a transaction the error aborted it: transaction() runs it again instead.
          if (announcements) throw error;
          result = await run();
        }
        return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
      },
      async exec(sql: string): Promise<void> {
        await client.query(sql);
      },
      announce: announcer(channels, announcements),
    };
  };
  const direct = wrap(pool, null);

  return {
    kind: 'postgres',
    query: direct.query,
    exec: direct.exec,
    announce: direct.announce,
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      for (let attempt = 1; ; attempt++) {
        const client = await pool.connect();
        // An attempt that is rolled back (and perhaps run again) announces nothing.
        const announcements = createPendingAnnouncements(channels);
        try {
          // BEGIN is not waited for: it goes out in one write with the transaction's first statement, when fn sends
          // that statement at once (the socket is corked until the next tick), and is answered before it. One round
          // trip to the database fewer per transaction.
          const begun = sentTogether(client, () => client.query('BEGIN'));
          begun.catch(() => {}); // (awaited below and by the first statement; this keeps a failure from going unhandled)
          const result = await fn(wrap(client, announcements, begun));
          await begun;
          await (announcements.count > 0 ? commitPastNotifyLock(client) : client.query('COMMIT'));
          client.release();
          announcements.deliver();
          return result;
        } catch (error) {
          await client.query('ROLLBACK').catch(() => {});
          client.release();
          if (attempt < MAX_ATTEMPTS && (isRetryable(error) || isStalePlan(error))) continue;
          throw error;
        }
      }
    },
    async listen(channel: string, listener: ChannelListener): Promise<() => Promise<void>> {
      const name = checkChannelName(channel);
      const unsubscribe = channels.subscribe(name, listener);
      let stopped = false;
      let current: pg.Client | null = null;
      let retryMs = LISTEN_RETRY_MS.first;
      let retryTimer: NodeJS.Timeout | undefined;
      let heartbeat: NodeJS.Timeout | undefined;

      const lost = (client: pg.Client) => {
        if (current !== client) return;
        current = null;
        clearInterval(heartbeat);
        client.end().catch(() => {});
        listener.listening(false);
        if (stopped) return;
        retryTimer = setTimeout(() => void connect(), retryMs);
        retryMs = Math.min(retryMs * 2, LISTEN_RETRY_MS.last);
      };
      const connect = async () => {
        const client = new pg.Client({
          connectionString: options.listenUrl ?? connectionString,
          connectionTimeoutMillis: LISTEN_TIMEOUT_MS,
          query_timeout: LISTEN_TIMEOUT_MS,
          keepAlive: true,
          application_name: LISTEN_APPLICATION_NAME,
        });
        current = client;
        client.on('notification', (message) => {
          if (current === client && message.channel === name) listener.message(message.payload ?? '');
        });
        client.on('error', () => lost(client));
        client.on('end', () => lost(client));
        try {
          await client.connect();
          await client.query(`LISTEN ${name}`);
        } catch {
          lost(client);
          return;
        }
        if (current !== client) return;
        retryMs = LISTEN_RETRY_MS.first;
        heartbeat = setInterval(() => {
          client.query('SELECT 1').catch(() => lost(client));
        }, LISTEN_HEARTBEAT_MS);
        heartbeat.unref();
        listener.listening(true);
      };

      await connect();
      const stop = async () => {
        stopped = true;
        clearTimeout(retryTimer);
        clearInterval(heartbeat);
        unsubscribe();
        listeners.delete(stop);
        const client = current;
        current = null;
        if (client) await client.end().catch(() => {});
      };
      listeners.add(stop);
      return stop;
    },
    async close() {
      await Promise.all([...listeners].map((stop) => stop()));
      await pool.end();
    },
  };
}
