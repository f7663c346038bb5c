import type { Queryable } from '../db/database.js';

export interface CartRow {
  id: number;
  organization_id: number;
  token: string;
  source: 'merchant' | 'link' | 'gift_claim' | 'demo';
  customer_id: number | null;
  discount_code_id: number | null;
  shipping_profile_id: number | null;
  checkout_link_id: number | null;
  gift_claim_id: number | null;
  preview: unknown;
  is_test: boolean;
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
    `INSERT INTO cart_offers (organization_id, cart_id, position, offer_id, quantity, is_gift, price_override)
     SELECT $1, $2, line.position, line.offer_id, line.quantity, line.is_gift, line.price_override
       FROM unnest($3::bigint[], $4::int[], $5::boolean[], $6::bigint[])
            WITH ORDINALITY AS line(offer_id, quantity, is_gift, price_override, position)`,
    [
      organizationId,
      row.id,
      lines.map((line) => line.offer_id),
      lines.map((line) => line.quantity),
      lines.map((line) => line.is_gift),
      lines.map((line) => line.price_override ?? null),
    ],
  );
  return row;
}

export async function findCartByToken(db: Queryable, token: string): Promise<CartRow | null> {
  const { rows } = await db.query<CartRow>('SELECT * FROM carts WHERE token = $1', [token]);
  return rows[0] ?? null;
}
