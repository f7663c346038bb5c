import { prepaidPeriodEnd } from './subscription-plan.js';
import type { Subscription } from '../../../contract/merchant.js';
import { parseOrganizationSettings } from '../../../contract/organization.js';
import type { Database } from '../../platform/db/database.js';
import { AppError, notFound } from '../../platform/errors.js';
import type { OrganizationRow } from '../organizations/organizations-repository.js';
import {
  lockSubscription,
  changeSubscriptionFields,
  setSubscriptionStatus,
  type SubscriptionRow,
} from './subscriptions-repository.js';
import { getSubscription } from '../merchant/merchant-read-service.js';
import { emitSubscriptionEvent } from './subscription-events.js';
import {
  cancelTakesEffect,
  skippedChargeAt,
  skipRefusal,
  type ChangedBy,
  type SubscriptionState,
} from './subscription-changes.js';

export type SubscriptionAction = 'cancel' | 'pause' | 'resume' | 'skip';

export interface SubscriptionChange {
  action: SubscriptionAction;
  /** the merchant (their API) or the subscriber (their self-service page, docs/subscriptions.md) */
  by: ChangedBy;
  /** skip: the charge date the subscriber saw, so a repeated request skips nothing more */
  seenChargeAt?: Date | null;
}

function stateOf(row: SubscriptionRow): SubscriptionState {
  // A prepaid plan's paid period lasts until its end, past the $0 fulfilments of its next dates: a cancel at the end
  // of the period keeps them (docs/subscriptions.md, "Prepaid plans").
  const period = prepaidPeriodEnd(row);
  return {
    status: row.status,
    nextChargeAt: period?.endsAt ?? row.next_charge_at,
    intervalDays: row.interval_days,
    cancelAt: row.cancel_at,
    prepaid: period !== null,
  };
}

/**
 * The merchant or the subscriber cancels, pauses, resumes or skips the next charge of a subscription. Cancelling is
 * final: at once for the merchant, at once or at the end of the paid period for the subscriber (the organization's
 * self_service setting). Resuming a paused subscription keeps its date (or charges now if it has passed); resuming a
 * past-due one charges it again at the next run; resuming one whose cancel is scheduled keeps it.
 */
export async function changeSubscription(
  db: Database,
  organization: OrganizationRow,
  id: number,
  change: SubscriptionAction | SubscriptionChange,
  now: Date,
): Promise<Subscription> {
  const { action, by, seenChargeAt } =
    typeof change === 'string' ? { action: change, by: 'merchant' as const, seenChargeAt: null } : change;
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
    const state = stateOf(subscription);
    if (action === 'cancel') {
      const effect = cancelTakesEffect({
        by,
        state,
        selfService: parseOrganizationSettings(organization.settings).selfService,
        now,
      });
      if (effect.kind === 'at') {
        if (subscription.cancel_at?.getTime() === effect.at.getTime()) return;
        await changeSubscriptionFields(
          tx,
          organization.id,
          id,
          { cancel_at: effect.at },
          { changedBy: by, now },
        );
        await emitSubscriptionEvent(tx, organization.id, id, 'subscription.updated', occurrence, now, {
          cause: 'cancel_scheduled',
        });
        return;
      }
      await setSubscriptionStatus(tx, organization.id, id, { status: 'cancelled', changedBy: by, now });
      await emitSubscriptionEvent(tx, organization.id, id, 'subscription.cancelled', occurrence, now);
    } else if (action === 'skip') {
      if (subscription.lease_until !== null && subscription.lease_until > now) {
        throw new AppError(
          409,
          'charge_in_progress',
          'The next charge is being made right now; try again in a few minutes.',
        );
      }
      const refusal = skipRefusal(state, seenChargeAt ?? null);
      if (refusal) throw new AppError(409, refusal.code, refusal.message);
      await changeSubscriptionFields(
        tx,
        organization.id,
        id,
        { next_charge_at: skippedChargeAt(state) },
        { changedBy: by, now },
      );
      await emitSubscriptionEvent(tx, organization.id, id, 'subscription.updated', occurrence, now, {
        cause: 'skip',
      });
    } else if (action === 'pause') {
      if (subscription.status === 'paused') return;
      if (subscription.cancel_at !== null) {
        throw new AppError(
          409,
          'subscription_cancel_scheduled',
          'This subscription ends at the end of its period: resume it first to keep it, then pause it.',
        );
      }
      await setSubscriptionStatus(tx, organization.id, id, { status: 'paused', changedBy: by, now });
      await emitSubscriptionEvent(tx, organization.id, id, 'subscription.paused', occurrence, now);
    } else {
      if (subscription.status === 'active' && subscription.cancel_at === null) return;
      const nextChargeAt =
        subscription.status === 'past_due' || subscription.next_charge_at < now
          ? now
          : subscription.next_charge_at;
      await setSubscriptionStatus(tx, organization.id, id, {
        status: 'active',
        nextChargeAt,
        resetRetries: subscription.status !== 'active',
        changedBy: by,
        now,
      });
      await emitSubscriptionEvent(tx, organization.id, id, 'subscription.resumed', occurrence, now);
    }
  });
  return getSubscription(db, organization, id);
}
