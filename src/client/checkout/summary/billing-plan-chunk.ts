import type { CartOffer } from '../../../contract/cart.js';
import { preloadedLazy } from '../../ui/preloaded-lazy.js';

/**
 * Whether a cart has a subscription of the shopper's own priced by cycle (a trial, discounted cycles, an end): the
 * server says so in each line's billing_plan. Only then does the page load the plan's words (billing-plan-notes.tsx),
 * so a cart without them loads nothing more.
 */
export function hasPricesByCycle(offers: readonly CartOffer[]): boolean {
  return offers.some(
    (offer) => offer.is_recurring && !offer.is_gift && offer.billing_plan?.has_special_cycles,
  );
}

export const billingPlanChunk = preloadedLazy(() => import('./billing-plan-notes.js'));
