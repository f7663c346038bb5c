import type { Language } from '../../../i18n/languages.js';
import type { GiftValues } from '../../../domain/gift-validation.js';
import type { Queryable } from '../../platform/db/database.js';
import type { OfferRow } from '../catalog/offers-repository.js';

export interface CartRow {
  id: number;
  organization_id: number;
  token: string;
  source: 'merchant' | 'link' | 'gift_claim' | 'demo' | 'upsell' | 'prepaid_fulfilment';
  customer_id: number | null;
  discount_code_id: number | null;
  shipping_profile_id: number | null;
  checkout_link_id: number | null;
  gift_claim_id: number | null;
  preview: unknown;
  is_test: boolean;
  /** the language the shopper chose (docs/languages.md); null: the browser's, then the store's default */
  language: Language | null;
  expires_at: Date | null;
  ordered_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface CartLineValues {
  offer_id: number;
  quantity: number;
  is_gift: boolean;
  price_override?: number | null;
  /** subscribe and save chosen for it (the offer allows it) */
  subscribed?: boolean;
}

export interface NewCart {
  token: string;
  source: CartRow['source'];
  customerId?: number | null;
  discountCodeId?: number | null;
  checkoutLinkId?: number | null;
  giftClaimId?: number | null;
  isTest?: boolean;
  expiresAt?: Date | null;
  now: Date;
}

export async function insertCart(
  db: Queryable,
  organizationId: number,
  cart: NewCart,
  lines: readonly CartLineValues[],
): Promise<CartRow> {
  const { rows } = await db.query<CartRow>(
    `INSERT INTO carts (organization_id, token, source, customer_id, discount_code_id, checkout_link_id, gift_claim_id,
                        is_test, expires_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10) RETURNING *`,
    [
      organizationId,
      cart.token,
      cart.source,
      cart.customerId ?? null,
      cart.discountCodeId ?? null,
      cart.checkoutLinkId ?? null,
      cart.giftClaimId ?? null,
      cart.isTest ?? false,
      cart.expiresAt ?? null,
      cart.now,
    ],
  );
  const row = rows[0] as CartRow;
  await db.query(
    `INSERT INTO cart_offers (organization_id, cart_id, position, offer_id, quantity, is_gift, price_override,
                              subscribed, created_at, updated_at)
     SELECT $1, $2, line.position, line.offer_id, line.quantity, line.is_gift, line.price_override, line.subscribed,
            $7, $7
       FROM unnest($3::bigint[], $4::int[], $5::boolean[], $6::bigint[], $8::boolean[])
            WITH ORDINALITY AS line(offer_id, quantity, is_gift, price_override, subscribed, position)`,
    [
      organizationId,
      row.id,
      lines.map((line) => line.offer_id),
      lines.map((line) => line.quantity),
      lines.map((line) => line.is_gift),
      lines.map((line) => line.price_override ?? null),
      // The cart's own time, so its lines' changes compare with the same clock (the housekeeping reads them).
      cart.now,
      lines.map((line) => line.subscribed ?? false),
    ],
  );
  return row;
}

/** A cart line with its offer and gift details, as pricing and the page need it. */
export type CartLineRow = Omit<
  OfferRow,
  'id' | 'organization_id' | 'active' | 'created_at' | 'updated_at'
> & {
  id: number;
  offer_id: number;
  position: number;
  quantity: number;
  is_gift: boolean;
  /** the line came from an order-bump box (docs/checkout-rules.md, "Order bumps") */
  is_bump: boolean;
  price_override: number | null;
  /** the shopper chose to subscribe (subscribe and save); the snapshot then prices it as recurring (pricedAsChosen) */
  subscribed: boolean;
  /** the unit price this line costs bought once (price_override or the offer's price), whatever was chosen */
  once_unit_price: number;
  gift_name: string | null;
  gift_email: string | null;
  gift_date: string | null;
  gift_message: string | null;
  gift_phone: string | null;
  order_offer_notes: string | null;
};

export async function setCartDiscountCode(
  db: Queryable,
  organizationId: number,
  cartId: number,
  discountCodeId: number | null,
  now: Date,
): Promise<void> {
  await db.query(
    'UPDATE carts SET discount_code_id = $3, updated_at = $4 WHERE organization_id = $1 AND id = $2',
    [organizationId, cartId, discountCodeId, now],
  );
}

export async function setCartLanguage(
  db: Queryable,
  organizationId: number,
  cartId: number,
  language: Language,
  now: Date,
): Promise<void> {
  await db.query('UPDATE carts SET language = $3, updated_at = $4 WHERE organization_id = $1 AND id = $2', [
    organizationId,
    cartId,
    language,
    now,
  ]);
}

export async function setCartPreview(
  db: Queryable,
  organizationId: number,
  cartId: number,
  preview: unknown,
  shippingProfileId: number | null,
  now: Date,
): Promise<void> {
  await db.query(
    `UPDATE carts SET preview = $3::jsonb, shipping_profile_id = $4, updated_at = $5
      WHERE organization_id = $1 AND id = $2`,
    [organizationId, cartId, preview === null ? null : JSON.stringify(preview), shippingProfileId, now],
  );
}

export async function setLineQuantity(
  db: Queryable,
  organizationId: number,
  cartId: number,
  lineId: number,
  quantity: number,
  now: Date,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE cart_offers SET quantity = $4, updated_at = $5
      WHERE organization_id = $1 AND cart_id = $2 AND id = $3 AND removed_at IS NULL`,
    [organizationId, cartId, lineId, quantity, now],
  );
  return rowCount > 0;
}

/** Sets whether the shopper subscribes to a line; false when it is not a line of the cart. */
export async function setLineSubscribed(
  db: Queryable,
  organizationId: number,
  cartId: number,
  lineId: number,
  subscribed: boolean,
  now: Date,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE cart_offers SET subscribed = $4, updated_at = $5
      WHERE organization_id = $1 AND cart_id = $2 AND id = $3 AND removed_at IS NULL`,
    [organizationId, cartId, lineId, subscribed, now],
  );
  return rowCount > 0;
}

