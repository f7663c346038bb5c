// What completing an order asks of the webhooks module: imports the platform only, so the orders module's one
// completing statement can use it without an import cycle (docs/webhooks.md, "Events").
import type { SqlParams } from '../../platform/db/sql-params.js';
import { insertJobsFromRows } from '../../platform/jobs/jobs-repository.js';
import { DEFAULT_RETRY_DELAYS_SECONDS } from '../../platform/jobs/retry-delays.js';

/** Sends an order's event to the endpoints that asked for it: one delivery per endpoint, each with its retries. */
export const ORDER_EVENT_JOB = 'webhook.order_event';

/**
 * The statement part that enqueues order.completed for each order in `completed` (a CTE of completed orders' rows)
 * whose organization has an active endpoint asking for it, in the statement that completes the order.
 */
export function enqueueOrderCompletedOf(p: SqlParams, completed: string, now: Date): string {
  const type = p.add('order.completed', 'text');
  return insertJobsFromRows(
    p,
    completed,
    {
      kind: ORDER_EVENT_JOB,
      key: `'order.completed:' || ${completed}.id`,
      organizationId: `${completed}.organization_id`,
      payload: `jsonb_build_object('order_id', ${completed}.id, 'type', ${type})`,
      where: `EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.organization_id = ${completed}.organization_id
                 AND e.active AND e.events @> jsonb_build_array(${type}))`,
      retryDelays: DEFAULT_RETRY_DELAYS_SECONDS,
    },
    now,
  );
}
