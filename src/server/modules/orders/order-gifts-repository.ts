// The gifts an order sends: their claim codes, and the gift a claim order claims.
import type { Queryable } from '../../platform/db/database.js';

export interface GiftRow {
  id: number;
  cart_offer_id: number;
  gift_name: string;
  gift_email: string;
  gift_date: string | null;
  gift_message: string;
  gift_phone: string;
  order_offer_notes: string;
  claim_code: string | null;
  claimed_at: Date | null;
}

/** Gift details of the order's lines (recipient, message, claim code). */
export async function findOrderGifts(
  db: Queryable,
  organizationId: number,
  orderId: number,
): Promise<GiftRow[]> {
  const { rows } = await db.query<GiftRow>(
    `SELECT g.id, g.cart_offer_id, g.gift_name, g.gift_email, to_char(g.gift_date, 'YYYY-MM-DD') AS gift_date, g.gift_message,
            g.gift_phone, g.order_offer_notes, g.claim_code, g.claimed_at
       FROM gift_details g
       JOIN order_lines l ON l.organization_id = g.organization_id AND l.cart_offer_id = g.cart_offer_id
      WHERE l.organization_id = $1 AND l.order_id = $2 AND l.is_gift
      ORDER BY g.cart_offer_id`,
    [organizationId, orderId],
  );
  return rows;
}

/** Issues a single-use claim code to each gift line of a completed order. */
export async function issueGiftClaimCodes(
  db: Queryable,
  organizationId: number,
  codes: readonly { cartOfferId: number; code: string }[],
  now: Date,
): Promise<void> {
  for (const { cartOfferId, code } of codes) {
    await db.query(
      `UPDATE gift_details SET claim_code = $3, claim_issued_at = $4, updated_at = $4
        WHERE organization_id = $1 AND cart_offer_id = $2 AND claim_code IS NULL`,
      [organizationId, cartOfferId, code, now],
    );
  }
}

/** Marks a gift claimed by an order; false when it already was. */
export async function markGiftClaimed(
  db: Queryable,
  organizationId: number,
  giftId: number,
  orderId: number,
  now: Date,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE gift_details SET claimed_at = $4, claim_order_id = $3, updated_at = $4
      WHERE organization_id = $1 AND id = $2 AND claimed_at IS NULL`,
    [organizationId, giftId, orderId, now],
  );
  return rowCount > 0;
}

export async function lockGift(
  db: Queryable,
  organizationId: number,
  giftId: number,
): Promise<{ claimed_at: Date | null } | null> {
  const { rows } = await db.query<{ claimed_at: Date | null }>(
    'SELECT claimed_at FROM gift_details WHERE organization_id = $1 AND id = $2 FOR UPDATE',
    [organizationId, giftId],
  );
  return rows[0] ?? null;
}
