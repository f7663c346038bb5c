// Creates the demo store if it does not exist yet and prints a demo checkout URL.
import { loadConfig } from '../src/server/platform/config.js';
import { migrate } from '../src/server/platform/db/migrate.js';
import { openDatabase } from '../src/server/platform/db/open-database.js';
import { resolveSecret } from '../src/server/platform/security/persisted-secrets.js';
import { ensureDemoStore } from '../src/server/modules/demo/demo-store.js';
import { newMerchantApiKey } from '../src/server/platform/security/secrets.js';

const config = loadConfig();
const db = await openDatabase(config);
await migrate(db);
const apiKey = await resolveSecret(
  config.merchantApiKey,
  config.dataDir,
  'merchant-api-key',
  newMerchantApiKey,
);
const demo = await ensureDemoStore(db, {
  apiKey: apiKey.value,
  publicUrl: config.publicUrl,
  now: new Date(),
});
console.log(demo.created ? 'demo store created' : 'demo store already present');
console.log(`Checkout: ${demo.checkoutUrl}`);
await db.close();
