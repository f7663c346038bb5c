import type {
  CreateShippingProfile,
  ShippingProfile,
  UpdateShippingProfile,
} from '../../../contract/merchant.js';
import type { Queryable } from '../../platform/db/database.js';
import { notFound, validationError } from '../../platform/errors.js';
import type { OrganizationRow } from '../organizations/organizations-repository.js';
import {
  findShippingProfile,
  insertShippingProfile,
  listShippingProfiles,
  updateShippingProfile,
  type ShippingProfileRow,
} from './shipping-profiles-repository.js';
import { iso, major, majorOrNull, MoneyInput } from '../../platform/http/money-input.js';

export function presentShippingProfile(row: ShippingProfileRow, currency: string): ShippingProfile {
  return {
    id: row.id,
    name: row.name,
    countries: row.countries,
    price: major(row.price, currency),
    free_over: majorOrNull(row.free_over, currency),
    active: row.active,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export async function createShippingProfile(
  db: Queryable,
  organization: OrganizationRow,
  input: CreateShippingProfile,
): Promise<ShippingProfile> {
  const money = new MoneyInput(organization.currency);
  const price = money.minor('price', input.price);
  const freeOver = money.minor('free_over', input.free_over ?? null);
  if (Object.keys(money.fields).length > 0) throw validationError(money.fields);
  const row = await insertShippingProfile(db, organization.id, {
    name: input.name,
    countries: [...new Set(input.countries)],
    price,
    free_over: freeOver,
    active: input.active ?? true,
  });
  return presentShippingProfile(row, organization.currency);
}

export async function changeShippingProfile(
  db: Queryable,
  organization: OrganizationRow,
  id: number,
  patch: UpdateShippingProfile,
  now: Date,
): Promise<ShippingProfile> {
  const money = new MoneyInput(organization.currency);
  const values = {
    name: patch.name,
    countries: patch.countries === undefined ? undefined : [...new Set(patch.countries)],
    price: money.minor('price', patch.price),
    free_over: money.minor('free_over', patch.free_over),
    active: patch.active,
  };
  if (Object.keys(money.fields).length > 0) throw validationError(money.fields);
  const row = await updateShippingProfile(db, organization.id, id, values, now);
  if (!row) throw notFound('shipping_profile_not_found', `There is no shipping profile ${id}.`);
  return presentShippingProfile(row, organization.currency);
}

export async function getShippingProfile(
  db: Queryable,
  organization: OrganizationRow,
  id: number,
): Promise<ShippingProfile> {
  const row = await findShippingProfile(db, organization.id, id);
  if (!row) throw notFound('shipping_profile_not_found', `There is no shipping profile ${id}.`);
  return presentShippingProfile(row, organization.currency);
}

export async function listShippingProfilePage(
  db: Queryable,
  organization: OrganizationRow,
  options: { limit?: number | undefined; startingAfter?: number | undefined },
): Promise<{ data: ShippingProfile[]; has_more: boolean }> {
  const page = await listShippingProfiles(db, organization.id, options);
  return {
    data: page.rows.map((row) => presentShippingProfile(row, organization.currency)),
    has_more: page.hasMore,
  };
}