/** Marks a line removed (kept for Undo); false when it is not a line of the cart. */
export async function removeLine(
  db: Queryable,
  organizationId: number,
  cartId: number,
  lineId: number,
  now: Date,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE cart_offers SET removed_at = $4, updated_at = $4
      WHERE organization_id = $1 AND cart_id = $2 AND id = $3 AND removed_at IS NULL`,
    [organizationId, cartId, lineId, now],
  );
  return rowCount > 0;
}

/** Brings a removed line back with a quantity; false when the cart has no such removed line. */
export async function restoreLine(
  db: Queryable,
  organizationId: number,
  cartId: number,
  lineId: number,
  quantity: number,
  now: Date,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE cart_offers SET removed_at = NULL, quantity = $4, updated_at = $5
      WHERE organization_id = $1 AND cart_id = $2 AND id = $3 AND removed_at IS NOT NULL`,
    [organizationId, cartId, lineId, quantity, now],
  );
  return rowCount > 0;
}

/** The cart's bump line for an offer, removed (unticked) or not; null when the box was never ticked. */
export async function findBumpLine(
  db: Queryable,
  organizationId: number,
  cartId: number,
  offerId: number,
): Promise<{ id: number; removed: boolean } | null> {
  const { rows } = await db.query<{ id: number; removed: boolean }>(
    `SELECT id, removed_at IS NOT NULL AS removed FROM cart_offers
      WHERE organization_id = $1 AND cart_id = $2 AND offer_id = $3 AND is_bump`,
    [organizationId, cartId, offerId],
  );
  return rows[0] ?? null;
}

/**
 * Adds a ticked bump as the cart's last line (quantity 1). The unique index on bump lines (migration 0024) makes a
 * second insert for the same offer add nothing.
 */
