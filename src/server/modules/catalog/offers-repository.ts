import type { OfferTranslations } from '../../../contract/catalogue.js';
import type { Queryable } from '../../platform/db/database.js';
import { listPage, updateRow, type Page } from '../../platform/db/sql.js';
import { SqlParams } from '../../platform/db/sql-params.js';

export interface OfferRow {
  id: number;
  organization_id: number;
  offer_name: string;
  offer_title: string;
  item_id: string;
  item_name: string;
  item_image: string | null;
  item_category: string;
  item_options: { name: string; value: string }[];
  override_initial_item_id: string | null;
  override_initial_item_name: string | null;
  price: number;
  is_recurring: boolean;
  billing_interval_days: number | null;
  next_price: number | null;
  /** prices by cycle (docs/subscriptions.md): the first cycle's length when it differs from the interval */
  trial_days: number | null;
  /** cycles after the first charged discounted_price */
  discounted_cycles: number | null;
  discounted_price: number | null;
  /** cycles in all, after which the subscription ends; null = until cancelled */
  total_cycles: number | null;
  /** prepaid plans (docs/subscriptions.md, "Prepaid plans"): cycles one payment covers, and what follows them */
  prepaid_cycles: number | null;
  prepaid_renewal: 'renew' | 'end' | null;
  is_giftable: boolean;
  is_taxable: boolean;
  requires_shipping: boolean;
  shipping_price: number;
  digital_access: { url: string; instructions: string } | null;
  /** subscribe and save (one-off offers only): both set or both null */
  subscribe_interval_days: number | null;
  subscribe_percent_off: number | null;
  /** the one line of its order-bump box (null: its title, then its name) */
  bump_text: string | null;
  /** the shopper-facing text in other languages (docs/api.md, "Translations") */
  translations: OfferTranslations;
  active: boolean;
  created_at: Date;
  updated_at: Date;
}

export type OfferValues = Omit<OfferRow, 'id' | 'organization_id' | 'created_at' | 'updated_at'>;

const COLUMNS = [
  'offer_name',
  'offer_title',
  'item_id',
  'item_name',
  'item_image',
  'item_category',
  'item_options',
  'override_initial_item_id',
  'override_initial_item_name',
  'price',
  'is_recurring',
  'billing_interval_days',
  'next_price',
  'trial_days',
  'discounted_cycles',
  'discounted_price',
  'total_cycles',
  'prepaid_cycles',
  'prepaid_renewal',
  'is_giftable',
  'is_taxable',
  'requires_shipping',
  'shipping_price',
  'digital_access',
  'subscribe_interval_days',
  'subscribe_percent_off',
  'bump_text',
  'translations',
  'active',
] as const satisfies readonly (keyof OfferValues)[];

function columnValues(values: Partial<OfferValues>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const column of COLUMNS) {
    if (values[column] === undefined) continue;
    const value = values[column];
    out[column] =
      column === 'item_options' || column === 'digital_access' || column === 'translations'
        ? JSON.stringify(value)
        : value;
  }
  return out;
}

export async function insertOffer(
  db: Queryable,
  organizationId: number,
  values: OfferValues,
): Promise<OfferRow> {
  const columns = columnValues(values);
  const params = new SqlParams([organizationId]);
  const { rows } = await db.query<OfferRow>(
    `INSERT INTO offers (organization_id, ${Object.keys(columns).join(', ')})
     VALUES ($1, ${params.list(Object.values(columns))}) RETURNING *`,
    params.values,
  );
  return rows[0] as OfferRow;
}

export function updateOffer(
  db: Queryable,
  organizationId: number,
  id: number,
  values: Partial<OfferValues>,
  now: Date,
): Promise<OfferRow | null> {
  return updateRow<OfferRow>(db, 'offers', organizationId, id, columnValues(values), now);
}

export async function findOffer(db: Queryable, organizationId: number, id: number): Promise<OfferRow | null> {
  const { rows } = await db.query<OfferRow>('SELECT * FROM offers WHERE organization_id = $1 AND id = $2', [
    organizationId,
    id,
  ]);
  return rows[0] ?? null;
}

export async function findOffers(
  db: Queryable,
  organizationId: number,
  ids: readonly number[],
): Promise<OfferRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<OfferRow>(
    'SELECT * FROM offers WHERE organization_id = $1 AND id = ANY($2::bigint[])',
    [organizationId, [...new Set(ids)]],
  );
  return rows;
}

export function listOffers(
  db: Queryable,
  organizationId: number,
  options: { limit?: number | undefined; startingAfter?: number | undefined },
): Promise<Page<OfferRow>> {
  return listPage<OfferRow>(db, 'offers', organizationId, options);
}
