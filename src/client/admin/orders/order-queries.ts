// The Orders screens' server state: one key per thing the API answers about an order, so a refund refreshes them all.
import { EmailListSchema, EmailSchema } from '../../../contract/email.js';
import { OrderDetailSchema } from '../../../contract/merchant.js';
import { AuditEventListSchema } from '../../../contract/staff.js';
import { OrderWebhookDeliveryListSchema } from '../../../contract/webhooks.js';
import { request } from '../admin-api.js';

/** How many of an order's emails and deliveries its screen shows (an order has a handful). */
export const ABOUT_ORDER_LIMIT = 100;

export const orderKey = (id: number) => ['orders', 'detail', id] as const;
export const orderEmailsKey = (id: number) => ['orders', 'emails', id] as const;
export const orderDeliveriesKey = (id: number) => ['orders', 'deliveries', id] as const;

export const readOrder = (id: number) =>
  request(OrderDetailSchema, 'GET', `/checkout/api/merchant/orders/${id}`);

export const readOrderEmails = (id: number) =>
  request(EmailListSchema, 'GET', `/checkout/api/merchant/emails?order_id=${id}&limit=${ABOUT_ORDER_LIMIT}`);

export const readEmail = (id: number) => request(EmailSchema, 'GET', `/checkout/api/merchant/emails/${id}`);

export const readOrderDeliveries = (id: number) =>
  request(
    OrderWebhookDeliveryListSchema,
    'GET',
    `/checkout/api/merchant/webhook-deliveries?order_id=${id}&limit=${ABOUT_ORDER_LIMIT}`,
  );

/** The order's audit trail, as the AuditTrail reads it (the same key, so one request serves both). */
export const readOrderChanges = (id: number) =>
  request(
    AuditEventListSchema,
    'GET',
    `/checkout/api/merchant/audit-events?object_type=order&object_id=${encodeURIComponent(String(id))}`,
  );
