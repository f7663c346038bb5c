import { describe, expect, it } from 'vitest';
import {
  activeUpsell,
  authenticatedChargeMatches,
  firstUpsell,
  isUpsellExpired,
  keepsCardForUpsells,
  nextUpsell,
  upsellChargeKey,
  upsellExpiry,
  upsellStepProblems,
} from './upsell-decisions.js';

const steps = [
  { offer_id: 10, downsell_offer_id: 11 },
  { offer_id: 20, downsell_offer_id: null },
];

describe('the upsell sequence', () => {
  it('starts at the first step, or nowhere without steps', () => {
    expect(firstUpsell(steps)).toEqual({ position: 1, is_downsell: false, offer_id: 10 });
    expect(firstUpsell([])).toBeNull();
  });

  it('moves to the next step after an accept', () => {
    expect(nextUpsell(steps, { position: 1, is_downsell: false }, 'accepted')).toEqual({
      position: 2,
      is_downsell: false,
      offer_id: 20,
    });
    expect(nextUpsell(steps, { position: 2, is_downsell: false }, 'accepted')).toBeNull();
  });

  it('moves to the downsell after a declined upsell that has one, else to the next step', () => {
    expect(nextUpsell(steps, { position: 1, is_downsell: false }, 'declined')).toEqual({
      position: 1,
      is_downsell: true,
      offer_id: 11,
    });
    expect(nextUpsell(steps, { position: 2, is_downsell: false }, 'declined')).toBeNull();
  });

  it('moves past a step after its downsell is accepted or declined', () => {
    for (const outcome of ['accepted', 'declined'] as const) {
      expect(nextUpsell(steps, { position: 1, is_downsell: true }, outcome)).toEqual({
        position: 2,
        is_downsell: false,
        offer_id: 20,
      });
    }
  });

  it('ends after an offer ran out', () => {
    expect(nextUpsell(steps, { position: 1, is_downsell: false }, 'expired')).toBeNull();
  });
});

describe('a deactivated offer', () => {
  it('is passed over as if declined, its downsell still shown', () => {
    const active = (ids: number[]) => (id: number) => ids.includes(id);
    const first = firstUpsell(steps);
    expect(activeUpsell(steps, first, active([10, 11, 20]))).toEqual(first);
    expect(activeUpsell(steps, first, active([11, 20]))).toEqual({
      position: 1,
      is_downsell: true,
      offer_id: 11,
    });
    expect(activeUpsell(steps, first, active([20]))).toEqual({
      position: 2,
      is_downsell: false,
      offer_id: 20,
    });
    expect(activeUpsell(steps, first, active([]))).toBeNull();
  });
});

describe('an offer running out', () => {
  const expiresAt = upsellExpiry(new Date('2026-01-01T00:00:00Z'));

  it('lasts 10 minutes', () => {
    expect(expiresAt.toISOString()).toBe('2026-01-01T00:10:00.000Z');
  });

  it('has run out at its end unless its charge started', () => {
    const before = new Date('2026-01-01T00:09:59Z');
    const at = new Date('2026-01-01T00:10:00Z');
    expect(isUpsellExpired({ expiresAt, now: before, chargeStarted: false })).toBe(false);
    expect(isUpsellExpired({ expiresAt, now: at, chargeStarted: false })).toBe(true);
    expect(isUpsellExpired({ expiresAt, now: at, chargeStarted: true })).toBe(false);
  });
});

describe('what keeps the card', () => {
  it('keeps a card paid through a link with upsells, never an express payment', () => {
    expect(keepsCardForUpsells({ upsellsFollow: true, payment: { method: 'card' } })).toBe(true);
    expect(keepsCardForUpsells({ upsellsFollow: true, payment: { method: 'paypal' } })).toBe(false);
    expect(keepsCardForUpsells({ upsellsFollow: false, payment: { method: 'card' } })).toBe(false);
  });

  it('keys each attempt of each step apart', () => {
    expect(upsellChargeKey(1, 2, 3, 1)).toBe('upsell_1_2_step_3_attempt_1');
    expect(upsellChargeKey(1, 2, 3, 2)).not.toBe(upsellChargeKey(1, 2, 3, 1));
  });
});

describe("a link's upsell steps", () => {
  const offers = new Map([
    [10, { active: true }],
    [11, { active: true }],
    [12, { active: false }],
  ]);

  it('accepts active offers of the organization', () => {
    expect(upsellStepProblems([{ offer_id: 10, downsell_offer_id: 11 }], offers)).toEqual({});
  });

  it('names each unknown, inactive or repeated offer by its field', () => {
    expect(
      upsellStepProblems(
        [
          { offer_id: 99, downsell_offer_id: 12 },
          { offer_id: 10, downsell_offer_id: 10 },
        ],
        offers,
      ),
    ).toEqual({
      'upsells.0.offer_id': 'No offer with id 99 exists.',
      'upsells.0.downsell_offer_id': 'Offer 12 is not active: activate it or choose another.',
      'upsells.1.downsell_offer_id':
        'The downsell is shown when the upsell is declined: choose a different offer.',
    });
  });
});

describe('an authenticated upsell payment', () => {
  const owed = { amount: 1977, currency: 'USD' };
  it('completes only for exactly the amount owed, in its currency', () => {
    expect(authenticatedChargeMatches({ amount: 1977, currency: 'usd' }, owed)).toBe(true);
    expect(authenticatedChargeMatches({ amount: 1976, currency: 'USD' }, owed)).toBe(false);
    expect(authenticatedChargeMatches({ amount: 1977, currency: 'EUR' }, owed)).toBe(false);
  });

  it('takes a processor that does not say what it took at its word', () => {
    expect(authenticatedChargeMatches(undefined, owed)).toBe(true);
  });
});
