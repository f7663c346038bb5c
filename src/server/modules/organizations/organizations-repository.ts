import type { Queryable } from '../../platform/db/database.js';

export interface OrganizationRow {
  id: number;
  public_id: string;
  name: string;
  currency: string;
  settings: unknown;
  created_at: Date;
  updated_at: Date;
}

export async function findOrganizationById(db: Queryable, id: number): Promise<OrganizationRow | null> {
  const { rows } = await db.query<OrganizationRow>('SELECT * FROM organizations WHERE id = $1', [id]);
  return rows[0] ?? null;
}

export async function findOrganizationByPublicId(
  db: Queryable,
  publicId: string,
): Promise<OrganizationRow | null> {
  const { rows } = await db.query<OrganizationRow>('SELECT * FROM organizations WHERE public_id = $1', [
    publicId,
  ]);
  return rows[0] ?? null;
}

export async function insertOrganization(
  db: Queryable,
  input: { publicId: string; name: string; currency: string; settings: unknown },
): Promise<OrganizationRow> {
  const { rows } = await db.query<OrganizationRow>(
    'INSERT INTO organizations (public_id, name, currency, settings) VALUES ($1, $2, $3, $4) RETURNING *',
    [input.publicId, input.name, input.currency, JSON.stringify(input.settings)],
  );
  return rows[0] as OrganizationRow;
}

export async function updateOrganization(
  db: Queryable,
  id: number,
  changes: { name?: string; currency?: string; settings?: unknown },
  now: Date,
): Promise<OrganizationRow | null> {
  const { rows } = await db.query<OrganizationRow>(
    `UPDATE organizations
        SET name = coalesce($2, name),
            currency = coalesce($3, currency),
            settings = coalesce($4::jsonb, settings),
            updated_at = $5
      WHERE id = $1
      RETURNING *`,
    [
      id,
      changes.name ?? null,
      changes.currency ?? null,
      changes.settings === undefined ? null : JSON.stringify(changes.settings),
      now,
    ],
  );
  return rows[0] ?? null;
}

export async function organizationHasCarts(db: Queryable, id: number): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM carts WHERE organization_id = $1 LIMIT 1', [id]);
  return rows.length > 0;
}

/** Every store's public id, oldest first (the CLI names them when it must be told which). */
export async function listOrganizationPublicIds(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ public_id: string }>('SELECT public_id FROM organizations ORDER BY id');
  return rows.map((row) => row.public_id);
}
