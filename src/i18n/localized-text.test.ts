import { describe, expect, it } from 'vitest';
import { localizedFields, localizedItemOptions, localizedText } from './localized-text.js';

const translations = { es: { offer_name: 'Café', item_name: '' }, ja: { offer_name: 'コーヒー' } };

describe('localizedText', () => {
  it('gives the translation into the language', () => {
    expect(localizedText('Coffee', translations, 'ja', 'offer_name')).toBe('コーヒー');
    expect(localizedText('Coffee', translations, 'es', 'offer_name')).toBe('Café');
  });

  it('falls back to the base text for a language, a field or a blank translation it lacks', () => {
    expect(localizedText('Coffee', translations, 'fr', 'offer_name')).toBe('Coffee');
    expect(localizedText('Bag', translations, 'ja', 'item_name')).toBe('Bag');
    expect(localizedText('Bag', translations, 'es', 'item_name')).toBe('Bag');
    expect(localizedText('Coffee', null, 'es', 'offer_name')).toBe('Coffee');
    expect(localizedText('Coffee', translations, null, 'offer_name')).toBe('Coffee');
    expect(localizedText(null, translations, 'fr', 'bump_text')).toBeNull();
  });
});

describe('localizedFields', () => {
  it('replaces only the named fields it has translations of', () => {
    const row = { offer_name: 'Coffee', item_name: 'Bag', price: 5 };
    expect(localizedFields(row, translations, 'es', ['offer_name', 'item_name'])).toEqual({
      offer_name: 'Café',
      item_name: 'Bag',
      price: 5,
    });
    expect(localizedFields(row, translations, 'de', ['offer_name'])).toBe(row);
  });
});

describe('localizedItemOptions', () => {
  const base = [
    { name: 'Size', value: '340 g' },
    { name: 'Roast', value: 'Dark' },
  ];
  const options = {
    es: { item_options: [{ name: 'Tamaño' }, { name: 'Tueste', value: 'Oscuro' }] },
    fr: { item_options: [{ name: 'Taille', value: '' }] },
  };

  it('gives each translated name and value, the base one where a part is left out or empty', () => {
    expect(localizedItemOptions(base, options, 'es')).toEqual([
      { name: 'Tamaño', value: '340 g' },
      { name: 'Tueste', value: 'Oscuro' },
    ]);
  });

  it('keeps the base options for a language without them, or with a list of another length', () => {
    expect(localizedItemOptions(base, options, 'de')).toBe(base);
    expect(localizedItemOptions(base, options, 'fr')).toBe(base);
    expect(localizedItemOptions(base, null, 'es')).toBe(base);
    expect(localizedItemOptions(base, options, null)).toBe(base);
  });
});
