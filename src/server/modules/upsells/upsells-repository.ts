// The upsell steps shown after an order and the orders accepted ones made (docs/api.md, "Upsells").
import type { Queryable } from '../../platform/db/database.js';

export interface UpsellStepRow {
  id: number;
  organization_id: number;
  order_id: number;
  step: number;
  position: number;
  is_downsell: boolean;
  offer_id: number;
  status: 'offered' | 'accepted' | 'declined' | 'expired';
  offered_at: Date;
  expires_at: Date;
  decided_at: Date | null;
  linked_order_id: number | null;
  /** joined: the linked order's status, when there is one */
  linked_order_status?: 'pending' | 'declined' | 'awaiting_payment' | 'complete' | null;
}

/** The offers shown after an order, in the order shown; with lock, their rows are locked for the caller. */
export async function findUpsellSteps(
  db: Queryable,
  organizationId: number,
  orderId: number,
  options: { lock?: boolean } = {},
): Promise<UpsellStepRow[]> {
  const { rows } = await db.query<UpsellStepRow>(
    `SELECT s.*, o.status AS linked_order_status FROM order_upsell_steps s
       LEFT JOIN orders o ON o.organization_id = s.organization_id AND o.id = s.linked_order_id
      WHERE s.organization_id = $1 AND s.order_id = $2 ORDER BY s.step
     ${options.lock ? 'FOR UPDATE OF s' : ''}`,
    [organizationId, orderId],
  );
  return rows;
}

/**
 * Shows an offer after an order: its row, unless one with this step number is there already (a racing read showed
 * it first), in which case that one is answered.
 */
export async function insertUpsellStep(
  db: Queryable,
  organizationId: number,
  values: Pick<UpsellStepRow, 'order_id' | 'step' | 'position' | 'is_downsell' | 'offer_id' | 'expires_at'>,
  now: Date,
): Promise<UpsellStepRow> {
  const { rows } = await db.query<UpsellStepRow>(
    `INSERT INTO order_upsell_steps (organization_id, order_id, step, position, is_downsell, offer_id, status,
                                     offered_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'offered', $7, $8)
     ON CONFLICT (order_id, step) DO NOTHING
     RETURNING *`,
    [
      organizationId,
      values.order_id,
      values.step,
      values.position,
      values.is_downsell,
      values.offer_id,
      now,
      values.expires_at,
    ],
  );
  if (rows[0]) return rows[0];
  const { rows: existing } = await db.query<UpsellStepRow>(
    'SELECT * FROM order_upsell_steps WHERE organization_id = $1 AND order_id = $2 AND step = $3',
    [organizationId, values.order_id, values.step],
  );
  if (!existing[0]) throw new Error(`upsell step ${values.step} of order ${values.order_id} vanished`);
  return existing[0];
}

/** Ends an offered step as the shopper (or the clock) decided; only an offered step changes. */
export async function decideUpsellStep(
  db: Queryable,
  organizationId: number,
  id: number,
  status: 'accepted' | 'declined' | 'expired',
  now: Date,
): Promise<void> {
  await db.query(
    `UPDATE order_upsell_steps SET status = $3, decided_at = $4
      WHERE organization_id = $1 AND id = $2 AND status = 'offered'`,
    [organizationId, id, status, now],
  );
}

export async function linkUpsellOrder(
  db: Queryable,
  organizationId: number,
  id: number,
  linkedOrderId: number,
): Promise<void> {
  await db.query(
    'UPDATE order_upsell_steps SET linked_order_id = $3 WHERE organization_id = $1 AND id = $2',
    [organizationId, id, linkedOrderId],
  );
}

export async function setParentOrder(
  db: Queryable,
  organizationId: number,
  orderId: number,
  parentOrderId: number,
): Promise<void> {
  await db.query('UPDATE orders SET parent_order_id = $3 WHERE organization_id = $1 AND id = $2', [
    organizationId,
    orderId,
    parentOrderId,
  ]);
}

export interface LinkedOrderRow {
  id: number;
  status: 'pending' | 'declined' | 'awaiting_payment' | 'complete';
  total: number;
  currency: string;
  lines: { item_name: string; quantity: number; total: number }[];
}

/** The orders accepted upsells made after an order (complete ones only unless `all`), with their lines. */
export async function findLinkedOrders(
  db: Queryable,
  organizationId: number,
  parentOrderId: number,
  options: { all?: boolean } = {},
): Promise<LinkedOrderRow[]> {
  const { rows } = await db.query<LinkedOrderRow>(
    `SELECT o.id, o.status, o.total, o.currency,
            coalesce((SELECT json_agg(json_build_object('item_name', l.item_name, 'quantity', l.quantity,
                                                        'total', l.total) ORDER BY l.id)
                        FROM order_lines l WHERE l.organization_id = o.organization_id AND l.order_id = o.id),
                     '[]'::json) AS lines
       FROM orders o
      WHERE o.organization_id = $1 AND o.parent_order_id = $2 ${options.all ? '' : "AND o.status = 'complete'"}
      ORDER BY o.completed_at NULLS LAST, o.id`,
    [organizationId, parentOrderId],
  );
  return rows;
}

export interface StoredMethodRow {
  id: number;
  method: 'card' | 'paypal';
  gateway: string;
  gateway_token: string;
  gateway_customer: string | null;
  card_brand: string | null;
  card_type_id: number | null;
  card_last4: string | null;
  card_exp_month: number | null;
  card_exp_year: number | null;
}

/** The stored payment method an order was paid with, as the processor charges it again. */
export async function findOrderPaymentMethod(
  db: Queryable,
  organizationId: number,
  paymentMethodId: number,
): Promise<StoredMethodRow | null> {
  const { rows } = await db.query<StoredMethodRow>(
    `SELECT id, method, gateway, gateway_token, gateway_customer, card_brand, card_type_id, card_last4,
            card_exp_month, card_exp_year
       FROM payment_methods WHERE organization_id = $1 AND id = $2`,
    [organizationId, paymentMethodId],
  );
  return rows[0] ?? null;
}

/** The link's upsell steps of the cart an order was placed from. */
export async function findOrderLinkUpsells(
  db: Queryable,
  organizationId: number,
  cartId: number,
): Promise<{ offer_id: number; downsell_offer_id: number | null }[]> {
  const { rows } = await db.query<{ offer_id: number; downsell_offer_id: number | null }>(
    `SELECT u.offer_id, u.downsell_offer_id FROM carts c
       JOIN checkout_link_upsells u ON u.organization_id = c.organization_id AND u.checkout_link_id = c.checkout_link_id
      WHERE c.organization_id = $1 AND c.id = $2
      ORDER BY u.position`,
    [organizationId, cartId],
  );
  return rows;
}
