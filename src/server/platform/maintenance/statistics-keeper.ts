import type { Logger } from 'pino';
import type { Database, Queryable } from '../db/database.js';

/** How often the keeper looks at the tables' sizes (one cheap statement on pg_class). */
const STATISTICS_CHECK_MS = 10_000;
/**
 * Held (per transaction) by the instance analyzing, so instances sharing a database take turns instead of queueing; a
 * one-key advisory lock beside the migrator's (727_274_001) and the demo seeder's (727_274_002).
 */
const ANALYZE_LOCK_KEY = 727_274_003;

/**
 * The tables of the schema that have outgrown their planner statistics: never analyzed and no longer empty, or grown
 * to more than twice their pages (past one page, for one that was empty) since the last ANALYZE or VACUUM recorded
 * their size. Sizes come from pg_class and the files' sizes, which PGlite keeps too (its activity counters are not
 * flushed the way a server's are).
 *
 * Twice, not autovacuum's tenth: an ANALYZE makes every connection of every instance plan its statements again with the
 * new statistics, and that replanning is a burst of work the requests of the moment wait behind (at 80 orders/s on the
 * benchmark machine, the orders answered in over 60 ms went from 4 with no ANALYZE to 16-63 at each ANALYZE of a
 * growing store's tables, one every 10 seconds; the p99 of whole runs at that rate moved within the machine's noise,
 * bench/results/2026-history.md#planner-statistics). Between ANALYZEs the planner scales a table's row count by its
 * current pages, so statistics taken at half the size still describe its shape. What a new store needs most are its
 * tables' first statistics, which come as before (a table never analyzed is analyzed once it holds a page); after them
 * a table growing tenfold is analyzed about 3 times instead of about 24.
 */
const GROWN_TABLES = `
SELECT c.relname AS name
  FROM pg_class c
 WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'
   AND pg_relation_size(c.oid) / current_setting('block_size')::int
       > CASE WHEN c.reltuples < 0 THEN 0 ELSE greatest(2 * c.relpages, 1) END
 ORDER BY c.relname`;

const quotedList = (names: string[]) => names.map((name) => `"${name.replaceAll('"', '""')}"`).join(', ');

/**
 * Whether PostgreSQL's autovacuum keeps the planner statistics up to date on this database. It does not on PGlite (one
 * process: no autovacuum workers) nor on a server where `autovacuum` or `track_counts` is off.
 */
export async function autovacuumKeepsStatistics(db: Database): Promise<boolean> {
  if (db.kind === 'pglite') return false;
  const { rows } = await db.query<{ on: boolean }>(
    "SELECT current_setting('autovacuum') = 'on' AND current_setting('track_counts') = 'on' AS on",
  );
  return rows[0]?.on === true;
}

/**
 * ANALYZEs the tables that have outgrown their statistics (GROWN_TABLES), in the caller's transaction, and answers
 * their names; none while another instance is analyzing. A table another instance is vacuuming is skipped, not waited
 * for (SKIP_LOCKED): it has still grown at the next check. Without statistics the planner sizes a table by its pages
 * alone, and a prepared statement's generic plan made while a new store's tables were nearly empty stays in use as
 * they grow: it found a cart's order by walking every order of the organization (tests/api/database.test.ts, "query
 * plans"). An ANALYZE makes every connection plan its statements again with the new statistics.
 */
export async function analyzeGrownTables(tx: Queryable): Promise<string[]> {
  const { rows: lock } = await tx.query<{ got: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS got', [
    ANALYZE_LOCK_KEY,
  ]);
  if (lock[0]?.got !== true) return [];
  const { rows } = await tx.query<{ name: string }>(GROWN_TABLES);
  const names = rows.map((row) => row.name);
  if (names.length > 0) await tx.exec(`ANALYZE (SKIP_LOCKED) ${quotedList(names)}`);
  return names;
}

/**
 * The tables of the schema holding more dead rows (deleted, or replaced by an update) than autovacuum lets stand by
 * default: 50 and a fifth of the table.
 */
const TABLES_WITH_DEAD_ROWS = `
SELECT s.relname AS name
  FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
 WHERE s.schemaname = current_schema()
   AND s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0)
 ORDER BY s.relname`;

/**
 * What autovacuum would do, where it does not run: ANALYZE the tables that grew (analyzeGrownTables, one instance at a
 * time), then VACUUM those and the tables holding many dead rows, outside any transaction, so the space of rows
 * deleted or updated is used again. Without it a table that deletes as fast as it inserts (the abuse limits' events,
 * pruned after an hour; expired idempotency keys) grows by what it inserts, forever: PostgreSQL learns where a page has
 * room only from VACUUM. VACUUM skips pages it found all visible before, and a table another instance is vacuuming
 * (SKIP_LOCKED), so the instances take turns here too.
 */
export async function keepTables(db: Database): Promise<{ analyzed: string[]; vacuumed: string[] }> {
  const analyzed = await db.transaction(analyzeGrownTables);
  // The embedded database counts dead rows but makes the counts visible only when asked to (a server does so itself
  // within a second or so); the next statement sees them.
  if (db.kind === 'pglite') await db.query('SELECT pg_stat_force_next_flush()');
  const { rows } = await db.query<{ name: string }>(TABLES_WITH_DEAD_ROWS);
  const vacuumed = [...new Set([...analyzed, ...rows.map((row) => row.name)])].sort();
  if (vacuumed.length > 0) await db.exec(`VACUUM (SKIP_LOCKED) ${quotedList(vacuumed)}`);
  return { analyzed, vacuumed };
}

/**
 * Does autovacuum's work where it does not run: keepTables every STATISTICS_CHECK_MS. Does nothing (and says nothing)
 * where autovacuum runs. Answers at once (whether autovacuum runs is asked in the background); stop() waits for that
 * answer and for a check in progress, so the database can be closed after it.
 */
export function startStatisticsKeeper(deps: {
  db: Database;
  logger: Pick<Logger, 'info' | 'warn' | 'debug'>;
  everyMs?: number;
}): { stop(): Promise<void> } {
  const { db, logger } = deps;
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  const check = () => {
    if (running) return;
    running = keepTables(db)
      .then(({ analyzed, vacuumed }) => {
        if (vacuumed.length > 0)
          logger.debug({ analyzed, vacuumed }, 'planner statistics updated, tables vacuumed');
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'updating planner statistics failed'))
      .finally(() => {
        running = null;
      });
  };
  const started = autovacuumKeepsStatistics(db)
    .then((autovacuum) => {
      if (autovacuum) return;
      logger.info(
        db.kind === 'pglite'
          ? 'the embedded database has no autovacuum: this instance analyzes and vacuums its tables as they change'
          : 'autovacuum is off on this database: this instance analyzes and vacuums its tables as they change',
      );
      check();
      timer = setInterval(check, deps.everyMs ?? STATISTICS_CHECK_MS);
      timer.unref();
    })
    .catch((error: unknown) => logger.warn({ err: error }, 'could not tell whether autovacuum runs'));
  return {
    async stop() {
      await started;
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
