// The figures of the dashboard's home, counted by the database (docs/dashboard.md, "Home").
import type { Queryable } from '../../platform/db/database.js';

export interface SummaryRow {
  today_orders: number;
  today_sales: number;
  today_test: number;
  month_orders: number;
  month_sales: number;
  month_test: number;
  carts_opened: number;
  active: number;
  past_due: number;
}

export async function countSummary(
  db: Queryable,
  organizationId: number,
  since: { today: Date; month: Date },
): Promise<SummaryRow> {
  // One pass over the month's completed orders; today's are a part of them.
  const { rows } = await db.query<SummaryRow>(
    `WITH month AS (
       SELECT total, is_test, completed_at >= $2 AS today FROM orders
        WHERE organization_id = $1 AND status = 'complete' AND completed_at >= $3
     )
     SELECT count(*) FILTER (WHERE today AND NOT is_test)::int AS today_orders,
            coalesce(sum(total) FILTER (WHERE today AND NOT is_test), 0)::bigint AS today_sales,
            count(*) FILTER (WHERE today AND is_test)::int AS today_test,
            count(*) FILTER (WHERE NOT is_test)::int AS month_orders,
            coalesce(sum(total) FILTER (WHERE NOT is_test), 0)::bigint AS month_sales,
            count(*) FILTER (WHERE is_test)::int AS month_test,
            (SELECT count(*)::int FROM carts c
              WHERE c.organization_id = $1 AND NOT c.is_test AND c.created_at >= $3) AS carts_opened,
            (SELECT count(*)::int FROM subscriptions s
              WHERE s.organization_id = $1 AND s.status = 'active') AS active,
            (SELECT count(*)::int FROM subscriptions s
              WHERE s.organization_id = $1 AND s.status = 'past_due') AS past_due
       FROM month`,
    [organizationId, since.today, since.month],
  );
  return rows[0]!;
}
