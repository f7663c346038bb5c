/**
 * Moving through the sections (docs/checkout-rules.md#navigation). Indices are positions in the organization's
 * ordered section list; `visible` says which of them are shown now, so hidden sections are skipped and a section
 * that appears or disappears never shifts the others.
 */
export interface NavigationState {
  current: number;
  /** sections before this one are finished; this one and later ones are not yet valid */
  firstInvalid: number;
  /** on while the page may move forward by itself (saved details already valid) */
  autoAdvance: boolean;
}

export const INITIAL_NAVIGATION: NavigationState = { current: 0, firstInvalid: 0, autoAdvance: true };

export type NavigationAction =
  /** the page moves on by itself: auto-advance stays on */
  | { type: 'advance'; visible: readonly boolean[] }
  /** the shopper pressed Continue */
  | { type: 'next'; visible: readonly boolean[] }
  | { type: 'back'; visible: readonly boolean[] }
  | { type: 'moveTo'; index: number; visible: readonly boolean[] }
  /** a finished section needs the shopper again (it appeared, or what filled it went away): open it, unfinished */
  | { type: 'reopen'; index: number; visible: readonly boolean[] }
  /** the browser's Back or Forward (or a reload) names a section: never one past the first unfinished section */
  | { type: 'restore'; index: number; visible: readonly boolean[] };

function nextVisible(visible: readonly boolean[], from: number): number | null {
  for (let i = from; i < visible.length; i++) if (visible[i]) return i;
  return null;
}

function previousVisible(visible: readonly boolean[], from: number): number | null {
  for (let i = Math.min(from, visible.length - 1); i >= 0; i--) if (visible[i]) return i;
  return null;
}

/** The section that is open: the current one, or the nearest shown one when the current one is hidden now. */
export function openSectionIndex(state: NavigationState, visible: readonly boolean[]): number {
  return nextVisible(visible, state.current) ?? previousVisible(visible, state.current) ?? 0;
}

/** The first unfinished section that is shown (a hidden marker stands for the next shown section). */
export function firstInvalidVisibleIndex(state: NavigationState, visible: readonly boolean[]): number {
  return nextVisible(visible, state.firstInvalid) ?? visible.length;
}

/** Finished sections are those before the first invalid one; they collapse to a summary with "Change". */
export function isSectionFinished(
  state: NavigationState,
  visible: readonly boolean[],
  index: number,
): boolean {
  return index < firstInvalidVisibleIndex(state, visible) && index !== openSectionIndex(state, visible);
}

function forward(state: NavigationState, visible: readonly boolean[], autoAdvance: boolean): NavigationState {
  const open = openSectionIndex(state, visible);
  const target = nextVisible(visible, open + 1);
  if (target === null) return { ...state, current: open, autoAdvance };
  const wasFirstInvalid = open === firstInvalidVisibleIndex(state, visible);
  return {
    current: target,
    firstInvalid: wasFirstInvalid ? target : state.firstInvalid,
    autoAdvance,
  };
}

export function checkoutNavigation(state: NavigationState, action: NavigationAction): NavigationState {
  switch (action.type) {
    case 'advance':
      return forward(state, action.visible, state.autoAdvance);
    case 'next':
      return forward(state, action.visible, false);
    case 'back': {
      const open = openSectionIndex(state, action.visible);
      // Never below the first shown section.
      const target = previousVisible(action.visible, open - 1) ?? open;
      return { ...state, current: target, autoAdvance: false };
    }
    case 'moveTo': {
      const clamped = Math.max(0, Math.min(action.index, action.visible.length - 1));
      const target = nextVisible(action.visible, clamped) ?? previousVisible(action.visible, clamped) ?? 0;
      return { ...state, current: target, autoAdvance: false };
    }
    case 'reopen': {
      const moved = checkoutNavigation(state, { ...action, type: 'moveTo' });
      return { ...moved, firstInvalid: Math.min(state.firstInvalid, moved.current) };
    }
    case 'restore': {
      // A history entry may name a section the shopper has not reached now (their saved details changed, the
      // section list did): the first unfinished one opens instead, as Continue would have stopped there.
      const limit = firstInvalidVisibleIndex(state, action.visible);
      return checkoutNavigation(state, {
        type: 'moveTo',
        index: Math.min(action.index, limit),
        visible: action.visible,
      });
    }
  }
}

/**
 * The page moving forward by itself: while auto-advance is on, every open section that is already complete (saved
 * details) is advanced past. Stops at the first incomplete section or at the last one.
 */
export function autoAdvance(
  state: NavigationState,
  visible: readonly boolean[],
  isComplete: (index: number) => boolean,
): NavigationState {
  let next = state;
  while (next.autoAdvance) {
    const open = openSectionIndex(next, visible);
    if (!isComplete(open)) break;
    const moved = checkoutNavigation(next, { type: 'advance', visible });
    if (moved.current === next.current) break;
    next = moved;
  }
  return next;
}
