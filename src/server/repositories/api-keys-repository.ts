import type { Queryable } from '../db/database.js';

export async function insertApiKey(
  db: Queryable,
  input: { organizationId: number; keyHash: string; keyPrefix: string; label: string },
): Promise<void> {
  await db.query(
    `INSERT INTO merchant_api_keys (organization_id, key_hash, key_prefix, label) VALUES ($1, $2, $3, $4)
     ON CONFLICT (key_hash) DO NOTHING`,
    [input.organizationId, input.keyHash, input.keyPrefix, input.label],
  );
}

/** The organization of an active key, or null. */
export async function findOrganizationIdByKeyHash(db: Queryable, keyHash: string): Promise<number | null> {
  const { rows } = await db.query<{ organization_id: number }>(
    'SELECT organization_id FROM merchant_api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
    [keyHash],
  );
  return rows[0]?.organization_id ?? null;
}

export async function findKeyOrganizationId(db: Queryable, keyHash: string): Promise<number | null> {
  const { rows } = await db.query<{ organization_id: number }>(
    'SELECT organization_id FROM merchant_api_keys WHERE key_hash = $1',
    [keyHash],
  );
  return rows[0]?.organization_id ?? null;
}
