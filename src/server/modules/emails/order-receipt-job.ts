// Sends an order's receipt (docs/emails.md): the job the completing transaction enqueued.
import type { Queryable } from '../../platform/db/database.js';
import type { JobHandler } from '../../platform/jobs/job-queue.js';
import { findOffers } from '../catalog/offers-repository.js';
import { findOrder, findOrderLines, type OrderLineRow } from '../orders/orders-repository.js';
import { findPaymentAttempts } from '../orders/payment-attempts-repository.js';
import { findOrganizationById } from '../organizations/organizations-repository.js';
import { settingsOf } from '../organizations/organization-service.js';
import { deliverEmail } from './email-delivery.js';
import { orderEmailSpeech } from './email-language.js';
import { findEmailByJobKey, insertEmailOnce, type EmailRow } from './emails-repository.js';
import type { Mailer } from './mailer.js';
import { receiptKey } from './receipt-enqueue.js';
import { renderOrderReceipt, type DigitalAccess, type ReceiptInput } from './receipt-template.js';

/** The address emails come from when MAIL_FROM is unset (docs/emails.md). */
export const DEFAULT_MAIL_FROM = 'no-reply@localhost';

/** The items of an order used online, with how to reach them (a gift's go to its recipient with the claim). */
async function digitalAccessOf(
  db: Queryable,
  organizationId: number,
  lines: readonly OrderLineRow[],
): Promise<DigitalAccess[]> {
  const own = lines.filter((line) => !line.is_gift);
  const offers = await findOffers(
    db,
    organizationId,
    own.map((line) => line.offer_id),
  );
  return own.flatMap((line) => {
    const access = offers.find((offer) => offer.id === line.offer_id)?.digital_access;
    return access ? [{ itemName: line.item_name, url: access.url, instructions: access.instructions }] : [];
  });
}

/** The receipt's record, written once: a retry finds the one its first attempt wrote. */
async function receiptEmail(
  db: Queryable,
  organizationId: number,
  orderId: number,
  mailFrom: string,
  now: Date,
): Promise<EmailRow> {
  const key = receiptKey(orderId);
  const known = await findEmailByJobKey(db, key);
  if (known) return known;
  const [organization, order, lines, attempts] = await Promise.all([
    findOrganizationById(db, organizationId),
    findOrder(db, organizationId, orderId),
    findOrderLines(db, organizationId, orderId),
    findPaymentAttempts(db, organizationId, orderId),
  ]);
  if (!organization || !order) throw new Error(`order ${orderId} of organization ${organizationId} is gone`);
  const paid = attempts.findLast((attempt) => attempt.status === 'approved') ?? null;
  const input: ReceiptInput = {
    store: { name: organization.name, logoUrl: settingsOf(organization).logoUrl },
    order: {
      id: order.id,
      currency: order.currency,
      isTest: order.is_test,
      subtotal: order.subtotal,
      discount: order.total_discount,
      discountCode: order.discount_code,
      shipping: order.total_offer_shipping + order.total_campaign_shipping,
      tax: order.total_tax,
      giftCards: order.total_gift_cards,
      total: order.total,
    },
    lines: lines.map((line) => ({
      name: line.item_name,
      quantity: line.quantity,
      amount: line.subtotal,
      isRecurring: line.is_recurring,
    })),
    access: await digitalAccessOf(db, organizationId, lines),
    shippingAddress: order.shipping_address,
    billingAddress: order.billing_address,
    payment: paid && { method: paid.method, brand: paid.card_brand, last4: paid.card_last4 },
  };
  // The cart's language, read when the row is written: a retry sends the row as written (docs/emails.md, "Languages").
  const rendered = renderOrderReceipt(input, await orderEmailSpeech(db, organizationId, orderId));
  return insertEmailOnce(
    db,
    {
      organization_id: organizationId,
      kind: 'order_receipt',
      job_key: key,
      order_id: orderId,
      to_address: order.email,
      from_address: mailFrom,
      subject: rendered.subject,
      body_html: rendered.html,
      body_text: rendered.text,
    },
    now,
  );
}

/**
 * The receipt job's handler. The email's status is read before sending, so a retry after a crash never sends a sent
 * receipt again; a refused send is recorded with its reason and thrown, and the job retries it with back-off.
 */
export function orderReceiptHandler(mailer: Mailer, options: { mailFrom: string | null }): JobHandler {
  const fromAddress = options.mailFrom ?? DEFAULT_MAIL_FROM;
  return async (job, { db, now }) => {
    const orderId = Number(job.payload.order_id);
    if (job.organizationId === null || !Number.isSafeInteger(orderId))
      throw new Error('A receipt job names its organization and order.');
    const email = await receiptEmail(db, job.organizationId, orderId, fromAddress, now);
    await deliverEmail(db, mailer, email, now);
  };
}
