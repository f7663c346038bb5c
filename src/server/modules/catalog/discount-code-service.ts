import type { CreateDiscountCode, DiscountCode, UpdateDiscountCode } from '../../../contract/merchant.js';
import { PG_UNIQUE_VIOLATION, pgErrorCode, type Queryable } from '../../platform/db/database.js';
import { AppError, notFound, validationError } from '../../platform/errors.js';
import {
  findDiscountCode,
  insertDiscountCode,
  listDiscountCodes,
  updateDiscountCode,
  type DiscountCodeRow,
  type DiscountCodeValues,
} from './discount-codes-repository.js';
import { findOffers } from './offers-repository.js';
import type { OrganizationRow } from '../organizations/organizations-repository.js';
import { iso, major, majorOrNull, MoneyInput } from '../../platform/http/money-input.js';
import { stripUndefined } from './offer-service.js';

export function presentDiscountCode(row: DiscountCodeRow, currency: string): DiscountCode {
  return {
    id: row.id,
    code: row.code,
    kind: row.kind,
    percent_off: row.percent_off_bp === null ? null : row.percent_off_bp / 100,
    amount_off: majorOrNull(row.amount_off, currency),
    starts_at: iso(row.starts_at),
    ends_at: iso(row.ends_at),
    usage_limit: row.usage_limit,
    usage_count: row.usage_count,
    min_subtotal: major(row.min_subtotal, currency),
    offer_ids: row.offer_ids,
    active: row.active,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

function toValues(input: UpdateDiscountCode, currency: string) {
  const money = new MoneyInput(currency);
  const fields = money.fields;
  let percentOffBp: number | null | undefined;
  if (input.percent_off === null || input.percent_off === undefined) percentOffBp = input.percent_off;
  else {
    percentOffBp = Math.round(input.percent_off * 100);
    if (Math.abs(input.percent_off * 100 - percentOffBp) > 1e-6) {
      fields.percent_off = 'Use at most 2 decimal places, e.g. 12.5.';
    } else if (percentOffBp < 1) {
      // More than 0 but less than a hundredth (say 1e-9) rounds to nothing.
      fields.percent_off = 'Must be at least 0.01.';
    }
  }
  const values: Partial<DiscountCodeValues> = {
    code: input.code?.toUpperCase(),
    kind: input.kind,
    percent_off_bp: percentOffBp,
    amount_off: money.minor('amount_off', input.amount_off),
    starts_at:
      input.starts_at === undefined ? undefined : input.starts_at === null ? null : new Date(input.starts_at),
    ends_at:
      input.ends_at === undefined ? undefined : input.ends_at === null ? null : new Date(input.ends_at),
    usage_limit: input.usage_limit,
    min_subtotal: money.minor('min_subtotal', input.min_subtotal),
    active: input.active,
  };
  if (values.amount_off === 0) fields.amount_off = 'A fixed discount must be more than 0.';
  return { values, fields };
}

function checkShape(code: DiscountCodeValues, fields: Record<string, string>) {
  if (code.kind === 'percent') {
    if (code.percent_off_bp === null)
      fields.percent_off ??= 'A percent code needs percent_off (0.01 to 100).';
    if (code.amount_off !== null) fields.amount_off ??= 'A percent code has no amount_off; use kind "fixed".';
  } else {
    if (code.amount_off === null) fields.amount_off ??= 'A fixed code needs amount_off.';
    if (code.percent_off_bp !== null)
      fields.percent_off ??= 'A fixed code has no percent_off; use kind "percent".';
  }
  if (code.starts_at && code.ends_at && code.starts_at >= code.ends_at) {
    fields.ends_at ??= 'ends_at must be after starts_at.';
  }
}

async function checkOffers(
  db: Queryable,
  organizationId: number,
  offerIds: readonly number[] | undefined,
  fields: Record<string, string>,
) {
  if (!offerIds || offerIds.length === 0) return;
  const found = new Set((await findOffers(db, organizationId, offerIds)).map((offer) => offer.id));
  const missing = offerIds.filter((id) => !found.has(id));
  if (missing.length > 0) fields.offer_ids = `No offer with id ${missing.join(', ')} exists.`;
}

function duplicate(error: unknown, code: string | undefined): never {
  if (pgErrorCode(error) === PG_UNIQUE_VIOLATION) {
    throw new AppError(
      409,
      'discount_code_exists',
      `A discount code ${code ?? ''} already exists.`.replace('  ', ' '),
    );
  }
  throw error;
}

export async function createDiscountCode(
  db: Queryable,
  organization: OrganizationRow,
  input: CreateDiscountCode,
): Promise<DiscountCode> {
  const { values, fields } = toValues(input, organization.currency);
  const complete: DiscountCodeValues = {
    code: input.code.toUpperCase(),
    kind: input.kind,
    percent_off_bp: values.percent_off_bp ?? null,
    amount_off: values.amount_off ?? null,
    starts_at: values.starts_at ?? null,
    ends_at: values.ends_at ?? null,
    usage_limit: values.usage_limit ?? null,
    min_subtotal: values.min_subtotal ?? 0,
    active: values.active ?? true,
  };
  checkShape(complete, fields);
  await checkOffers(db, organization.id, input.offer_ids, fields);
  if (Object.keys(fields).length > 0) throw validationError(fields);
  try {
    const row = await insertDiscountCode(db, organization.id, complete, input.offer_ids ?? []);
    return presentDiscountCode(row, organization.currency);
  } catch (error) {
    duplicate(error, complete.code);
  }
}

export async function changeDiscountCode(
  db: Queryable,
  organization: OrganizationRow,
  id: number,
  patch: UpdateDiscountCode,
  now: Date,
): Promise<DiscountCode> {
  const existing = await findDiscountCode(db, organization.id, id);
  if (!existing) throw notFound('discount_code_not_found', `There is no discount code ${id}.`);
  const { values, fields } = toValues(patch, organization.currency);
  // Switching kind drops the other kind's amount unless the patch sets it.
  if (values.kind === 'percent') values.amount_off ??= null;
  if (values.kind === 'fixed') values.percent_off_bp ??= null;
  const merged = { ...existing, ...stripUndefined(values) } as DiscountCodeValues;
  checkShape(merged, fields);
  if (merged.usage_limit !== null && merged.usage_limit < existing.usage_count + existing.held_count) {
    fields.usage_limit =
      existing.held_count === 0
        ? `The code was already used ${existing.usage_count} times; the limit cannot be lower.`
        : `The code was already used ${existing.usage_count} times, and payments being made now hold ${existing.held_count} more uses; the limit cannot be lower than ${existing.usage_count + existing.held_count} now.`;
  }
  await checkOffers(db, organization.id, patch.offer_ids, fields);
  if (Object.keys(fields).length > 0) throw validationError(fields);
  try {
    const row = await updateDiscountCode(db, organization.id, id, values, patch.offer_ids, now);
    return presentDiscountCode(row ?? existing, organization.currency);
  } catch (error) {
    duplicate(error, values.code);
  }
}

export async function getDiscountCode(
  db: Queryable,
  organization: OrganizationRow,
  id: number,
): Promise<DiscountCode> {
  const row = await findDiscountCode(db, organization.id, id);
  if (!row) throw notFound('discount_code_not_found', `There is no discount code ${id}.`);
  return presentDiscountCode(row, organization.currency);
}

export async function listDiscountCodePage(
  db: Queryable,
  organization: OrganizationRow,
  options: { limit?: number | undefined; startingAfter?: number | undefined },
): Promise<{ data: DiscountCode[]; has_more: boolean }> {
  const page = await listDiscountCodes(db, organization.id, options);
  return {
    data: page.rows.map((row) => presentDiscountCode(row, organization.currency)),
    has_more: page.hasMore,
  };
}
