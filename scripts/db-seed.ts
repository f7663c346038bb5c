// Creates the demo store if it does not exist yet and prints a demo checkout URL.
import { loadConfig } from '../src/server/config.js';
import { migrate } from '../src/server/db/migrate.js';
import { openDatabase } from '../src/server/db/open-database.js';
import { resolveSecret } from '../src/server/security/persisted-secrets.js';
import { ensureDemoStore } from '../src/server/seed/demo-store.js';
import { newMerchantApiKey } from '../src/server/services/secrets.js';

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
