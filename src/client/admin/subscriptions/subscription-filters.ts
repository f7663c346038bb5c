// The subscriptions list's filters as the address carries them (docs/dashboard.md, "Subscriptions"), so a link, a
// reload and Back show the same list; and the words the screens use for a subscription's state.
import type { Subscription } from '../../../contract/merchant.js';

export const STATUS_LABELS: Record<Subscription['status'], string> = {
  active: 'Active',
  paused: 'Paused',
  past_due: 'Past due',
  cancelled: 'Cancelled',
};

export interface SubscriptionFilters {
  /** '' for any */
  status: '' | Subscription['status'];
  /** '' for both, 'true' for test subscriptions only, 'false' for live ones */
  test: '' | 'true' | 'false';
  /** part of the customer's email, or a subscription id */
  q: string;
}

const isStatus = (value: string | null): value is Subscription['status'] =>
  value !== null && Object.hasOwn(STATUS_LABELS, value);

/** The filters an address's query names; a value the list does not take is left out. */
export function filtersOf(search: string): SubscriptionFilters {
  const params = new URLSearchParams(search);
  const status = params.get('status');
  const test = params.get('test');
  return {
    status: isStatus(status) ? status : '',
    test: test === 'true' || test === 'false' ? test : '',
    q: params.get('q')?.trim() ?? '',
  };
}

/** The query of the filters given ('' when none), for the screen's address and for the API. */
export function queryOf(filters: SubscriptionFilters): string {
  const params = new URLSearchParams();
  if (filters.status) params.set('status', filters.status);
  if (filters.test) params.set('test', filters.test);
  if (filters.q.trim()) params.set('q', filters.q.trim());
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** "every day", "every 30 days". */
export function everyInterval(days: number): string {
  return days === 1 ? 'every day' : `every ${days} days`;
}

export type SubscriptionAction = 'skip' | 'pause' | 'resume' | 'cancel';

/**
 * The actions a subscription's state allows, as the server decides them (subscription-changes.ts): only an active
 * one with no cancel scheduled has a next charge to skip or can be paused (a past-due one can be paused too); a
 * paused or past-due one, or one whose cancel is scheduled, can be resumed; anything but a cancelled one cancelled.
 */
export function actionsFor(subscription: Pick<Subscription, 'status' | 'cancel_at'>): SubscriptionAction[] {
  const { status, cancel_at: cancelAt } = subscription;
  if (status === 'cancelled') return [];
  const actions: SubscriptionAction[] = [];
  if (status === 'active' && cancelAt === null) actions.push('skip');
  if ((status === 'active' || status === 'past_due') && cancelAt === null) actions.push('pause');
  if (status === 'paused' || status === 'past_due' || cancelAt !== null) actions.push('resume');
  actions.push('cancel');
  return actions;
}

/** The date the subscription will be charged next, or null while nothing will be (paused, cancelled, ending). */
export function upcomingCharge(
  subscription: Pick<Subscription, 'status' | 'cancel_at' | 'next_charge_at'>,
): string | null {
  if (subscription.status === 'paused' || subscription.status === 'cancelled') return null;
  if (subscription.cancel_at !== null) return null;
  return subscription.next_charge_at;
}