export async function insertBumpLine(
  db: Queryable,
  organizationId: number,
  cartId: number,
  offerId: number,
  now: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO cart_offers (organization_id, cart_id, position, offer_id, quantity, is_gift, is_bump,
                              created_at, updated_at)
     SELECT $1, $2, coalesce(max(position), 0) + 1, $3, 1, false, true, $4, $4
       FROM cart_offers WHERE organization_id = $1 AND cart_id = $2
     ON CONFLICT (organization_id, cart_id, offer_id) WHERE is_bump DO NOTHING`,
    [organizationId, cartId, offerId, now],
  );
}

// The upsert names the constraint keyed by organization (migration 0005). gift_details still has the older
// UNIQUE (cart_offer_id), which instances before this one name: a later migration can drop it once none of them runs.
export async function upsertGiftDetails(
  db: Queryable,
  organizationId: number,
  cartOfferId: number,
  values: GiftValues,
  now: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO gift_details (organization_id, cart_offer_id, gift_name, gift_email, gift_date, gift_message, gift_phone,
                               order_offer_notes, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5::date, $6, $7, $8, $9, $9)
     ON CONFLICT (organization_id, cart_offer_id) DO UPDATE SET
       gift_name = excluded.gift_name, gift_email = excluded.gift_email, gift_date = excluded.gift_date,
       gift_message = excluded.gift_message, gift_phone = excluded.gift_phone,
       order_offer_notes = excluded.order_offer_notes, updated_at = excluded.updated_at`,
    [
      organizationId,
      cartOfferId,
      values.gift_name,
      values.gift_email,
      values.gift_date,
      values.gift_message,
      values.gift_phone,
      values.order_offer_notes,
      now,
    ],
  );
}

export interface GiftClaimRow {
  id: number;
  cart_offer_id: number;
  offer_id: number;
  quantity: number;
  claimed_at: Date | null;
  /** the giver's order was completed (a claim code exists only then) */
  claim_issued_at: Date | null;
}

export async function findGiftByClaimCode(
  db: Queryable,
  organizationId: number,
  claimCode: string,
): Promise<GiftClaimRow | null> {
  const { rows } = await db.query<GiftClaimRow>(
    `SELECT g.id, g.cart_offer_id, co.offer_id, co.quantity, g.claimed_at, g.claim_issued_at
       FROM gift_details g
       JOIN cart_offers co ON co.organization_id = g.organization_id AND co.id = g.cart_offer_id
      WHERE g.organization_id = $1 AND g.claim_code = $2`,
    [organizationId, claimCode],
  );
  return rows[0] ?? null;
}

/** The claim cart already opened for a gift and not yet ordered, so reopening the link does not make another. */
export async function findOpenClaimCart(
  db: Queryable,
  organizationId: number,
  giftId: number,
): Promise<CartRow | null> {
  const { rows } = await db.query<CartRow>(
    `SELECT c.* FROM carts c
      WHERE c.organization_id = $1 AND c.gift_claim_id = $2
        AND NOT EXISTS (SELECT 1 FROM orders o
                        WHERE o.organization_id = c.organization_id AND o.cart_id = c.id AND o.status = 'complete')
      ORDER BY c.id DESC LIMIT 1`,
    [organizationId, giftId],
  );
  return rows[0] ?? null;
}

/**
 * Removes the carts checkout links made that nobody used: nothing changed in them or their lines since `before`, and
 * they hold no customer, no address (a stored preview), no gift details, no order, payment attempt or express payment.
 * Carts another transaction holds locked (an order being placed) are skipped. Answers how many were removed.
 */
export async function deleteUntouchedLinkCarts(db: Queryable, before: Date): Promise<number> {
  const { rows } = await db.query<{ removed: number }>(
    `WITH untouched AS (
       SELECT c.id FROM carts c
        WHERE c.source = 'link' AND c.updated_at < $1
          AND c.customer_id IS NULL AND c.preview IS NULL AND c.ordered_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.organization_id = c.organization_id AND o.cart_id = c.id)
          AND NOT EXISTS (SELECT 1 FROM payment_attempts p
                           WHERE p.organization_id = c.organization_id AND p.cart_id = c.id)
          AND NOT EXISTS (SELECT 1 FROM express_payments e
                           WHERE e.organization_id = c.organization_id AND e.cart_id = c.id)
          AND NOT EXISTS (SELECT 1 FROM cart_offers l
                           WHERE l.organization_id = c.organization_id AND l.cart_id = c.id
                             AND (l.updated_at >= $1
                                  OR EXISTS (SELECT 1 FROM gift_details g
                                              WHERE g.organization_id = l.organization_id AND g.cart_offer_id = l.id)))
        FOR UPDATE OF c SKIP LOCKED
     ), removed AS (
       DELETE FROM carts WHERE id IN (SELECT id FROM untouched) RETURNING 1
     )
     SELECT count(*)::int AS removed FROM removed`,
    [before],
  );
  return rows[0]?.removed ?? 0;
}
