import type { Queryable } from '../../platform/db/database.js';

/**
 * Which organization a cart token belongs to, and the language its shopper chose, for serving its page; null when the
 * token names nothing usable.
 */
export async function findCartForPage(
  db: Queryable,
  token: string,
  now: Date,
): Promise<{ organization_id: number; language: string | null; address_countries: string[] } | null> {
  // The countries of its customer's addresses: the page is given their formats (docs/languages.md, "Addresses").
  const { rows } = await db.query<{
    organization_id: number;
    language: string | null;
    address_countries: string[] | null;
  }>(
    `SELECT c.organization_id, c.language,
            (SELECT array_agg(DISTINCT a.country ORDER BY a.country) FROM addresses a
              WHERE a.organization_id = c.organization_id AND a.customer_id = c.customer_id AND a.country <> ''
            ) AS address_countries
       FROM carts c WHERE c.token = $1 AND (c.expires_at IS NULL OR c.expires_at > $2)`,
    [token, now],
  );
  const row = rows[0];
  return row ? { ...row, address_countries: row.address_countries ?? [] } : null;
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

/** Which organization a gift claim code belongs to, and whether its gift was claimed; null for an unknown code. */
export async function findGiftClaimOrganization(
  db: Queryable,
  claimCode: string,
): Promise<{ organization_id: number; claimed: boolean } | null> {
  const { rows } = await db.query<{ organization_id: number; claimed: boolean }>(
    `SELECT organization_id, claimed_at IS NOT NULL AS claimed FROM gift_details
      WHERE claim_code = $1 AND claim_issued_at IS NOT NULL`,
    [claimCode],
  );
  return rows[0] ?? null;
}
