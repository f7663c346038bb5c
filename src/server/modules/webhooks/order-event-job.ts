// The order event job (docs/webhooks.md, "Events"): the order as it is when the job runs, one delivery per endpoint
// that asked for the event.
import type { JobHandler } from '../../platform/jobs/job-queue.js';
import { findOrder, findOrderLines } from '../orders/orders-repository.js';
import { orderEventData } from '../orders/order-events.js';
import { emitWebhookEvent } from './webhook-events.js';

export const orderEventHandler: JobHandler = async (job, { db, now }) => {
  const orderId = Number(job.payload.order_id);
  const organizationId = job.organizationId;
  if (organizationId === null) throw new Error(`order event job ${job.id} has no organization`);
  await db.transaction(async (tx) => {
    const order = await findOrder(tx, organizationId, orderId);
    if (!order) throw new Error(`order ${orderId} is not there`);
    const lines = await findOrderLines(tx, organizationId, orderId);
    // Keyed by the event and the order: a retry of this job makes no endpoint's delivery twice.
    await emitWebhookEvent(tx, organizationId, 'order.completed', orderEventData(order, lines), now, {
      eventKey: `order.completed:${orderId}`,
    });
  });
};
