import type { Subscription } from '../../../contract/merchant.js';
import type { Database } from '../../platform/db/database.js';
import { AppError, notFound } from '../../platform/errors.js';
import type { OrganizationRow } from '../organizations/organizations-repository.js';
import { lockSubscription, setSubscriptionStatus } from './subscriptions-repository.js';
import { getSubscription } from '../merchant/merchant-read-service.js';
import { emitSubscriptionEvent } from './subscription-events.js';

export type SubscriptionAction = 'cancel' | 'pause' | 'resume';

/**
 * The merchant cancels, pauses or resumes a subscription. Cancelling is final. Resuming a paused subscription keeps
 * its date (or charges now if it has passed); resuming a past-due one charges it again at the next run.
 */
export async function changeSubscription(
  db: Database,
  organization: OrganizationRow,
  id: number,
  action: SubscriptionAction,
  now: Date,
): Promise<Subscription> {
  await db.transaction(async (tx) => {
    const subscription = await lockSubscription(tx, organization.id, id);
    if (!subscription) throw notFound('subscription_not_found', `There is no subscription ${id}.`);
    if (subscription.status === 'cancelled') {
      throw new AppError(
        409,
        'subscription_cancelled',
        'This subscription is canceled; start a new one instead.',
      );
    }
    const occurrence = String(now.getTime());
    if (action === 'cancel') {
      await setSubscriptionStatus(tx, organization.id, id, { status: 'cancelled', now });
      await emitSubscriptionEvent(tx, organization.id, id, 'subscription.cancelled', occurrence, now);
    } else if (action === 'pause') {
      if (subscription.status === 'paused') return;
      await setSubscriptionStatus(tx, organization.id, id, { status: 'paused', now });
      await emitSubscriptionEvent(tx, organization.id, id, 'subscription.paused', occurrence, now);
    } else {
      if (subscription.status === 'active') return;
      const nextChargeAt =
        subscription.status === 'past_due' || subscription.next_charge_at < now
          ? now
          : subscription.next_charge_at;
      await setSubscriptionStatus(tx, organization.id, id, {
        status: 'active',
        nextChargeAt,
        resetRetries: true,
        now,
      });
      await emitSubscriptionEvent(tx, organization.id, id, 'subscription.resumed', occurrence, now);
    }
  });
  return getSubscription(db, organization, id);
}
