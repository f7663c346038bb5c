// The checkout's sections in the store's order (docs/checkout-rules.md, "Sections"), moved one place at a time.
import type { Section } from '../../../contract/organization.js';
import { SECTION_TITLE_KEYS } from '../../checkout/section-titles.js';
import type { Translate } from '../../i18n/use-t.js';

/** The list with the section at `index` moved one place up (-1) or down (+1); the same list when it cannot move. */
export function moveSection(sections: readonly Section[], index: number, by: -1 | 1): Section[] {
  const target = index + by;
  if (index < 0 || index >= sections.length || target < 0 || target >= sections.length) return [...sections];
  const moved = [...sections];
  const [section] = moved.splice(index, 1);
  if (section) moved.splice(target, 0, section);
  return moved;
}

/** A section's name as the checkout's heading says it: the dashboard reads the checkout's English catalogue. */
export function sectionTitle(section: Section, t: Translate): string {
  return t(SECTION_TITLE_KEYS[section.component]);
}

/** What a screen reader hears after a move: "Payment moved to place 2 of 5." */
export function describeMove(sections: readonly Section[], id: string, t: Translate): string {
  const index = sections.findIndex((section) => section.id === id);
  const section = sections[index];
  if (!section) return '';
  return `${sectionTitle(section, t)} moved to place ${index + 1} of ${sections.length}.`;
}
