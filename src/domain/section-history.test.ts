import { describe, expect, it } from 'vitest';
import { historyStateFor, isBackInHistory, sectionOfHistoryState } from './section-history.js';

describe('sectionOfHistoryState', () => {
  it('reads the section and the one before it from an entry the checkout marked', () => {
    expect(sectionOfHistoryState({ checkoutSection: 'shipping', checkoutPrevious: 'contact' })).toEqual({
      checkoutSection: 'shipping',
      checkoutPrevious: 'contact',
    });
    expect(sectionOfHistoryState({ checkoutSection: 'contact' })).toEqual({
      checkoutSection: 'contact',
      checkoutPrevious: null,
    });
  });

  it('answers null for entries it did not mark', () => {
    for (const state of [null, undefined, 'contact', 3, {}, { checkoutSection: 4 }])
      expect(sectionOfHistoryState(state)).toBeNull();
  });
});

describe('historyStateFor', () => {
  it("marks an entry's state with its section and keeps what else it holds", () => {
    expect(
      historyStateFor(
        { other: 1, checkoutSection: 'contact' },
        {
          checkoutSection: 'payment',
          checkoutPrevious: 'shipping',
        },
      ),
    ).toEqual({ other: 1, checkoutSection: 'payment', checkoutPrevious: 'shipping' });
    expect(historyStateFor(null, { checkoutSection: 'contact', checkoutPrevious: null })).toEqual({
      checkoutSection: 'contact',
      checkoutPrevious: null,
    });
  });
});

describe('isBackInHistory', () => {
  it('goes back in history when the entry before opens the section Back goes to', () => {
    const entry = { checkoutSection: 'shipping', checkoutPrevious: 'contact' };
    expect(isBackInHistory(entry, 'contact')).toBe(true);
  });

  it('adds an entry otherwise: the entry before is another section, or not the checkout’s', () => {
    // Reached payment with "Change" from review: the entry before is the review, not the section above.
    expect(isBackInHistory({ checkoutSection: 'shipping', checkoutPrevious: 'payment' }, 'contact')).toBe(
      false,
    );
    expect(isBackInHistory({ checkoutSection: 'shipping', checkoutPrevious: null }, 'contact')).toBe(false);
    expect(isBackInHistory(null, 'contact')).toBe(false);
  });
});
