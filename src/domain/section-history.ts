/**
 * The checkout's sections in the browser's history: one entry per section the shopper moved to, its id in the
 * entry's state (the address stays the cart's), so Back and Forward move between sections and a reload reopens the
 * section its entry names. Entries are marked with the section they open and the one before them.
 */
export interface SectionEntry {
  checkoutSection: string;
  /** the section of the entry this one was pushed on, null on the first */
  checkoutPrevious: string | null;
}

/** The section an entry's state names, or null for an entry the checkout did not mark. */
export function sectionOfHistoryState(state: unknown): SectionEntry | null {
  if (typeof state !== 'object' || state === null) return null;
  const { checkoutSection, checkoutPrevious } = state as Record<string, unknown>;
  if (typeof checkoutSection !== 'string') return null;
  return {
    checkoutSection,
    checkoutPrevious: typeof checkoutPrevious === 'string' ? checkoutPrevious : null,
  };
}

/** An entry's state for a section, keeping what else the entry's state holds. */
export function historyStateFor(state: unknown, entry: SectionEntry): Record<string, unknown> {
  const base = typeof state === 'object' && state !== null ? (state as Record<string, unknown>) : {};
  return { ...base, checkoutSection: entry.checkoutSection, checkoutPrevious: entry.checkoutPrevious };
}

/**
 * Whether the page's Back button may be the browser's Back: the entry before this one opens the section Back goes to.
 * Then Back and the browser's Back leave the same history; otherwise Back adds an entry, as any move does.
 */
export function isBackInHistory(state: unknown, target: string): boolean {
  return sectionOfHistoryState(state)?.checkoutPrevious === target;
}
