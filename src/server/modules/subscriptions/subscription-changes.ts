// What a pause, resume, skip or cancel does to a subscription (docs/subscriptions.md). Pure, so the service only
// records what these decide.
import type { SelfService } from '../../../contract/organization.js';

const DAY_MS = 86_400_000;

export type SubscriptionStatus = 'active' | 'paused' | 'past_due' | 'cancelled';
export type ChangedBy = 'merchant' | 'subscriber';

export interface SubscriptionState {
  status: SubscriptionStatus;
  nextChargeAt: Date;
  intervalDays: number;
  /** a cancel scheduled for the end of the paid period */
  cancelAt: Date | null;
  /** a prepaid plan (docs/subscriptions.md, "Prepaid plans"): nextChargeAt is then the end of its paid period */
  prepaid?: boolean;
}

export interface Refusal {
  code: string;
  message: string;
}

function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * Why the next charge cannot be skipped, or null when it can. Only an active subscription has a next charge to skip:
 * a paused one is charged on no date, a past-due one owes the charge that failed, a cancelled one is over.
 * `seenChargeAt` is the date the subscriber asked to skip: a second click (or a second tab) skips nothing more.
 */
export function skipRefusal(state: SubscriptionState, seenChargeAt: Date | null): Refusal | null {
  if (state.status === 'paused') {
    return {
      code: 'subscription_paused',
      message: 'This subscription is paused: resume it before skipping a charge.',
    };
  }
  if (state.status === 'past_due') {
    return {
      code: 'subscription_past_due',
      message: 'The last charge of this subscription failed: update the card instead of skipping it.',
    };
  }
  if (state.status === 'cancelled') {
    return {
      code: 'subscription_cancelled',
      message: 'This subscription is canceled; there is no charge to skip.',
    };
  }
  if (state.prepaid) {
    return {
      code: 'subscription_prepaid',
      message:
        `This plan is prepaid until ${day(state.nextChargeAt)}: its deliveries are paid for, so there is no charge ` +
        'to skip. Cancel it to stop it renewing.',
    };
  }
  if (state.cancelAt !== null) {
    return {
      code: 'subscription_cancel_scheduled',
      message: `This subscription ends on ${day(state.cancelAt)}; it will not be charged again.`,
    };
  }
  if (seenChargeAt !== null && seenChargeAt.getTime() !== state.nextChargeAt.getTime()) {
    return {
      code: 'charge_already_moved',
      message: `That charge was already moved; the next charge is on ${day(state.nextChargeAt)}.`,
    };
  }
  return null;
}

/** The next charge once the one due is skipped: one interval later. */
export function skippedChargeAt(state: Pick<SubscriptionState, 'nextChargeAt' | 'intervalDays'>): Date {
  return new Date(state.nextChargeAt.getTime() + state.intervalDays * DAY_MS);
}

/**
 * When a cancel takes effect: the merchant's at once (their API's cancel is final); the subscriber's as the
 * organization's self-service setting says. At the end of the period only an active subscription whose next charge
 * is still ahead has a period left: a paused or past-due one has nothing paid for to keep.
 */
export function cancelTakesEffect(input: {
  by: ChangedBy;
  state: Pick<SubscriptionState, 'status' | 'nextChargeAt'>;
  selfService: SelfService;
  now: Date;
}): { kind: 'now' } | { kind: 'at'; at: Date } {
  if (input.by === 'merchant' || input.selfService.cancel === 'immediately') return { kind: 'now' };
  if (input.state.status !== 'active' || input.state.nextChargeAt <= input.now) return { kind: 'now' };
  return { kind: 'at', at: input.state.nextChargeAt };
}
