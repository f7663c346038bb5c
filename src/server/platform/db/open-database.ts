import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.js';
import type { Database } from './database.js';
import { lockDataFolder } from './data-dir-lock.js';
import { createPgliteDatabase } from './pglite.js';
import { createPostgresDatabase } from './postgres.js';

/**
 * PostgreSQL when DATABASE_URL is set, else the embedded database kept in DATA_DIR/pglite. `warn` hears of a stale
 * lock of the data folder taken over.
 */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'databasePoolSize' | 'databasePreparedStatements' | 'dataDir'>,
  options: { warn?: (message: string) => void } = {},
): Promise<Database> {
  if (config.databaseUrl !== null) {
    return createPostgresDatabase(config.databaseUrl, {
      poolSize: config.databasePoolSize,
      preparedStatements: config.databasePreparedStatements,
    });
  }
  const folder = path.join(config.dataDir, 'pglite');
  await mkdir(folder, { recursive: true });
  const lock = lockDataFolder(config.dataDir);
  if (lock.staleTakenOver !== null) options.warn?.(lock.staleTakenOver);
  try {
    const db = await createPgliteDatabase(folder);
    return {
      ...db,
      async close() {
        await db.close();
        lock.release();
      },
    };
  } catch (error) {
    lock.release();
    throw error;
  }
}
