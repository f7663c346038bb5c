import type { Queryable } from '../../platform/db/database.js';
import { listPage, updateRow, type Page } from '../../platform/db/sql.js';

export interface TaxRateRow {
  id: number;
  organization_id: number;
  country: string;
  state: string | null;
  rate_ppm: number;
  name: string;
  created_at: Date;
  updated_at: Date;
}

export type TaxRateValues = Pick<TaxRateRow, 'country' | 'state' | 'rate_ppm' | 'name'>;

export async function insertTaxRate(
  db: Queryable,
  organizationId: number,
  values: TaxRateValues,
): Promise<TaxRateRow> {
  const { rows } = await db.query<TaxRateRow>(
    `INSERT INTO tax_rates (organization_id, country, state, rate_ppm, name) VALUES ($1, $2, $3, $4, $5) RETURNING *`,
    [organizationId, values.country, values.state, values.rate_ppm, values.name],
  );
  return rows[0] as TaxRateRow;
}

export function updateTaxRate(
  db: Queryable,
  organizationId: number,
  id: number,
  values: Partial<TaxRateValues>,
  now: Date,
): Promise<TaxRateRow | null> {
  return updateRow<TaxRateRow>(db, 'tax_rates', organizationId, id, { ...values }, now);
}

export async function findTaxRate(
  db: Queryable,
  organizationId: number,
  id: number,
): Promise<TaxRateRow | null> {
  const { rows } = await db.query<TaxRateRow>(
    'SELECT * FROM tax_rates WHERE organization_id = $1 AND id = $2',
    [organizationId, id],
  );
  return rows[0] ?? null;
}

export function listTaxRates(
  db: Queryable,
  organizationId: number,
  options: { limit?: number | undefined; startingAfter?: number | undefined },
): Promise<Page<TaxRateRow>> {
  return listPage<TaxRateRow>(db, 'tax_rates', organizationId, options);
}
