// What completing an order asks of the emails module: imports the platform only, so the orders module can use it
// without an import cycle.
import type { SqlParams } from '../../platform/db/sql-params.js';
import { insertJobsFromRows } from '../../platform/jobs/jobs-repository.js';
import { DEFAULT_RETRY_DELAYS_SECONDS } from '../../platform/jobs/retry-delays.js';

export const ORDER_RECEIPT_JOB = 'email.order_receipt';

/** The receipt job's key, and its email's: one receipt per order, however often its completion is retried. */
export function receiptKey(orderId: number): string {
  return `receipt:${orderId}`;
}

/**
 * The statement part that enqueues the receipt of each order in `completed` (a CTE of completed orders' rows) that
 * has an email, in the statement that completes it (docs/emails.md). The key is receiptKey's.
 */
export function enqueueReceiptsOf(p: SqlParams, completed: string, now: Date): string {
  return insertJobsFromRows(
    p,
    completed,
    {
      kind: ORDER_RECEIPT_JOB,
      key: `'receipt:' || ${completed}.id`,
      organizationId: `${completed}.organization_id`,
      payload: `jsonb_build_object('order_id', ${completed}.id)`,
      where: `btrim(${completed}.email) <> ''`,
      retryDelays: DEFAULT_RETRY_DELAYS_SECONDS,
    },
    now,
  );
}
