import type { Queryable } from '../../platform/db/database.js';
import { findOrganizationByPublicId } from './organizations-repository.js';

/** What an access token names: the organization's id and its public id. */
export interface OrganizationName {
  id: number;
  public_id: string;
}

export interface OrganizationDirectory {
  /** The organization a public id names, or null when there is none (yet). */
  find(publicId: string): Promise<OrganizationName | null>;
}

/**
 * Which organization a public id names, remembered once read: a public id never changes (migration 0005 refuses it)
 * and organizations are never deleted (migration 0006 refuses it), so a remembered answer cannot go stale on any
 * instance. Saves the authorize request its only statement. An unknown public id is asked again each time: the
 * organization may be created later.
 */
export function createOrganizationDirectory(db: Queryable, maxEntries = 10_000): OrganizationDirectory {
  const known = new Map<string, OrganizationName>();
  return {
    async find(publicId) {
      const remembered = known.get(publicId);
      if (remembered) return remembered;
      const row = await findOrganizationByPublicId(db, publicId);
      if (!row) return null;
      // More organizations than one instance serves at once: start again rather than grow without end.
      if (known.size >= maxEntries) known.clear();
      const name = { id: row.id, public_id: row.public_id };
      known.set(publicId, name);
      return name;
    },
  };
}
