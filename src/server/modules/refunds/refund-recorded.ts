import type { Queryable } from '../../platform/db/database.js';
import type { RefundRow } from './refunds-repository.js';

/**
 * Called inside the transaction that ends a refund (succeeded or failed), once per refund that ends: whatever must
 * follow a refund commits with it or not at all.
 */
export async function refundRecorded(tx: Queryable, refund: RefundRow): Promise<void> {
  // Emails and webhooks hook in here (docs/api.md, "Refunds"): enqueue them on `tx` so they are sent only for a
  // refund that is recorded.
  void tx;
  void refund;
}
