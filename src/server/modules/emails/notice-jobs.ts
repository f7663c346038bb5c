// The gift notice, the giver's note and the refund confirmation (docs/emails.md): each job writes its email's record
// once under its key, then sends it unless it was sent already (email-delivery.ts).
import type { Queryable } from '../../platform/db/database.js';
import type { Job, JobHandler } from '../../platform/jobs/job-queue.js';
import { presentGiftFrom } from '../carts/gift-from.js';
import { giftClaimUrl } from '../merchant/merchant-read-service.js';
import { findOrder } from '../orders/orders-repository.js';
import { findOrganizationById } from '../organizations/organizations-repository.js';
import { settingsOf } from '../organizations/organization-service.js';
import { findRefund } from '../refunds/refunds-repository.js';
import { deliverEmail } from './email-delivery.js';
import { orderEmailSpeech } from './email-language.js';
import {
  findEmailByJobKey,
  findGiftForEmail,
  insertEmailOnce,
  type EmailRow,
  type GiftEmailRow,
} from './emails-repository.js';
import { giftClaimedKey, giftNoticeKey } from './gift-enqueue.js';
import type { Mailer } from './mailer.js';
import {
  renderGiftClaimed,
  renderGiftNotice,
  renderRefundConfirmation,
  type EmailStore,
} from './notice-templates.js';
import { DEFAULT_MAIL_FROM } from './order-receipt-job.js';
import type { RenderedEmail } from './receipt-template.js';
import type { SubscriberLinks } from '../subscriber/subscriber-link.js';
import { refundConfirmationKey } from './refund-enqueue.js';

export interface NoticeOptions {
  mailFrom: string | null;
  /** the checkout's public address, the claim link's start (PUBLIC_URL) */
  publicUrl: string;
  /** a subscription's self-service link, for the emails about a subscription */
  subscriberLinks: SubscriberLinks;
}

/** What an email job renders: null when there is nothing to send (the job then ends with no email). */
type Composed = { orderId: number | null; to: string; rendered: RenderedEmail } | null;

/** A job's email, recorded once under its key: a retry finds the one its first attempt wrote. */
async function recordedEmail(
  db: Queryable,
  organizationId: number,
  key: string,
  kind: string,
  from: string,
  compose: (store: EmailStore) => Promise<Composed>,
  now: Date,
): Promise<EmailRow | null> {
  const known = await findEmailByJobKey(db, key);
  if (known) return known;
  const organization = await findOrganizationById(db, organizationId);
  if (!organization) throw new Error(`organization ${organizationId} is gone`);
  const composed = await compose({ name: organization.name, logoUrl: settingsOf(organization).logoUrl });
  if (composed === null) return null;
  return insertEmailOnce(
    db,
    {
      organization_id: organizationId,
      kind,
      job_key: key,
      order_id: composed.orderId,
      to_address: composed.to,
      from_address: from,
      subject: composed.rendered.subject,
      body_html: composed.rendered.html,
      body_text: composed.rendered.text,
    },
    now,
  );
}

export function idOf(value: unknown, what: string): number {
  const id = Number(value);
  if (!Number.isSafeInteger(id)) throw new Error(`An email job names its ${what}.`);
  return id;
}

function organizationOf(job: { organizationId: number | null }): number {
  if (job.organizationId === null) throw new Error('An email job names its organization.');
  return job.organizationId;
}

async function giftOf(db: Queryable, organizationId: number, giftId: number): Promise<GiftEmailRow> {
  const gift = await findGiftForEmail(db, organizationId, giftId);
  if (!gift) throw new Error(`gift ${giftId} of organization ${organizationId} is gone`);
  return gift;
}

/**
 * A notice job: its email recorded once under the job's key (composed from the job's payload), then sent unless it
 * was sent already. The notices (and the subscription emails) differ only in their kind, key and what they say.
 */
