import type { Queryable } from '../../platform/db/database.js';

/**
 * The name of what each renewal brings: the offer's item (the order line may name a starter kit the first cycle
 * brought instead).
 */
export async function findSubscribedItemName(
  db: Queryable,
  organizationId: number,
  subscriptionId: number,
): Promise<string | null> {
  const { rows } = await db.query<{ item_name: string }>(
    `SELECT o.item_name FROM subscriptions s
       JOIN offers o ON o.organization_id = s.organization_id AND o.id = s.offer_id
      WHERE s.organization_id = $1 AND s.id = $2`,
    [organizationId, subscriptionId],
  );
  return rows[0]?.item_name ?? null;
}

/** The subscription's stored card at the processor: its reusable token and customer (Stripe cus_…). */
export async function findSubscriptionCard(
  db: Queryable,
  organizationId: number,
  subscriptionId: number,
): Promise<{ gateway_token: string; gateway_customer: string | null } | null> {
  const { rows } = await db.query<{ gateway_token: string; gateway_customer: string | null }>(
    `SELECT pm.gateway_token, pm.gateway_customer FROM subscriptions s
       JOIN payment_methods pm ON pm.organization_id = s.organization_id AND pm.id = s.payment_method_id
      WHERE s.organization_id = $1 AND s.id = $2`,
    [organizationId, subscriptionId],
  );
  return rows[0] ?? null;
}

/** The order line a subscription came from, as subscribe and save marked it (percent null: it was not). */
export interface SubscribedLineTerms {
  subscribe_and_save_percent: number | null;
  subscribe_and_save_once_price: number | null;
}

export async function findSubscribedLineTerms(
  db: Queryable,
  organizationId: number,
  subscriptionId: number,
): Promise<SubscribedLineTerms | null> {
  const { rows } = await db.query<SubscribedLineTerms>(
    `SELECT l.subscribe_and_save_percent, l.subscribe_and_save_once_price
       FROM subscriptions s
       JOIN order_lines l ON l.organization_id = s.organization_id AND l.id = s.order_line_id
      WHERE s.organization_id = $1 AND s.id = $2`,
    [organizationId, subscriptionId],
  );
  return rows[0] ?? null;
}
