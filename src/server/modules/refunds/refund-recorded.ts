import type { Queryable } from '../../platform/db/database.js';
import { iso, major } from '../../platform/http/money-input.js';
import { enqueueRefundConfirmation } from '../emails/refund-enqueue.js';
import { findPaymentAttempts } from '../orders/payment-attempts-repository.js';
import { findReportedRefundTotal } from '../payment-webhooks/payment-events-repository.js';
import { emitWebhookEvent } from '../webhooks/webhook-events.js';
import { amountRefunded, paidPayment } from './refund-decisions.js';
import { findRefunds, type RefundRow } from './refunds-repository.js';

/**
 * Called inside the transaction that ends a refund (succeeded or failed), once per refund that ends: whatever must
 * follow a refund commits with it or not at all. A refund that succeeded is told to the merchant's systems as
 * order.refunded (docs/webhooks.md), and confirmed to the shopper by email (docs/emails.md).
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
  await enqueueRefundConfirmation(tx, refund, await paidAndRefunded(tx, refund), refund.updated_at);
}

/** The order's payment and all refunded of it, this refund included, as the ending transaction sees them. */
async function paidAndRefunded(
  tx: Queryable,
  refund: RefundRow,
): Promise<{ paid: number; refunded: number }> {
  const { organization_id: organizationId, order_id: orderId } = refund;
  const [attempts, refunds] = await Promise.all([
    findPaymentAttempts(tx, organizationId, orderId),
    findRefunds(tx, organizationId, orderId),
  ]);
  const payment = paidPayment(attempts);
  const reported =
    payment === null ? 0 : await findReportedRefundTotal(tx, organizationId, orderId, payment.reference);
  const paid = payment?.amount ?? refund.amount;
  return { paid, refunded: Math.min(paid, amountRefunded(refunds, reported)) };
}
