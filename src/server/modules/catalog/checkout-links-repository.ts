import type { Queryable } from '../../platform/db/database.js';
import { listPage, updateRow, type Page } from '../../platform/db/sql.js';

export interface CheckoutLinkLine {
  offer_id: number;
  quantity: number;
  is_gift: boolean;
  /** the line starts subscribed in the carts the link makes (subscribe and save) */
  subscribe: boolean;
}

export interface CheckoutLinkRow {
  id: number;
  organization_id: number;
  public_id: string;
  name: string;
  discount_code: string | null;
  active: boolean;
  expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
  offers: CheckoutLinkLine[];
  /** its order bumps, in the merchant's order (none: the organization's default) */
  bump_offer_ids: number[];
  /** the one-click offers after the purchase, in order (docs/api.md, "Upsells") */
  upsells: CheckoutLinkUpsell[];
}

export interface CheckoutLinkUpsell {
  offer_id: number;
  downsell_offer_id: number | null;
}

export type CheckoutLinkValues = Pick<CheckoutLinkRow, 'name' | 'discount_code' | 'active' | 'expires_at'>;

const SELECT = `SELECT l.*, coalesce((
    SELECT json_agg(json_build_object('offer_id', o.offer_id, 'quantity', o.quantity, 'is_gift', o.is_gift,
                                      'subscribe', o.subscribed)
                    ORDER BY o.position)
      FROM checkout_link_offers o
     WHERE o.organization_id = l.organization_id AND o.checkout_link_id = l.id), '[]'::json) AS offers,
  coalesce((SELECT json_agg(b.offer_id ORDER BY b.position) FROM checkout_link_bumps b
             WHERE b.organization_id = l.organization_id AND b.checkout_link_id = l.id), '[]'::json) AS bump_offer_ids,
  coalesce((
    SELECT json_agg(json_build_object('offer_id', u.offer_id, 'downsell_offer_id', u.downsell_offer_id)
                    ORDER BY u.position)
      FROM checkout_link_upsells u
     WHERE u.organization_id = l.organization_id AND u.checkout_link_id = l.id), '[]'::json) AS upsells
  FROM checkout_links l`;

/** Replaces a link's upsell steps with these, in this order. */
async function setUpsells(
  db: Queryable,
  organizationId: number,
  id: number,
  upsells: readonly CheckoutLinkUpsell[],
) {
  await db.query('DELETE FROM checkout_link_upsells WHERE organization_id = $1 AND checkout_link_id = $2', [
    organizationId,
    id,
  ]);
  if (upsells.length === 0) return;
  await db.query(
    `INSERT INTO checkout_link_upsells (organization_id, checkout_link_id, position, offer_id, downsell_offer_id)
     SELECT $1, $2, step.position, step.offer_id, step.downsell_offer_id
       FROM unnest($3::bigint[], $4::bigint[]) WITH ORDINALITY AS step(offer_id, downsell_offer_id, position)`,
    [organizationId, id, upsells.map((u) => u.offer_id), upsells.map((u) => u.downsell_offer_id)],
  );
}

async function setLines(
  db: Queryable,
  organizationId: number,
  id: number,
  lines: readonly CheckoutLinkLine[],
) {
  await db.query('DELETE FROM checkout_link_offers WHERE organization_id = $1 AND checkout_link_id = $2', [
    organizationId,
    id,
  ]);
  await db.query(
    `INSERT INTO checkout_link_offers (organization_id, checkout_link_id, position, offer_id, quantity, is_gift,
                                      subscribed)
     SELECT $1, $2, line.position, line.offer_id, line.quantity, line.is_gift, line.subscribed
       FROM unnest($3::bigint[], $4::int[], $5::boolean[], $6::boolean[])
            WITH ORDINALITY AS line(offer_id, quantity, is_gift, subscribed, position)`,
    [
      organizationId,
      id,
      lines.map((l) => l.offer_id),
      lines.map((l) => l.quantity),
      lines.map((l) => l.is_gift),
      lines.map((l) => l.subscribe),
    ],
  );
}

