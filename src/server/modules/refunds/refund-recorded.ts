import type { Queryable } from '../../platform/db/database.js';
import { iso, major } from '../../platform/http/money-input.js';
import { emitWebhookEvent } from '../webhooks/webhook-events.js';
import type { RefundRow } from './refunds-repository.js';

/**
 * Called inside the transaction that ends a refund (succeeded or failed), once per refund that ends: whatever must
 * follow a refund commits with it or not at all. A refund that succeeded is told to the merchant's systems as
 * order.refunded (docs/webhooks.md).
 */
export async function refundRecorded(tx: Queryable, refund: RefundRow): Promise<void> {
  if (refund.status !== 'succeeded') return;
  await emitWebhookEvent(
    tx,
    refund.organization_id,
    'order.refunded',
    {
      order_id: refund.order_id,
      refund: {
        id: refund.id,
        amount: major(refund.amount, refund.currency),
        currency: refund.currency,
        reason: refund.reason,
        gateway: refund.gateway,
        processor_reference: refund.processor_reference,
        created_at: iso(refund.created_at),
      },
    },
    refund.updated_at,
    { eventKey: `order.refunded:${refund.id}` },
  );
}
