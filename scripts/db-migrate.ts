// Applies pending migrations to DATABASE_URL (or the embedded database in DATA_DIR) and exits.
import { loadConfig } from '../src/server/platform/config.js';
import { migrate } from '../src/server/platform/db/migrate.js';
import { openDatabase } from '../src/server/platform/db/open-database.js';

const config = loadConfig();
const db = await openDatabase(config);
const applied = await migrate(db);
console.log(applied.length > 0 ? `applied migrations ${applied.join(', ')}` : 'the database is up to date');
await db.close();