/** Replaces the link's order bumps with these offers, in this order. */
async function setBumps(db: Queryable, organizationId: number, id: number, offerIds: readonly number[]) {
  await db.query('DELETE FROM checkout_link_bumps WHERE organization_id = $1 AND checkout_link_id = $2', [
    organizationId,
    id,
  ]);
  if (offerIds.length === 0) return;
  await db.query(
    `INSERT INTO checkout_link_bumps (organization_id, checkout_link_id, position, offer_id)
     SELECT $1, $2, bump.position, bump.offer_id
       FROM unnest($3::bigint[]) WITH ORDINALITY AS bump(offer_id, position)`,
    [organizationId, id, offerIds],
  );
}

export async function insertCheckoutLink(
  db: Queryable,
  organizationId: number,
  publicId: string,
  values: CheckoutLinkValues,
  lines: readonly CheckoutLinkLine[],
  bumpOfferIds: readonly number[] = [],
  upsells: readonly CheckoutLinkUpsell[] = [],
): Promise<CheckoutLinkRow> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO checkout_links (organization_id, public_id, name, discount_code, active, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [organizationId, publicId, values.name, values.discount_code, values.active, values.expires_at],
  );
  const id = (rows[0] as { id: number }).id;
  await setLines(db, organizationId, id, lines);
  await setBumps(db, organizationId, id, bumpOfferIds);
  await setUpsells(db, organizationId, id, upsells);
  return (await findCheckoutLink(db, organizationId, id)) as CheckoutLinkRow;
}

export async function updateCheckoutLink(
  db: Queryable,
  organizationId: number,
  id: number,
  values: Partial<CheckoutLinkValues>,
  lines: readonly CheckoutLinkLine[] | undefined,
  now: Date,
  bumpOfferIds?: readonly number[],
  upsells?: readonly CheckoutLinkUpsell[],
): Promise<CheckoutLinkRow | null> {
  const updated = await updateRow<{ id: number }>(
    db,
    'checkout_links',
    organizationId,
    id,
    { ...values },
    now,
  );
  if (!updated) return null;
  if (lines !== undefined) await setLines(db, organizationId, id, lines);
  if (bumpOfferIds !== undefined) await setBumps(db, organizationId, id, bumpOfferIds);
  if (upsells !== undefined) await setUpsells(db, organizationId, id, upsells);
  return findCheckoutLink(db, organizationId, id);
}

export async function findCheckoutLink(
  db: Queryable,
  organizationId: number,
  id: number,
): Promise<CheckoutLinkRow | null> {
  const { rows } = await db.query<CheckoutLinkRow>(`${SELECT} WHERE l.organization_id = $1 AND l.id = $2`, [
    organizationId,
    id,
  ]);
  return rows[0] ?? null;
}

/** A link by the public id in a __c__ cart token; any organization (the token says which). */
export async function findCheckoutLinkByPublicId(
  db: Queryable,
  publicId: string,
): Promise<CheckoutLinkRow | null> {
  const { rows } = await db.query<CheckoutLinkRow>(`${SELECT} WHERE l.public_id = $1`, [publicId]);
  return rows[0] ?? null;
}

export async function listCheckoutLinks(
  db: Queryable,
  organizationId: number,
  options: { limit?: number | undefined; startingAfter?: number | undefined },
): Promise<Page<CheckoutLinkRow>> {
  const page = await listPage<{ id: number }>(db, 'checkout_links', organizationId, options);
  if (page.rows.length === 0) return { rows: [], hasMore: false };
  const { rows } = await db.query<CheckoutLinkRow>(
    `${SELECT} WHERE l.organization_id = $1 AND l.id = ANY($2::bigint[]) ORDER BY l.id DESC`,
    [organizationId, page.rows.map((row) => row.id)],
  );
  return { rows, hasMore: page.hasMore };
}

/** A link's upsell steps, in order (none for a link without, or no link). */
export async function findLinkUpsells(
  db: Queryable,
  organizationId: number,
  checkoutLinkId: number | null,
): Promise<CheckoutLinkUpsell[]> {
  if (checkoutLinkId === null) return [];
  const { rows } = await db.query<CheckoutLinkUpsell>(
    `SELECT offer_id, downsell_offer_id FROM checkout_link_upsells
      WHERE organization_id = $1 AND checkout_link_id = $2 ORDER BY position`,
    [organizationId, checkoutLinkId],
  );
  return rows;
}
