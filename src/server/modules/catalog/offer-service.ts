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
import { buildBillingPlan, describeBillingPlan } from '../../../domain/billing-plan.js';
import { minor } from '../../../domain/money.js';
import { buildPrepaidPlan } from '../../../domain/prepaid-plan.js';
import { wordsFor } from '../../i18n/translator.js';
import { checkOptionTranslations } from './option-translations.js';

/**
 * The offer's cycles in words at its unit prices (before tax and shipping), for the merchant (in English, as the
 * merchant's API speaks); null when one-off.
 */
export function offerPlanDescription(
  row: Pick<
    OfferRow,
    | 'is_recurring'
    | 'billing_interval_days'
    | 'price'
    | 'next_price'
    | 'trial_days'
    | 'discounted_cycles'
    | 'discounted_price'
    | 'total_cycles'
    | 'prepaid_cycles'
    | 'prepaid_renewal'
  >,
  currency: string,
): string | null {
  if (!row.is_recurring || row.billing_interval_days === null) return null;
  const regular = minor(row.next_price ?? row.price);
  if (row.prepaid_cycles !== null && row.prepaid_renewal !== null) {
    const terms = {
      cycles: row.prepaid_cycles,
      renewal: row.prepaid_renewal,
      intervalDays: row.billing_interval_days,
    };
    return describeBillingPlan(
      buildPrepaidPlan(terms, { first: minor(row.price), renewal: regular }),
      currency,
      wordsFor('en'),
    );
  }
  const plan = buildBillingPlan(
    {
      intervalDays: row.billing_interval_days,
      trialDays: row.trial_days,
      discountedCycles: row.discounted_price === null ? null : row.discounted_cycles,
      totalCycles: row.total_cycles,
    },
    { first: minor(row.price), discounted: minor(row.discounted_price ?? regular), regular },
  );
  return describeBillingPlan(plan, currency, wordsFor('en'));
}

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
    trial_days: row.trial_days,
    discounted_cycles: row.discounted_cycles,
    discounted_price: majorOrNull(row.discounted_price, currency),
    total_cycles: row.total_cycles,
    prepaid_cycles: row.prepaid_cycles,
    prepaid_renewal: row.prepaid_renewal,
    billing_plan_description: offerPlanDescription(row, currency),
    is_giftable: row.is_giftable,
    is_taxable: row.is_taxable,
    requires_shipping: row.requires_shipping,
    shipping_price: major(row.shipping_price, currency),
    digital_access: row.digital_access,
    subscribe_and_save:
      row.subscribe_interval_days === null || row.subscribe_percent_off === null
        ? null
        : { interval_days: row.subscribe_interval_days, percent_off: row.subscribe_percent_off },
    bump_text: row.bump_text,
    translations: row.translations,
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
    trial_days: input.trial_days,
    discounted_cycles: input.discounted_cycles,
    discounted_price: money.minor('discounted_price', input.discounted_price),
    total_cycles: input.total_cycles,
    prepaid_cycles: input.prepaid_cycles,
    // No longer prepaid, it has no renewal either.
    prepaid_renewal: input.prepaid_renewal ?? (input.prepaid_cycles === null ? null : undefined),
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
    subscribe_interval_days:
      input.subscribe_and_save === undefined ? undefined : (input.subscribe_and_save?.interval_days ?? null),
    subscribe_percent_off:
      input.subscribe_and_save === undefined ? undefined : (input.subscribe_and_save?.percent_off ?? null),
    bump_text: input.bump_text,
    translations: input.translations,
    active: input.active,
  };
  return { values, fields: money.fields };
}

/**
 * A recurring offer bills every N days; a one-off offer has no interval, no later-cycle price and no cycles, and only
 * it may offer subscribe and save (a recurring offer already bills every interval).
 */
function checkRecurringShape(
  offer: Pick<OfferValues, (typeof RECURRING_ONLY)[number] | 'is_recurring' | 'subscribe_interval_days'>,
) {
  const fields: Record<string, string> = {};
  if (offer.is_recurring && offer.subscribe_interval_days !== null) {
    fields.subscribe_and_save =
      'Only one-off offers can offer subscribe and save: a recurring offer already bills every interval. ' +
      'Set subscribe_and_save to null or is_recurring to false.';
  }
  if (offer.is_recurring && offer.billing_interval_days === null) {
    fields.billing_interval_days = 'A recurring offer needs a billing interval in days.';
  }
  if (!offer.is_recurring) {
    for (const field of RECURRING_ONLY) {
      if (offer[field] !== null) fields[field] = `${RECURRING_ONLY_WORDS[field]} Set is_recurring to true.`;
    }
    return fields;
  }
  return { ...fields, ...checkCycles(offer) };
}

const RECURRING_ONLY = [
  'billing_interval_days',
  'next_price',
  'trial_days',
  'discounted_cycles',
  'discounted_price',
  'total_cycles',
  'prepaid_cycles',
  'prepaid_renewal',
] as const satisfies readonly (keyof OfferValues)[];

