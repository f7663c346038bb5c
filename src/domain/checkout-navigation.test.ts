import { describe, expect, it } from 'vitest';
import {
  INITIAL_NAVIGATION,
  autoAdvance,
  checkoutNavigation,
  firstInvalidVisibleIndex,
  isSectionFinished,
  openSectionIndex,
  type NavigationState,
} from './checkout-navigation.js';

const all = [true, true, true, true, true];

describe('checkoutNavigation', () => {
  it('starts on section 0 with the first invalid section 0 and auto-advance on', () => {
    expect(INITIAL_NAVIGATION).toEqual({ current: 0, firstInvalid: 0, autoAdvance: true });
  });

  it('advance moves to the next section, carries the invalid marker and keeps auto-advance on', () => {
    const state = checkoutNavigation(INITIAL_NAVIGATION, { type: 'advance', visible: all });
    expect(state).toEqual({ current: 1, firstInvalid: 1, autoAdvance: true });
  });

  it('explicit next does the same but turns auto-advance off', () => {
    const state = checkoutNavigation(INITIAL_NAVIGATION, { type: 'next', visible: all });
    expect(state).toEqual({ current: 1, firstInvalid: 1, autoAdvance: false });
  });

  it('leaves the invalid marker where it is when the current section was already finished', () => {
    const editing: NavigationState = { current: 0, firstInvalid: 3, autoAdvance: false };
    expect(checkoutNavigation(editing, { type: 'next', visible: all })).toEqual({
      current: 1,
      firstInvalid: 3,
      autoAdvance: false,
    });
  });

  it('restore opens the section a history entry names, up to the first unfinished one', () => {
    const state: NavigationState = { current: 0, firstInvalid: 2, autoAdvance: true };
    expect(checkoutNavigation(state, { type: 'restore', index: 1, visible: all })).toEqual({
      current: 1,
      firstInvalid: 2,
      autoAdvance: false,
    });
    // An entry past what the shopper has finished now opens the first unfinished section.
    expect(checkoutNavigation(state, { type: 'restore', index: 4, visible: all }).current).toBe(2);
    // A hidden section gives way to the next shown one, as a move-to does.
    expect(
      checkoutNavigation(state, { type: 'restore', index: 1, visible: [true, false, true, true, true] })
        .current,
    ).toBe(2);
  });

  it('back moves to the previous section and turns auto-advance off', () => {
    const state: NavigationState = { current: 2, firstInvalid: 2, autoAdvance: true };
    expect(checkoutNavigation(state, { type: 'back', visible: all })).toEqual({
      current: 1,
      firstInvalid: 2,
      autoAdvance: false,
    });
  });

  it('back never goes below the first section', () => {
    const state = checkoutNavigation(INITIAL_NAVIGATION, { type: 'back', visible: all });
    expect(state.current).toBe(0);
    expect(state.autoAdvance).toBe(false);
  });

  it('move-to jumps to a section and turns auto-advance off', () => {
    const state: NavigationState = { current: 3, firstInvalid: 3, autoAdvance: true };
    expect(checkoutNavigation(state, { type: 'moveTo', index: 1, visible: all })).toEqual({
      current: 1,
      firstInvalid: 3,
      autoAdvance: false,
    });
  });

  it('skips hidden sections when moving forward and back', () => {
    const billingHidden = [true, true, false, true, true];
    const atShipping: NavigationState = { current: 1, firstInvalid: 1, autoAdvance: false };
    const forward = checkoutNavigation(atShipping, { type: 'next', visible: billingHidden });
    expect(forward).toEqual({ current: 3, firstInvalid: 3, autoAdvance: false });
    expect(checkoutNavigation(forward, { type: 'back', visible: billingHidden }).current).toBe(1);
  });

  it('never goes below the first shown section when the first one is hidden', () => {
    const firstHidden = [false, true, true];
    const state: NavigationState = { current: 1, firstInvalid: 1, autoAdvance: true };
    expect(checkoutNavigation(state, { type: 'back', visible: firstHidden }).current).toBe(1);
  });

  it('stays on the last section when there is nothing after it', () => {
    const state: NavigationState = { current: 4, firstInvalid: 4, autoAdvance: true };
    expect(checkoutNavigation(state, { type: 'advance', visible: all })).toEqual(state);
  });

  it('a move-to a hidden section opens the next shown one', () => {
    const billingHidden = [true, true, false, true, true];
    const state = checkoutNavigation(INITIAL_NAVIGATION, {
      type: 'moveTo',
      index: 2,
      visible: billingHidden,
    });
    expect(state.current).toBe(3);
  });
});

describe('reopening a section', () => {
  it('opens it unfinished, so it is not shown as done (billing back after leaving an express payment)', () => {
    // Billing (2) was hidden while the express payer paid; the shopper reached payment (4).
    const atPayment: NavigationState = { current: 4, firstInvalid: 4, autoAdvance: false };
    const state = checkoutNavigation(atPayment, { type: 'reopen', index: 2, visible: all });
    expect(state).toEqual({ current: 2, firstInvalid: 2, autoAdvance: false });
    expect(isSectionFinished(state, all, 2)).toBe(false);
    expect(isSectionFinished(state, all, 1)).toBe(true);
  });

  it('never moves the unfinished marker forward', () => {
    const early: NavigationState = { current: 1, firstInvalid: 1, autoAdvance: false };
    expect(checkoutNavigation(early, { type: 'reopen', index: 3, visible: all })).toEqual({
      current: 3,
      firstInvalid: 1,
      autoAdvance: false,
    });
  });
});

describe('openSectionIndex and isSectionFinished', () => {
  it('opens the next shown section when the current one becomes hidden', () => {
    const state: NavigationState = { current: 2, firstInvalid: 2, autoAdvance: false };
    expect(openSectionIndex(state, [true, true, false, true])).toBe(3);
    expect(firstInvalidVisibleIndex(state, [true, true, false, true])).toBe(3);
  });

  it('counts sections before the first invalid one as finished, except the open one', () => {
    const state: NavigationState = { current: 1, firstInvalid: 3, autoAdvance: false };
    expect([0, 1, 2, 3, 4].map((index) => isSectionFinished(state, all, index))).toEqual([
      true,
      false,
      true,
      false,
      false,
    ]);
  });
});

describe('autoAdvance', () => {
  it('moves past every complete section while auto-advance is on', () => {
    const complete = [true, true, false, false, false];
    expect(autoAdvance(INITIAL_NAVIGATION, all, (index) => complete[index] === true)).toEqual({
      current: 2,
      firstInvalid: 2,
      autoAdvance: true,
    });
  });

  it('does nothing once the shopper has navigated', () => {
    const state: NavigationState = { current: 0, firstInvalid: 0, autoAdvance: false };
    expect(autoAdvance(state, all, () => true)).toBe(state);
  });

  it('stops at the last section', () => {
    expect(autoAdvance(INITIAL_NAVIGATION, all, () => true).current).toBe(4);
  });
});
