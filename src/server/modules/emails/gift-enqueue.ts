// What completing a gift order or a claim asks of the emails module (docs/emails.md): imports the platform only, so
// the orders module can use it without an import cycle.
import type { Queryable } from '../../platform/db/database.js';
import { enqueueJob } from '../../platform/jobs/job-queue.js';

export const GIFT_NOTICE_JOB = 'email.gift_notice';
export const GIFT_CLAIMED_JOB = 'email.gift_claimed';

/** The recipient's notice's job key, and its email's: one notice per gift. */
export function giftNoticeKey(giftId: number): string {
  return `gift-notice:${giftId}`;
}

/** The giver's note's job key, and its email's: one note per claimed gift. */
export function giftClaimedKey(giftId: number): string {
  return `gift-claimed:${giftId}`;
}

/**
 * When a gift's notice goes out: the start of its date (YYYY-MM-DD, in UTC), or now for no date, today or a date
 * passed.
 */
export function giftNoticeRunAt(giftDate: string | null, now: Date): Date {
  if (giftDate === null || !/^\d{4}-\d{2}-\d{2}$/.test(giftDate)) return now;
  const start = new Date(`${giftDate}T00:00:00.000Z`);
  if (Number.isNaN(start.getTime()) || start.getTime() <= now.getTime()) return now;
  return start;
}

/** Enqueues, in the completing transaction, the notice of each gift that has a recipient's email. */
export async function enqueueGiftNotices(
  tx: Queryable,
  organizationId: number,
  gifts: readonly { id: number; gift_email: string; gift_date: string | null }[],
  now: Date,
): Promise<void> {
  for (const gift of gifts) {
    if (gift.gift_email.trim() === '') continue;
    await enqueueJob(
      tx,
      {
        kind: GIFT_NOTICE_JOB,
        key: giftNoticeKey(gift.id),
        payload: { gift_id: gift.id },
        organizationId,
        runAt: giftNoticeRunAt(gift.gift_date, now),
      },
      now,
    );
  }
}

/** Enqueues, in the transaction that completes the claim order, the note telling the giver. */
export async function enqueueGiftClaimedNote(
  tx: Queryable,
  organizationId: number,
  giftId: number,
  now: Date,
): Promise<void> {
  await enqueueJob(
    tx,
    { kind: GIFT_CLAIMED_JOB, key: giftClaimedKey(giftId), payload: { gift_id: giftId }, organizationId },
    now,
  );
}
