import type { Queryable } from '../../platform/db/database.js';
import { listPage, updateRow, type Page } from '../../platform/db/sql.js';

export interface DiscountCodeRow {
  id: number;
  organization_id: number;
  code: string;
  kind: 'percent' | 'fixed';
  percent_off_bp: number | null;
  amount_off: number | null;
  starts_at: Date | null;
  ends_at: Date | null;
  usage_limit: number | null;
  /** uses taken by completed orders */
  usage_count: number;
  /** uses held by payments in flight (migration 0009) */
  held_count: number;
  min_subtotal: number;
  active: boolean;
  created_at: Date;
  updated_at: Date;
  /** offers the code is restricted to; empty = whole order */
  offer_ids: number[];
}

export type DiscountCodeValues = Omit<
  DiscountCodeRow,
  'id' | 'organization_id' | 'created_at' | 'updated_at' | 'usage_count' | 'held_count' | 'offer_ids'
>;

const SELECT = `SELECT d.*, coalesce(
    (SELECT array_agg(o.offer_id ORDER BY o.offer_id) FROM discount_code_offers o
      WHERE o.organization_id = d.organization_id AND o.discount_code_id = d.id), '{}'::bigint[]) AS offer_ids
  FROM discount_codes d`;

async function setRestriction(
  db: Queryable,
  organizationId: number,
  id: number,
  offerIds: readonly number[],
) {
  await db.query('DELETE FROM discount_code_offers WHERE organization_id = $1 AND discount_code_id = $2', [
    organizationId,
    id,
  ]);
  if (offerIds.length > 0) {
    await db.query(
      `INSERT INTO discount_code_offers (organization_id, discount_code_id, offer_id)
       SELECT $1, $2, unnest($3::bigint[])`,
      [organizationId, id, [...new Set(offerIds)]],
    );
  }
}

export async function insertDiscountCode(
  db: Queryable,
  organizationId: number,
  values: DiscountCodeValues,
  offerIds: readonly number[],
): Promise<DiscountCodeRow> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO discount_codes
       (organization_id, code, kind, percent_off_bp, amount_off, starts_at, ends_at, usage_limit, min_subtotal, active)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
    [
      organizationId,
      values.code,
      values.kind,
      values.percent_off_bp,
      values.amount_off,
      values.starts_at,
      values.ends_at,
      values.usage_limit,
      values.min_subtotal,
      values.active,
    ],
  );
  const id = (rows[0] as { id: number }).id;
  await setRestriction(db, organizationId, id, offerIds);
  return (await findDiscountCode(db, organizationId, id)) as DiscountCodeRow;
}

export async function updateDiscountCode(
  db: Queryable,
  organizationId: number,
  id: number,
  values: Partial<DiscountCodeValues>,
  offerIds: readonly number[] | undefined,
  now: Date,
): Promise<DiscountCodeRow | null> {
  const updated = await updateRow<DiscountCodeRow>(
    db,
    'discount_codes',
    organizationId,
    id,
    { ...values },
    now,
  );
  if (!updated) return null;
  if (offerIds !== undefined) await setRestriction(db, organizationId, id, offerIds);
  return findDiscountCode(db, organizationId, id);
}

export async function findDiscountCode(
  db: Queryable,
  organizationId: number,
  id: number,
): Promise<DiscountCodeRow | null> {
  const { rows } = await db.query<DiscountCodeRow>(`${SELECT} WHERE d.organization_id = $1 AND d.id = $2`, [
    organizationId,
    id,
  ]);
  return rows[0] ?? null;
}

/** Case-insensitive: codes are stored upper-case. */
export async function findDiscountCodeByCode(
  db: Queryable,
  organizationId: number,
  code: string,
): Promise<DiscountCodeRow | null> {
  const { rows } = await db.query<DiscountCodeRow>(`${SELECT} WHERE d.organization_id = $1 AND d.code = $2`, [
    organizationId,
    code.trim().toUpperCase(),
  ]);
  return rows[0] ?? null;
}

export async function listDiscountCodes(
  db: Queryable,
  organizationId: number,
  options: { limit?: number | undefined; startingAfter?: number | undefined },
): Promise<Page<DiscountCodeRow>> {
  const page = await listPage<{ id: number }>(db, 'discount_codes', organizationId, options);
  if (page.rows.length === 0) return { rows: [], hasMore: false };
  const { rows } = await db.query<DiscountCodeRow>(
    `${SELECT} WHERE d.organization_id = $1 AND d.id = ANY($2::bigint[]) ORDER BY d.id DESC`,
    [organizationId, page.rows.map((row) => row.id)],
  );
  return { rows, hasMore: page.hasMore };
}
