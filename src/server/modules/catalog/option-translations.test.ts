import { describe, expect, it } from 'vitest';
import { checkOptionTranslations } from './option-translations.js';

const base = [
  { name: 'Size', value: '340 g' },
  { name: 'Roast', value: 'Dark' },
];

describe('checkOptionTranslations', () => {
  it('accepts one translation per option, and languages without options', () => {
    expect(
      checkOptionTranslations({
        item_options: base,
        translations: { es: { item_options: [{ name: 'Tamaño' }, {}] }, ja: { offer_name: 'コーヒー' } },
      }),
    ).toEqual({});
  });

  it('names each language whose list is another length, and says how to fix it', () => {
    const fields = checkOptionTranslations({
      item_options: base,
      translations: { es: { item_options: [{ name: 'Tamaño' }] }, fr: { item_options: [{}, {}, {}] } },
    });
    expect(Object.keys(fields)).toEqual(['translations.es.item_options', 'translations.fr.item_options']);
    expect(fields['translations.es.item_options']).toBe(
      'translations.es.item_options has 1 option but item_options has 2 options: give one translation per ' +
        'option, in the same order (leave a name or value empty to show the original), or leave item_options ' +
        'out of translations.es.',
    );
  });

  it('refuses translated options for an offer that has none', () => {
    expect(
      checkOptionTranslations({
        item_options: [],
        translations: { es: { item_options: [{ name: 'Talla' }] } },
      }),
    ).toHaveProperty(['translations.es.item_options']);
  });
});
