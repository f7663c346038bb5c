import type { CreateTaxRate, TaxRate, UpdateTaxRate } from '../../../contract/merchant.js';
import { isSubdivisionOf, subdivisionsOf } from '../../../domain/address/address-data.js';
import { PG_UNIQUE_VIOLATION, pgErrorCode, type Queryable } from '../../platform/db/database.js';
import { AppError, notFound, validationError } from '../../platform/errors.js';
import type { OrganizationRow } from '../organizations/organizations-repository.js';
import {
  findTaxRate,
  insertTaxRate,
  listTaxRates,
  updateTaxRate,
  type TaxRateRow,
} from './tax-rates-repository.js';
import { iso } from '../../platform/http/money-input.js';

const PPM_PER_PERCENT = 10_000;

export function presentTaxRate(row: TaxRateRow): TaxRate {
  return {
    id: row.id,
    country: row.country,
    state: row.state,
    rate: row.rate_ppm / PPM_PER_PERCENT,
    name: row.name,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

function toPpm(rate: number, fields: Record<string, string>): number {
  const ppm = Math.round(rate * PPM_PER_PERCENT);
  if (Math.abs(rate * PPM_PER_PERCENT - ppm) > 1e-6)
    fields.rate = 'Use at most 4 decimal places, e.g. 8.875.';
  return ppm;
}

function checkPlace(country: string, state: string | null, fields: Record<string, string>) {
  const listed = subdivisionsOf(country).length > 0;
  if (state !== null && listed && !isSubdivisionOf(country, state)) {
    fields.state = `${state} is not a state of ${country}.`;
  }
  if (state !== null && !listed) {
    fields.state = `${country} addresses have no state; leave state empty for a country-wide rate.`;
  }
}

function duplicate(error: unknown): never {
  if (pgErrorCode(error) === PG_UNIQUE_VIOLATION) {
    throw new AppError(
      409,
      'tax_rate_exists',
      'A tax rate for this country and state already exists; update it instead.',
    );
  }
  throw error;
}

export async function createTaxRate(
  db: Queryable,
  organization: OrganizationRow,
  input: CreateTaxRate,
): Promise<TaxRate> {
  const fields: Record<string, string> = {};
  const ratePpm = toPpm(input.rate, fields);
  const state = input.state ?? null;
  checkPlace(input.country, state, fields);
  if (Object.keys(fields).length > 0) throw validationError(fields);
  try {
    const row = await insertTaxRate(db, organization.id, {
      country: input.country,
      state,
      rate_ppm: ratePpm,
      name: input.name ?? '',
    });
    return presentTaxRate(row);
  } catch (error) {
    duplicate(error);
  }
}

export async function changeTaxRate(
  db: Queryable,
  organization: OrganizationRow,
  id: number,
  patch: UpdateTaxRate,
  now: Date,
): Promise<TaxRate> {
  const existing = await findTaxRate(db, organization.id, id);
  if (!existing) throw notFound('tax_rate_not_found', `There is no tax rate ${id}.`);
  const fields: Record<string, string> = {};
  const ratePpm = patch.rate === undefined ? undefined : toPpm(patch.rate, fields);
  checkPlace(
    patch.country ?? existing.country,
    patch.state === undefined ? existing.state : patch.state,
    fields,
  );
  if (Object.keys(fields).length > 0) throw validationError(fields);
  try {
    const row = await updateTaxRate(
      db,
      organization.id,
      id,
      { country: patch.country, state: patch.state, rate_ppm: ratePpm, name: patch.name },
      now,
    );
    return presentTaxRate(row ?? existing);
  } catch (error) {
    duplicate(error);
  }
}

export async function getTaxRate(db: Queryable, organization: OrganizationRow, id: number): Promise<TaxRate> {
  const row = await findTaxRate(db, organization.id, id);
  if (!row) throw notFound('tax_rate_not_found', `There is no tax rate ${id}.`);
  return presentTaxRate(row);
}

export async function listTaxRatePage(
  db: Queryable,
  organization: OrganizationRow,
  options: { limit?: number | undefined; startingAfter?: number | undefined },
): Promise<{ data: TaxRate[]; has_more: boolean }> {
  const page = await listTaxRates(db, organization.id, options);
  return { data: page.rows.map(presentTaxRate), has_more: page.hasMore };
}
