import type { ApiKey } from '../../../contract/merchant.js';
import type { Queryable } from '../../platform/db/database.js';
import { AppError, notFound } from '../../platform/errors.js';
import { findApiKeyByHash, listApiKeys, revokeApiKey, type ApiKeyRow } from './api-keys-repository.js';
import type { OrganizationRow } from './organizations-repository.js';
import { iso } from '../../platform/http/money-input.js';
import { addApiKey } from './organization-service.js';
import { hashApiKey, newMerchantApiKey } from '../../platform/security/secrets.js';

function present(row: ApiKeyRow, currentKeyId: number | undefined): ApiKey {
  return {
    id: row.id,
    key_prefix: row.key_prefix,
    label: row.label,
    created_at: iso(row.created_at),
    revoked_at: iso(row.revoked_at),
    current: row.id === currentKeyId,
  };
}

/** A new key for the organization, answered once: only its hash is stored. */
export async function createApiKey(
  db: Queryable,
  organization: OrganizationRow,
  label: string,
  currentKeyId: number | undefined,
): Promise<ApiKey & { key: string }> {
  const key = newMerchantApiKey();
  await addApiKey(db, organization.id, key, label);
  const row = await findApiKeyByHash(db, organization.id, hashApiKey(key));
  if (!row) throw new Error('the new key was not stored');
  return { ...present(row, currentKeyId), key };
}

export async function listApiKeyPage(
  db: Queryable,
  organization: OrganizationRow,
  currentKeyId: number | undefined,
) {
  return { data: (await listApiKeys(db, organization.id)).map((row) => present(row, currentKeyId)) };
}

/** Revokes a key at once on every instance; the key this request uses cannot revoke itself (no lock-out). */
export async function revokeKey(
  db: Queryable,
  organization: OrganizationRow,
  id: number,
  currentKeyId: number | undefined,
  now: Date,
): Promise<ApiKey> {
  if (id === currentKeyId) {
    throw new AppError(
      409,
      'api_key_in_use',
      'This request is made with that key. Revoke it with another key.',
    );
  }
  const row = await revokeApiKey(db, organization.id, id, now);
  if (!row) throw notFound('api_key_not_found', `There is no API key ${id}.`);
  return present(row, currentKeyId);
}
