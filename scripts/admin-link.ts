// A new one-time link for a store's owner to set a password (docs/dashboard.md): `npm run admin:link`, or
// `npm run admin:link -- <organization public id>` when the database holds several stores.
import { systemClock } from '../src/server/platform/clock.js';
import { loadConfig } from '../src/server/platform/config.js';
import { migrate } from '../src/server/platform/db/migrate.js';
import { openDatabase } from '../src/server/platform/db/open-database.js';
import {
  findOrganizationByPublicId,
  listOrganizationPublicIds,
} from '../src/server/modules/organizations/organizations-repository.js';
import { issueOwnerLink } from '../src/server/modules/staff/staff-service.js';

const config = loadConfig();
const db = await openDatabase(config, { warn: (message) => console.error(message) });
try {
  await migrate(db);
  const wanted = process.argv[2];
  const stores = await listOrganizationPublicIds(db);
  const publicId = wanted ?? (stores.length === 1 ? stores[0] : undefined);
  if (publicId === undefined) {
    console.error(
      stores.length === 0
        ? 'There is no store yet: start the checkout once (npm start).'
        : `Name the store: npm run admin:link -- <${stores.join(' | ')}>`,
    );
    process.exitCode = 1;
  } else {
    const organization = await findOrganizationByPublicId(db, publicId);
    if (!organization) {
      console.error(`There is no store "${publicId}".`);
      process.exitCode = 1;
    } else {
      const link = await issueOwnerLink(db, organization.id, config.publicUrl, systemClock.now());
      console.log(
        `The owner of "${organization.name}" sets a password at ${link.url}\n` +
          `(one-time link, until ${link.expiresAt.toISOString()}; any earlier one no longer works)`,
      );
    }
  }
} finally {
  await db.close();
}
