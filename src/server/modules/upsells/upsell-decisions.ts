// The decisions of one-click upsells after the purchase (docs/api.md, "Upsells"): which offer comes next, whether an
// offer has run out, and what a link's steps may name. Pure: the service reads and writes around them.

/** How long the shopper has to answer an offer, counted by the server from when it is shown. */
export const UPSELL_OFFER_LIFETIME_MS = 10 * 60 * 1000;

/** A link's upsell step: its offer, and the one shown when the shopper declines it. */
export interface UpsellStepPlan {
  offer_id: number;
  downsell_offer_id: number | null;
}

/** Where an offer stands in the link's sequence: its step's position (1-based) and whether it is the downsell. */
export interface UpsellPlace {
  position: number;
  is_downsell: boolean;
}

export type UpsellOutcome = 'accepted' | 'declined' | 'expired';

/** The offer shown first after the order, or null for a link without upsells. */
export function firstUpsell(steps: readonly UpsellStepPlan[]): (UpsellPlace & { offer_id: number }) | null {
  const first = steps[0];
  return first ? { position: 1, is_downsell: false, offer_id: first.offer_id } : null;
}

/**
 * The offer that follows one the shopper answered: a declined upsell moves to its downsell when it has one, else (and
 * after an accept or a declined downsell) to the next step's upsell. An offer that ran out ends the sequence: the
 * shopper went away, and the confirmation is what they find when they come back.
 */
export function nextUpsell(
  steps: readonly UpsellStepPlan[],
  current: UpsellPlace,
  outcome: UpsellOutcome,
): (UpsellPlace & { offer_id: number }) | null {
  if (outcome === 'expired') return null;
  const downsell = steps[current.position - 1]?.downsell_offer_id ?? null;
  if (outcome === 'declined' && !current.is_downsell && downsell !== null) {
    return { position: current.position, is_downsell: true, offer_id: downsell };
  }
  const following = steps[current.position];
  return following
    ? { position: current.position + 1, is_downsell: false, offer_id: following.offer_id }
    : null;
}

/**
 * The offer to show at `place`, passing over offers the merchant deactivated since the link was made (as if declined:
 * a deactivated upsell's downsell still shows).
 */
export function activeUpsell(
  steps: readonly UpsellStepPlan[],
  place: (UpsellPlace & { offer_id: number }) | null,
  isActive: (offerId: number) => boolean,
): (UpsellPlace & { offer_id: number }) | null {
  let current = place;
  while (current && !isActive(current.offer_id)) current = nextUpsell(steps, current, 'declined');
  return current;
}

/**
 * Whether an offer has run out for an answer arriving now. An accept whose charge already started (its linked order
 * has a payment attempt, or a payment lease, even one that lapsed in a crash) is finished whatever the time: the
 * shopper said yes in time, and the processor may have charged.
 */
export function isUpsellExpired(input: { expiresAt: Date; now: Date; chargeStarted: boolean }): boolean {
  return !input.chargeStarted && input.now.getTime() >= input.expiresAt.getTime();
}

/** The countdown's end of an offer shown now; the first one counts from the order's completion. */
export function upsellExpiry(shownAt: Date): Date {
  return new Date(shownAt.getTime() + UPSELL_OFFER_LIFETIME_MS);
}

/**
 * Whether a completed order keeps its card for the upsells after it: a card payment through a link with upsells.
 * An express (PayPal-style) payment is not charged again here: the page goes straight to the confirmation.
 */
export function keepsCardForUpsells(input: {
  upsellsFollow: boolean;
  payment: { method: string } | undefined;
}): boolean {
  return input.upsellsFollow && input.payment?.method === 'card';
}

/** The processor's idempotency key of an upsell's charge: derived from the order, the step and the attempt. */
export function upsellChargeKey(
  organizationId: number,
  orderId: number,
  step: number,
  attempt: number,
): string {
  return `upsell_${organizationId}_${orderId}_step_${step}_attempt_${attempt}`;
}

/** What is wrong with a link's upsell steps, keyed by field name; offers are this organization's, by id. */
export function upsellStepProblems(
  steps: readonly { offer_id: number; downsell_offer_id?: number | null | undefined }[],
  offers: ReadonlyMap<number, { active: boolean }>,
): Record<string, string> {
  const problems: Record<string, string> = {};
  const check = (field: string, id: number) => {
    const offer = offers.get(id);
    if (!offer) problems[field] = `No offer with id ${id} exists.`;
    else if (!offer.active) problems[field] = `Offer ${id} is not active: activate it or choose another.`;
  };
  steps.forEach((step, index) => {
    check(`upsells.${index}.offer_id`, step.offer_id);
    const downsell = step.downsell_offer_id;
    if (downsell === null || downsell === undefined) return;
    if (downsell === step.offer_id) {
      problems[`upsells.${index}.downsell_offer_id`] =
        'The downsell is shown when the upsell is declined: choose a different offer.';
      return;
    }
    check(`upsells.${index}.downsell_offer_id`, downsell);
  });
  return problems;
}

/**
 * Whether a payment the shopper authenticated on the page took exactly the step's amount, in its currency, as the
 * processor says (docs/api.md, "Upsells"). A processor that does not say (the built-in test processor, whose
 * authenticated payment is the one it was asked for) is taken at its word.
 */
export function authenticatedChargeMatches(
  charged: { amount: number; currency: string } | undefined,
  owed: { amount: number; currency: string },
): boolean {
  if (charged === undefined) return true;
  return charged.amount === owed.amount && charged.currency.toUpperCase() === owed.currency.toUpperCase();
}