const RECURRING_ONLY_WORDS: Record<(typeof RECURRING_ONLY)[number], string> = {
  billing_interval_days: 'Only recurring offers have a billing interval.',
  next_price: 'Only recurring offers have a later-cycle price.',
  trial_days: 'Only recurring offers have a trial.',
  discounted_cycles: 'Only recurring offers have discounted cycles.',
  discounted_price: 'Only recurring offers have discounted cycles.',
  total_cycles: 'Only recurring offers have a number of cycles.',
  prepaid_cycles: 'Only recurring offers can be prepaid.',
  prepaid_renewal: 'Only recurring offers can be prepaid.',
};

/**
 * A recurring offer's prices by cycle (docs/subscriptions.md): a discounted price comes with its number of cycles,
 * and the total leaves room for the first cycle and every discounted one.
 */
export function checkCycles(
  offer: Pick<
    OfferValues,
    | 'discounted_cycles'
    | 'discounted_price'
    | 'total_cycles'
    | 'trial_days'
    | 'prepaid_cycles'
    | 'prepaid_renewal'
  >,
): Record<string, string> {
  const fields: Record<string, string> = { ...checkPrepaid(offer) };
  if (offer.discounted_cycles !== null && offer.discounted_price === null) {
    fields.discounted_price = 'Give the price of the discounted cycles, or remove discounted_cycles.';
  }
  if (offer.discounted_price !== null && offer.discounted_cycles === null) {
    fields.discounted_cycles =
      'Say how many cycles after the first are charged the discounted price, or remove discounted_price.';
  }
  if (
    offer.total_cycles !== null &&
    offer.discounted_cycles !== null &&
    offer.discounted_cycles > offer.total_cycles - 1
  ) {
    fields.total_cycles =
      `${offer.total_cycles} cycles in all leave room for at most ${offer.total_cycles - 1} discounted ` +
      `cycles after the first: raise total_cycles or lower discounted_cycles.`;
  }
  return fields;
}

/**
 * A prepaid plan (docs/subscriptions.md, "Prepaid plans") is its own shape of cycles: one payment for the period,
 * renewed whole or ended. It does not combine with a trial, discounted cycles or a total number of cycles (renewal
 * `end` says when it ends).
 */
export function checkPrepaid(
  offer: Pick<
    OfferValues,
    | 'discounted_cycles'
    | 'discounted_price'
    | 'total_cycles'
    | 'trial_days'
    | 'prepaid_cycles'
    | 'prepaid_renewal'
  >,
): Record<string, string> {
  const fields: Record<string, string> = {};
  if (offer.prepaid_cycles === null) {
    if (offer.prepaid_renewal !== null) {
      fields.prepaid_cycles = 'Say how many cycles one payment covers, or set prepaid_renewal to null.';
    }
    return fields;
  }
  const alone = 'A prepaid plan cannot also have';
  if (offer.trial_days !== null) fields.trial_days = `${alone} a trial: set trial_days to null.`;
  if (offer.discounted_cycles !== null || offer.discounted_price !== null) {
    fields.discounted_cycles = `${alone} discounted cycles: set discounted_cycles and discounted_price to null.`;
  }
  if (offer.total_cycles !== null) {
    fields.total_cycles =
      `${alone} a total number of cycles: set total_cycles to null and prepaid_renewal to "end" to stop ` +
      'after one prepaid period.';
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
    trial_days: values.trial_days ?? null,
    discounted_cycles: values.discounted_cycles ?? null,
    discounted_price: values.discounted_price ?? null,
    total_cycles: values.total_cycles ?? null,
    prepaid_cycles: values.prepaid_cycles ?? null,
    // A prepaid offer renews unless told otherwise (docs/subscriptions.md, "Prepaid plans").
    prepaid_renewal: values.prepaid_renewal ?? ((values.prepaid_cycles ?? null) === null ? null : 'renew'),
    is_giftable: values.is_giftable ?? false,
    is_taxable: values.is_taxable ?? true,
    requires_shipping: values.requires_shipping ?? true,
    shipping_price: values.shipping_price ?? 0,
    digital_access: values.digital_access ?? null,
    subscribe_interval_days: values.subscribe_interval_days ?? null,
    subscribe_percent_off: values.subscribe_percent_off ?? null,
    bump_text: values.bump_text ?? null,
    translations: values.translations ?? {},
    active: values.active ?? true,
  };
  Object.assign(fields, checkRecurringShape(complete), checkOptionTranslations(complete));
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
    for (const field of RECURRING_ONLY) values[field] ??= null;
  }
  const merged = { ...existing, ...stripUndefined(values) };
  if (merged.prepaid_cycles !== null && merged.prepaid_renewal === null) values.prepaid_renewal = 'renew';
  Object.assign(
    fields,
    checkRecurringShape({ ...merged, prepaid_renewal: values.prepaid_renewal ?? merged.prepaid_renewal }),
    checkOptionTranslations(merged),
  );
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
