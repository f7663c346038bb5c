import { describe, expect, it } from 'vitest';
import {
  bumpCheckboxLabel,
  bumpChange,
  bumpTextOf,
  cartBumpOffers,
  checkBumpOfferIds,
  chooseBumpOfferIds,
} from './order-bumps.js';

describe('chooseBumpOfferIds', () => {
  it("takes the link's bumps when it names any", () => {
    expect(
      chooseBumpOfferIds({ linkBumpOfferIds: [5, 6], organizationBumpOfferIds: [7], isGiftClaim: false }),
    ).toEqual([5, 6]);
  });

  it("falls back to the organization's default when the link names none", () => {
    expect(
      chooseBumpOfferIds({ linkBumpOfferIds: [], organizationBumpOfferIds: [7, 8], isGiftClaim: false }),
    ).toEqual([7, 8]);
  });

  it('shows none on a gift claim cart', () => {
    expect(
      chooseBumpOfferIds({ linkBumpOfferIds: [5], organizationBumpOfferIds: [7], isGiftClaim: true }),
    ).toEqual([]);
  });

  it('keeps at most 3', () => {
    expect(
      chooseBumpOfferIds({
        linkBumpOfferIds: [1, 2, 3, 4],
        organizationBumpOfferIds: [],
        isGiftClaim: false,
      }),
    ).toEqual([1, 2, 3]);
  });
});

describe('cartBumpOffers', () => {
  const offers = [
    { id: 1, active: true },
    { id: 2, active: true },
    { id: 3, active: false },
    { id: 4, active: true },
  ];

  it("keeps the merchant's order and marks the ticked ones", () => {
    const shown = cartBumpOffers([4, 2], offers, [
      { offer_id: 9, is_bump: false },
      { offer_id: 2, is_bump: true },
    ]);
    expect(shown.map((bump) => [bump.offer.id, bump.selected])).toEqual([
      [4, false],
      [2, true],
    ]);
  });

  it('leaves out inactive and unknown offers, and those already a plain line of the cart', () => {
    const shown = cartBumpOffers([3, 1, 99, 4], offers, [{ offer_id: 1, is_bump: false }]);
    expect(shown.map((bump) => bump.offer.id)).toEqual([4]);
  });
});

describe('bumpTextOf', () => {
  it('prefers the bump text, then the title, then the name', () => {
    expect(bumpTextOf({ bump_text: 'Add a mug', offer_title: 'Mug', offer_name: 'mug-1' })).toBe('Add a mug');
    expect(bumpTextOf({ bump_text: null, offer_title: 'Mug', offer_name: 'mug-1' })).toBe('Mug');
    expect(bumpTextOf({ bump_text: ' ', offer_title: '', offer_name: 'mug-1' })).toBe('mug-1');
  });
});

describe('checkBumpOfferIds', () => {
  const offers = [
    { id: 1, active: true },
    { id: 2, active: false },
    { id: 3, active: true },
  ];

  it('accepts up to 3 active offers of the organization', () => {
    expect(checkBumpOfferIds([1, 3], offers, [7])).toEqual({});
    expect(checkBumpOfferIds([], offers)).toEqual({});
  });

  it('refuses more than 3', () => {
    expect(checkBumpOfferIds([1, 3, 4, 5], offers)).toEqual({
      bump_offer_ids: 'Name at most 3 bump offers; this list has 4.',
    });
  });

  it('names each problem by its place in the list', () => {
    expect(checkBumpOfferIds([1, 1, 9], offers)).toEqual({
      'bump_offer_ids.1': 'Offer 1 is named twice; name each bump offer once.',
      'bump_offer_ids.2': 'No offer with id 9 exists.',
    });
    expect(checkBumpOfferIds([2, 3], offers, [3])).toEqual({
      'bump_offer_ids.0': 'Offer 2 is not active; activate it or choose another.',
      'bump_offer_ids.1': 'Offer 3 is already a line of this link, so it cannot also be a bump.',
    });
  });
});

describe('bumpChange', () => {
  it('adds the line once: ticking again changes nothing', () => {
    expect(bumpChange({ selected: true, isCartBump: true, line: null })).toBe('add');
    expect(bumpChange({ selected: true, isCartBump: true, line: { removed: false } })).toBe('none');
  });

  it('brings an unticked line back', () => {
    expect(bumpChange({ selected: true, isCartBump: true, line: { removed: true } })).toBe('restore');
  });

  it('removes the line once: unticking again changes nothing', () => {
    expect(bumpChange({ selected: false, isCartBump: true, line: { removed: false } })).toBe('remove');
    expect(bumpChange({ selected: false, isCartBump: true, line: { removed: true } })).toBe('none');
    expect(bumpChange({ selected: false, isCartBump: true, line: null })).toBe('none');
  });

  it('refuses an offer that is not one of the cart bumps, unless its line is there to untick', () => {
    expect(bumpChange({ selected: true, isCartBump: false, line: null })).toBe('not_a_bump');
    expect(bumpChange({ selected: false, isCartBump: false, line: null })).toBe('not_a_bump');
    expect(bumpChange({ selected: true, isCartBump: false, line: { removed: false } })).toBe('not_a_bump');
    expect(bumpChange({ selected: false, isCartBump: false, line: { removed: false } })).toBe('remove');
  });
});

describe('bumpCheckboxLabel', () => {
  const mug = {
    item_name: 'Travel mug',
    price: 12,
    is_recurring: false,
    billing_interval_days: null,
    next_price: null,
  };

  it('says what ticking adds, at its price', () => {
    expect(bumpCheckboxLabel(mug, 'USD')).toBe('Add Travel mug for $12.00');
  });

  it('says what a recurring bump charges later', () => {
    const club = {
      item_name: 'Coffee club',
      price: 29,
      is_recurring: true,
      billing_interval_days: 30,
      next_price: 25,
    };
    expect(bumpCheckboxLabel(club, 'USD')).toBe('Add Coffee club for $29.00, then $25.00 every 30 days');
    expect(bumpCheckboxLabel({ ...club, next_price: null, billing_interval_days: 7 }, 'USD')).toBe(
      'Add Coffee club for $29.00, then $29.00 every week',
    );
  });
});
