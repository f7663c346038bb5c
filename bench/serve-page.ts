// Serves a built page folder (argv[2]) through the real app's page routes, exactly as server.ts serves dist/client:
// the same HTML route with its config block, the same precompressed, immutable static assets, the same headers.
// The page benchmark uses it for the bare React page; the checkout page is served by the built server itself.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/server/app.js';
import { systemClock } from '../src/server/platform/clock.js';
import { parseConfig } from '../src/server/platform/config.js';
import { migrate } from '../src/server/platform/db/migrate.js';
import { createPgliteDatabase } from '../src/server/platform/db/pglite.js';
import { createLogger } from '../src/server/platform/logging.js';
import { ensureDemoStore } from '../src/server/modules/demo/demo-store.js';

const clientDir = path.resolve(process.argv[2] ?? '');
const dataDir = mkdtempSync(path.join(tmpdir(), 'sc-serve-page-'));
const parsed = parseConfig({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
const db = await createPgliteDatabase(path.join(dataDir, 'pglite'));
await migrate(db);
const app = await buildApp({
  config: parsed.config,
  db,
  logger: createLogger({ level: 'warn' }),
  tokenSecrets: { current: 'serve-page-token-secret-0123456789abcdef', previous: null },
  clientDir,
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
const demo = await ensureDemoStore(db, {
  apiKey: 'sk_serve_page_0123456789abcdef01',
  publicUrl: address,
  now: systemClock.now(),
});
console.log(`Checkout: ${demo.checkoutUrl}`);
process.on('SIGTERM', () => void app.close().then(() => db.close().then(() => process.exit(0))));