export function noticeHandler(
  mailer: Mailer,
  options: NoticeOptions,
  notice: {
    kind: string;
    keyOf: (job: Job) => string;
    compose: (
      db: Queryable,
      organizationId: number,
      job: Job,
      store: EmailStore,
      now: Date,
    ) => Promise<Composed>;
  },
): JobHandler {
  const from = options.mailFrom ?? DEFAULT_MAIL_FROM;
  return async (job, { db, now }) => {
    const organizationId = organizationOf(job);
    const email = await recordedEmail(
      db,
      organizationId,
      notice.keyOf(job),
      notice.kind,
      from,
      (store) => notice.compose(db, organizationId, job, store, now),
      now,
    );
    if (email) await deliverEmail(db, mailer, email, now);
  };
}

/**
 * The recipient's notice, on the gift's date. A gift claimed already by then (its link was passed on another way)
 * gets none: its link would only say it was claimed.
 */
export function giftNoticeHandler(mailer: Mailer, options: NoticeOptions): JobHandler {
  return noticeHandler(mailer, options, {
    kind: 'gift_notice',
    keyOf: (job) => giftNoticeKey(idOf(job.payload.gift_id, 'gift')),
    async compose(db, organizationId, job, store) {
      const gift = await giftOf(db, organizationId, idOf(job.payload.gift_id, 'gift'));
      if (gift.claim_code === null || gift.claimed_at !== null || gift.gift_email.trim() === '') return null;
      const giver = presentGiftFrom({ line_id: 0, message: gift.gift_message, ...gift });
      return {
        orderId: gift.order_id,
        to: gift.gift_email.trim(),
        // The giver's language: the recipient's is not known before they open the claim page.
        rendered: renderGiftNotice(
          {
            store,
            from: giver?.name ?? '',
            message: giver?.message ?? '',
            recipientName: gift.gift_name,
            item: { name: gift.item_name, quantity: gift.quantity },
            claimUrl: giftClaimUrl(options.publicUrl, gift.claim_code),
          },
          await orderEmailSpeech(db, organizationId, gift.order_id),
        ),
      };
    },
  });
}

/** The note to the giver (their order's email) once the recipient claimed the gift. */
export function giftClaimedHandler(mailer: Mailer, options: NoticeOptions): JobHandler {
  return noticeHandler(mailer, options, {
    kind: 'gift_claimed',
    keyOf: (job) => giftClaimedKey(idOf(job.payload.gift_id, 'gift')),
    async compose(db, organizationId, job, store) {
      const gift = await giftOf(db, organizationId, idOf(job.payload.gift_id, 'gift'));
      if (gift.giver_email.trim() === '') return null;
      return {
        orderId: gift.order_id,
        to: gift.giver_email.trim(),
        rendered: renderGiftClaimed(
          {
            store,
            recipientName: gift.gift_name,
            item: { name: gift.item_name, quantity: gift.quantity },
            orderId: gift.order_id,
          },
          await orderEmailSpeech(db, organizationId, gift.order_id),
        ),
      };
    },
  });
}

/** The shopper's confirmation of a refund that succeeded, with what was left paid right after it. */
export function refundConfirmationHandler(mailer: Mailer, options: NoticeOptions): JobHandler {
  return noticeHandler(mailer, options, {
    kind: 'refund_confirmation',
    keyOf: (job) => refundConfirmationKey(idOf(job.payload.refund_id, 'refund')),
    async compose(db, organizationId, job, store) {
      const refundId = idOf(job.payload.refund_id, 'refund');
      const refund = await findRefund(db, organizationId, refundId);
      if (!refund) throw new Error(`refund ${refundId} of organization ${organizationId} is gone`);
      const order = await findOrder(db, organizationId, refund.order_id);
      if (!order) throw new Error(`order ${refund.order_id} of organization ${organizationId} is gone`);
      if (refund.status !== 'succeeded' || order.email.trim() === '') return null;
      return {
        orderId: order.id,
        to: order.email.trim(),
        rendered: renderRefundConfirmation(
          {
            store,
            orderId: order.id,
            currency: refund.currency,
            amount: refund.amount,
            paid: idOf(job.payload.paid, 'amount paid'),
            refunded: idOf(job.payload.refunded, 'amount refunded'),
          },
          await orderEmailSpeech(db, organizationId, order.id),
        ),
      };
    },
  });
}
