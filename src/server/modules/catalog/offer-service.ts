import type { CreateOffer, Offer, UpdateOffer } from '../../../contract/merchant.js';
import type { Queryable } from '../../platform/db/database.js';
import { notFound, validationError } from '../../platform/errors.js';
import {
  findOffer,
  insertOffer,
  listOffers,
  updateOffer,
  type OfferRow,
  type OfferValues,
} from './offers-repository.js';
import type { OrganizationRow } from '../organizations/organizations-repository.js';
import { iso, major, majorOrNull, MoneyInput } from '../../platform/http/money-input.js';

export function presentOffer(row: OfferRow, currency: string): Offer {
  return {
    id: row.id,
    offer_name: row.offer_name,
    offer_title: row.offer_title,
    item_id: row.item_id,
    item_name: row.item_name,
    item_image: row.item_image,
    item_category: row.item_category,
    item_options: row.item_options,
    override_initial_item_id: row.override_initial_item_id,
    override_initial_item_name: row.override_initial_item_name,
    price: major(row.price, currency),
    is_recurring: row.is_recurring,
    billing_interval_days: row.billing_interval_days,
    next_price: majorOrNull(row.next_price, currency),
    is_giftable: row.is_giftable,
    is_taxable: row.is_taxable,
    requires_shipping: row.requires_shipping,
    shipping_price: major(row.shipping_price, currency),
    digital_access: row.digital_access,
    bump_text: row.bump_text,
    active: row.active,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** Wire fields → column values (minor units), with every problem named at once. */
function toValues(
  input: UpdateOffer,
  currency: string,
): { values: Partial<OfferValues>; fields: Record<string, string> } {
  const money = new MoneyInput(currency);
  const values: Partial<OfferValues> = {
    offer_name: input.offer_name,
    offer_title: input.offer_title,
    item_id: input.item_id,
    item_name: input.item_name,
    item_image: input.item_image,
    item_category: input.item_category,
    item_options: input.item_options,
    override_initial_item_id: input.override_initial_item_id,
    override_initial_item_name: input.override_initial_item_name,
    price: money.minor('price', input.price),
    is_recurring: input.is_recurring,
    billing_interval_days: input.billing_interval_days,
    next_price: money.minor('next_price', input.next_price),
    is_giftable: input.is_giftable,
    is_taxable: input.is_taxable,
    requires_shipping: input.requires_shipping,
    shipping_price: money.minor('shipping_price', input.shipping_price),
    digital_access:
      input.digital_access === undefined
        ? undefined
        : input.digital_access && {
            url: input.digital_access.url,
            instructions: input.digital_access.instructions ?? '',
          },
    bump_text: input.bump_text,
    active: input.active,
  };
  return { values, fields: money.fields };
}

/** A recurring offer bills every N days; a one-off offer has no interval and no later-cycle price. */
function checkRecurringShape(
  offer: Pick<OfferValues, 'is_recurring' | 'billing_interval_days' | 'next_price'>,
) {
  const fields: Record<string, string> = {};
  if (offer.is_recurring && offer.billing_interval_days === null) {
    fields.billing_interval_days = 'A recurring offer needs a billing interval in days.';
  }
  if (!offer.is_recurring) {
    if (offer.billing_interval_days !== null) {
      fields.billing_interval_days =
        'Only recurring offers have a billing interval. Set is_recurring to true.';
    }
    if (offer.next_price !== null) {
      fields.next_price = 'Only recurring offers have a later-cycle price. Set is_recurring to true.';
    }
  }
  return fields;
}

export async function createOffer(
  db: Queryable,
  organization: OrganizationRow,
  input: CreateOffer,
): Promise<Offer> {
  const { values, fields } = toValues(input, organization.currency);
  const complete: OfferValues = {
    offer_name: input.offer_name,
    offer_title: values.offer_title ?? '',
    item_id: values.item_id ?? '',
    item_name: input.item_name,
    item_image: values.item_image ?? null,
    item_category: values.item_category ?? '',
    item_options: values.item_options ?? [],
    override_initial_item_id: values.override_initial_item_id ?? null,
    override_initial_item_name: values.override_initial_item_name ?? null,
    price: values.price ?? 0,
    is_recurring: values.is_recurring ?? false,
    billing_interval_days: values.billing_interval_days ?? null,
    next_price: values.next_price ?? null,
    is_giftable: values.is_giftable ?? false,
    is_taxable: values.is_taxable ?? true,
    requires_shipping: values.requires_shipping ?? true,
    shipping_price: values.shipping_price ?? 0,
    digital_access: values.digital_access ?? null,
    bump_text: values.bump_text ?? null,
    active: values.active ?? true,
  };
  Object.assign(fields, checkRecurringShape(complete));
  if (Object.keys(fields).length > 0) throw validationError(fields);
  return presentOffer(await insertOffer(db, organization.id, complete), organization.currency);
}

export async function changeOffer(
  db: Queryable,
  organization: OrganizationRow,
  id: number,
  patch: UpdateOffer,
  now: Date,
): Promise<Offer> {
  const existing = await requireOffer(db, organization.id, id);
  const { values, fields } = toValues(patch, organization.currency);
  // Turning recurring off clears the recurring-only fields unless the patch sets them.
  if (values.is_recurring === false) {
    values.billing_interval_days ??= null;
    values.next_price ??= null;
  }
  Object.assign(fields, checkRecurringShape({ ...existing, ...stripUndefined(values) }));
  if (Object.keys(fields).length > 0) throw validationError(fields);
  const updated = await updateOffer(db, organization.id, id, values, now);
  return presentOffer(updated ?? existing, organization.currency);
}

export async function requireOffer(db: Queryable, organizationId: number, id: number): Promise<OfferRow> {
  const offer = await findOffer(db, organizationId, id);
  if (!offer) throw notFound('offer_not_found', `There is no offer ${id}.`);
  return offer;
}

export async function getOffer(db: Queryable, organization: OrganizationRow, id: number): Promise<Offer> {
  return presentOffer(await requireOffer(db, organization.id, id), organization.currency);
}

export async function listOfferPage(
  db: Queryable,
  organization: OrganizationRow,
  options: { limit?: number | undefined; startingAfter?: number | undefined },
): Promise<{ data: Offer[]; has_more: boolean }> {
  const page = await listOffers(db, organization.id, options);
  return { data: page.rows.map((row) => presentOffer(row, organization.currency)), has_more: page.hasMore };
}

export function stripUndefined<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
