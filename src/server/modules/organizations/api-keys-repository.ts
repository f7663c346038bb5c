import type { Queryable } from '../../platform/db/database.js';

export interface ApiKeyRow {
  id: number;
  organization_id: number;
  key_prefix: string;
  label: string;
  created_at: Date;
  revoked_at: Date | null;
}

/** Stores a key's hash; the same key stored twice (the demo key at every start) is one row. */
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

/** The active key with this hash (its id and organization), or null. */
export async function findActiveKey(
  db: Queryable,
  keyHash: string,
): Promise<{ id: number; organization_id: number } | null> {
  const { rows } = await db.query<{ id: number; organization_id: number }>(
    'SELECT id, organization_id FROM merchant_api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
    [keyHash],
  );
  return rows[0] ?? null;
}

export async function findApiKeyByHash(
  db: Queryable,
  organizationId: number,
  keyHash: string,
): Promise<ApiKeyRow | null> {
  const { rows } = await db.query<ApiKeyRow>(
    `SELECT id, organization_id, key_prefix, label, created_at, revoked_at FROM merchant_api_keys
      WHERE organization_id = $1 AND key_hash = $2`,
    [organizationId, keyHash],
  );
  return rows[0] ?? null;
}

export async function listApiKeys(db: Queryable, organizationId: number): Promise<ApiKeyRow[]> {
  const { rows } = await db.query<ApiKeyRow>(
    `SELECT id, organization_id, key_prefix, label, created_at, revoked_at FROM merchant_api_keys
      WHERE organization_id = $1 ORDER BY id DESC`,
    [organizationId],
  );
  return rows;
}

/** Revokes a key of the organization; answers the key, or null when it has no such key. */
export async function revokeApiKey(
  db: Queryable,
  organizationId: number,
  id: number,
  now: Date,
): Promise<ApiKeyRow | null> {
  const { rows } = await db.query<ApiKeyRow>(
    `UPDATE merchant_api_keys SET revoked_at = coalesce(revoked_at, $3)
      WHERE organization_id = $1 AND id = $2
      RETURNING id, organization_id, key_prefix, label, created_at, revoked_at`,
    [organizationId, id, now],
  );
  return rows[0] ?? null;
}
