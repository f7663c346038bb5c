import { describe, expect, it } from 'vitest';
import { DEFAULT_SECTIONS } from '../../../contract/organization.js';
import { fallbackI18n } from '../../i18n/fallback-i18n.js';
import type { Translate } from '../../i18n/use-t.js';
import { describeMove, moveSection } from './section-order.js';

// The dashboard's English (tests/helpers/client-setup.ts).
const t: Translate = (key, values) => fallbackI18n()!._(key, values);
const ids = (sections: { id: string }[]) => sections.map((section) => section.id);

describe('moveSection', () => {
  it('moves a section one place up or down, and not past either end', () => {
    expect(ids(moveSection(DEFAULT_SECTIONS, 4, -1))).toEqual([
      'contact',
      'shipping',
      'billing',
      'payment',
      'gifts',
    ]);
    expect(ids(moveSection(DEFAULT_SECTIONS, 0, 1))).toEqual([
      'shipping',
      'contact',
      'billing',
      'gifts',
      'payment',
    ]);
    expect(ids(moveSection(DEFAULT_SECTIONS, 0, -1))).toEqual(ids(DEFAULT_SECTIONS));
    expect(ids(moveSection(DEFAULT_SECTIONS, 4, 1))).toEqual(ids(DEFAULT_SECTIONS));
  });
});

describe('describeMove', () => {
  it('says where the section is now', () => {
    expect(describeMove(moveSection(DEFAULT_SECTIONS, 4, -1), 'payment', t)).toBe(
      'Payment moved to place 4 of 5.',
    );
  });
});
