// Scheduling the abandoned-checkout reminder (docs/emails.md, "Abandoned checkout"): called by the transaction that
// saves a shopper's contact and consent on their cart, so the reminder exists exactly when they do.
import type { AbandonedCheckout } from '../../../contract/organization.js';
import type { Queryable } from '../../platform/db/database.js';
import { enqueueJob } from '../../platform/jobs/job-queue.js';
import { shouldScheduleAbandonedReminder } from './abandoned-checkout-rules.js';

export const ABANDONED_CHECKOUT_JOB = 'email.abandoned_checkout';

/** One reminder per cart, ever: every later save of the cart's contact finds this key taken. */
export function abandonedCheckoutKey(cartId: number): string {
  return `abandoned_checkout:${cartId}`;
}

/** Enqueues the cart's reminder for after_minutes from now when the store sends them and the shopper agreed. */
export async function scheduleAbandonedCheckoutReminder(
  tx: Queryable,
  input: {
    organizationId: number;
    setting: AbandonedCheckout;
    cartId: number;
    email: string;
    emailOptIn: boolean;
  },
  now: Date,
): Promise<void> {
  if (!shouldScheduleAbandonedReminder(input.setting, input)) return;
  await enqueueJob(
    tx,
    {
      kind: ABANDONED_CHECKOUT_JOB,
      key: abandonedCheckoutKey(input.cartId),
      // The email it is for: a shopper who changed it since gets nothing (abandoned-checkout-rules.ts).
      payload: { cart_id: input.cartId, email: input.email.trim() },
      organizationId: input.organizationId,
      runAt: new Date(now.getTime() + input.setting.after_minutes * 60_000),
    },
    now,
  );
}
