import type { Queryable } from '../db/database.js';

/** Which organization a cart token belongs to, for serving its page; null when the token names nothing usable. */
export async function findOrganizationIdForCart(
  db: Queryable,
  token: string,
  now: Date,
): Promise<number | null> {
  const { rows } = await db.query<{ organization_id: number }>(
    'SELECT organization_id FROM carts WHERE token = $1 AND (expires_at IS NULL OR expires_at > $2)',
    [token, now],
  );
  return rows[0]?.organization_id ?? null;
}

export async function findOrganizationIdForLink(
  db: Queryable,
  linkId: string,
  now: Date,
): Promise<number | null> {
  const { rows } = await db.query<{ organization_id: number }>(
    'SELECT organization_id FROM checkout_links WHERE public_id = $1 AND active AND (expires_at IS NULL OR expires_at > $2)',
    [linkId, now],
  );
  return rows[0]?.organization_id ?? null;
}

export async function findOrganizationIdForGiftClaim(
  db: Queryable,
  claimCode: string,
): Promise<number | null> {
  const { rows } = await db.query<{ organization_id: number }>(
    'SELECT organization_id FROM gift_details WHERE claim_code = $1 AND claimed_at IS NULL',
    [claimCode],
  );
  return rows[0]?.organization_id ?? null;
}
