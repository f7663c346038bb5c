import { PGlite, types } from '@electric-sql/pglite';
import {
  announcer,
  checkChannelName,
  createLocalChannels,
  createPendingAnnouncements,
  type Database,
  type Queryable,
  type QueryResult,
} from './database.js';

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

  const channels = createLocalChannels();
  const wrap = (
    target: Pick<PGlite, 'query' | 'exec'>,
    announcements: ReturnType<typeof createPendingAnnouncements> | null,
  ): Queryable => ({
    async query<Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<Row>> {
      const result = await target.query<Row>(sql, params as unknown[]);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
    async exec(sql: string): Promise<void> {
      await target.exec(sql);
    },
    announce: announcer(channels, announcements),
  });
  const direct = wrap(db, null);

  return {
    kind: 'pglite',
    query: direct.query,
    exec: direct.exec,
    announce: direct.announce,
    async transaction(fn) {
      const announcements = createPendingAnnouncements(channels);
      const result = await db.transaction((tx) => fn(wrap(tx, announcements)));
      announcements.deliver();
      return result;
    },
    // One connection, in this process: a notification is heard before the statement that committed it resolves,
    // and it cannot be lost.
    async listen(channel, listener) {
      const name = checkChannelName(channel);
      const unsubscribe = channels.subscribe(name, listener);
      const unlisten = await db.listen(name, (payload) => listener.message(payload));
      listener.listening(true);
      return async () => {
        unsubscribe();
        // A closed database has stopped listening already.
        if (!db.closed) await unlisten();
      };
    },
    async close() {
      await db.close();
    },
  };
}
