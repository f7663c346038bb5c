// What a subscriber's new card does to their subscription's renewals (docs/subscriptions.md, "Self-service"). Pure.

export type CardUpdateStatus = 'active' | 'paused' | 'past_due' | 'cancelled';

/**
 * When the renewal is charged again after a new card: a past-due subscription, or one whose last renewal was
 * declined and waits for its next retry, is charged at the next rebill run (now) with the new card rather than at
 * its retry date; a past-due one becomes active again. Anything else keeps its date (null: nothing moves).
 */
export function chargeAfterNewCard(input: {
  status: CardUpdateStatus;
  retryCount: number;
  nextChargeAt: Date;
  now: Date;
}): { becomesActive: boolean; nextChargeAt: Date } | null {
  if (input.status === 'past_due') return { becomesActive: true, nextChargeAt: input.now };
  if (input.status === 'active' && input.retryCount > 0 && input.nextChargeAt > input.now) {
    return { becomesActive: false, nextChargeAt: input.now };
  }
  return null;
}
