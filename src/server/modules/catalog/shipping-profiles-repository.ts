import type { Queryable } from '../../platform/db/database.js';
import { listPage, updateRow, type Page } from '../../platform/db/sql.js';

export interface ShippingProfileRow {
  id: number;
  organization_id: number;
  name: string;
  countries: string[];
  price: number;
  free_over: number | null;
  active: boolean;
  created_at: Date;
  updated_at: Date;
}

export type ShippingProfileValues = Pick<
  ShippingProfileRow,
  'name' | 'countries' | 'price' | 'free_over' | 'active'
>;

export async function insertShippingProfile(
  db: Queryable,
  organizationId: number,
  values: ShippingProfileValues,
): Promise<ShippingProfileRow> {
  const { rows } = await db.query<ShippingProfileRow>(
    `INSERT INTO shipping_profiles (organization_id, name, countries, price, free_over, active)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
    [organizationId, values.name, values.countries, values.price, values.free_over, values.active],
  );
  return rows[0] as ShippingProfileRow;
}

export function updateShippingProfile(
  db: Queryable,
  organizationId: number,
  id: number,
  values: Partial<ShippingProfileValues>,
  now: Date,
): Promise<ShippingProfileRow | null> {
  return updateRow<ShippingProfileRow>(db, 'shipping_profiles', organizationId, id, { ...values }, now);
}

export async function findShippingProfile(
  db: Queryable,
  organizationId: number,
  id: number,
): Promise<ShippingProfileRow | null> {
  const { rows } = await db.query<ShippingProfileRow>(
    'SELECT * FROM shipping_profiles WHERE organization_id = $1 AND id = $2',
    [organizationId, id],
  );
  return rows[0] ?? null;
}

export function listShippingProfiles(
  db: Queryable,
  organizationId: number,
  options: { limit?: number | undefined; startingAfter?: number | undefined },
): Promise<Page<ShippingProfileRow>> {
  return listPage<ShippingProfileRow>(db, 'shipping_profiles', organizationId, options);
}
