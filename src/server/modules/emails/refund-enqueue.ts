// What ending a refund asks of the emails module (docs/emails.md): imports the platform only.
import type { Queryable } from '../../platform/db/database.js';
import { enqueueJob } from '../../platform/jobs/job-queue.js';

export const REFUND_CONFIRMATION_JOB = 'email.refund_confirmation';

/** The confirmation's job key, and its email's: one per refund. */
export function refundConfirmationKey(refundId: number): string {
  return `refund:${refundId}`;
}

/**
 * Enqueues the shopper's confirmation of a refund that succeeded, in the transaction that ends it. `paid` and
 * `refunded` (minor units, this refund included) are the order's as that transaction sees them, so the email says
 * what was left right after this refund, however late it is sent.
 */
export async function enqueueRefundConfirmation(
  tx: Queryable,
  refund: { id: number; organization_id: number; order_id: number },
  amounts: { paid: number; refunded: number },
  now: Date,
): Promise<void> {
  await enqueueJob(
    tx,
    {
      kind: REFUND_CONFIRMATION_JOB,
      key: refundConfirmationKey(refund.id),
      payload: { refund_id: refund.id, order_id: refund.order_id, ...amounts },
      organizationId: refund.organization_id,
    },
    now,
  );
}
