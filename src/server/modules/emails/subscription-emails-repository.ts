// The SQL of the subscription emails (docs/emails.md, "Subscription emails"): the subscription as its emails tell
// it, and the reminder scan.
import type { Queryable } from '../../platform/db/database.js';
import { DEFAULT_RETRY_DELAYS_SECONDS } from '../../platform/jobs/retry-delays.js';

/** A subscription as its emails tell it: its state now, what was subscribed to, and where its emails go. */
export interface SubscriptionEmailRow {
  id: number;
  organization_id: number;
  order_id: number;
  status: 'active' | 'paused' | 'past_due' | 'cancelled';
  quantity: number;
  cycle_amount: number;
  currency: string;
  interval_days: number;
  next_charge_at: Date;
  retry_count: number;
  is_test: boolean;
  item_name: string;
  /** the email of the order that started it ('' when it had none) */
  order_email: string;
}

export async function findSubscriptionForEmail(
  db: Queryable,
  organizationId: number,
  subscriptionId: number,
): Promise<SubscriptionEmailRow | null> {
  const { rows } = await db.query<SubscriptionEmailRow>(
    `SELECT s.id, s.organization_id, s.order_id, s.status, s.quantity, s.cycle_amount, s.currency, s.interval_days,
            s.next_charge_at, s.retry_count, s.is_test, l.item_name, o.email AS order_email
       FROM subscriptions s
       JOIN orders o ON o.organization_id = s.organization_id AND o.id = s.order_id
       JOIN order_lines l ON l.organization_id = s.organization_id AND l.id = s.order_line_id
      WHERE s.organization_id = $1 AND s.id = $2`,
    [organizationId, subscriptionId],
  );
  return rows[0] ?? null;
}

/** The organizations with an active subscription, and their stored settings (parsed by the caller). */
export async function findOrganizationsWithActiveSubscriptions(
  db: Queryable,
): Promise<{ id: number; settings: unknown }[]> {
  const { rows } = await db.query<{ id: number; settings: unknown }>(
    `SELECT o.id, o.settings FROM organizations o
      WHERE EXISTS (SELECT 1 FROM subscriptions s WHERE s.organization_id = o.id AND s.status = 'active')
      ORDER BY o.id`,
  );
  return rows;
}

/**
 * Enqueues, in one statement, the reminder of every active subscription of these organizations whose next charge
 * falls within its organization's `days` from now, keyed by (subscription, next charge date): a key already present
 * adds nothing, so each charge date is reminded once however often this runs. The same rule as isChargeReminderDue
 * (subscription-email-rules.ts). Answers how many were enqueued.
 */
export async function enqueueDueChargeReminders(
  db: Queryable,
  input: {
    kind: string;
    keyPrefix: string;
    organizations: readonly { id: number; days: number }[];
    now: Date;
  },
): Promise<number> {
  if (input.organizations.length === 0) return 0;
  const { rowCount } = await db.query(
    `INSERT INTO jobs (organization_id, kind, key, payload, run_at, retry_delays, created_at, updated_at)
     SELECT s.organization_id, $1::text,
            $2::text || s.id || ':' || floor(extract(epoch FROM s.next_charge_at) * 1000)::bigint,
            jsonb_build_object(
              'subscription_id', s.id,
              'occurrence', floor(extract(epoch FROM s.next_charge_at) * 1000)::bigint::text,
              'next_charge_at', to_char(s.next_charge_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
              'cycle_amount', s.cycle_amount),
            $5::timestamptz, $6::jsonb, $5::timestamptz, $5::timestamptz
       FROM unnest($3::bigint[], $4::int[]) AS r(organization_id, days)
       JOIN subscriptions s ON s.organization_id = r.organization_id
      WHERE s.status = 'active' AND s.retry_count = 0 AND s.interval_days > r.days
        -- A prepaid plan's next date inside a paid period is a $0 fulfilment, not a charge (docs/subscriptions.md).
        AND (s.prepaid_shipped_cycle IS NULL
             OR s.prepaid_shipped_cycle % (s.billing_plan -> 'prepaid' ->> 'cycles')::int = 0)
        AND s.next_charge_at > $5::timestamptz AND s.next_charge_at <= $5::timestamptz + r.days * interval '24 hours'
     ON CONFLICT (key) DO NOTHING`,
    [
      input.kind,
      input.keyPrefix,
      input.organizations.map((organization) => organization.id),
      input.organizations.map((organization) => organization.days),
      input.now,
      JSON.stringify(DEFAULT_RETRY_DELAYS_SECONDS),
    ],
  );
  return rowCount;
}
