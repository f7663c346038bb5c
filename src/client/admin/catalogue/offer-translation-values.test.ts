import { describe, expect, it } from 'vitest';
import {
  emptyLanguageText,
  translationsBody,
  translationValues,
  withOptionAdded,
} from './offer-translation-values.js';

describe('translationValues', () => {
  it('gives a row per option of the offer, empty where the translation has none', () => {
    const values = translationValues({
      item_options: [
        { name: 'Size', value: '340 g' },
        { name: 'Roast', value: 'Dark' },
      ],
      translations: { es: { offer_name: 'Café', item_options: [{ name: 'Tamaño' }] } },
    });
    expect(Object.keys(values)).toEqual(['es']);
    expect(values.es?.offer_name).toBe('Café');
    expect(values.es?.item_name).toBe('');
    expect(values.es?.item_options).toEqual([
      { name: 'Tamaño', value: '' },
      { name: '', value: '' },
    ]);
  });
});

describe('translationsBody', () => {
  it('leaves out what is empty: fields, options nobody typed, and languages with nothing', () => {
    const es = { ...emptyLanguageText(2), item_name: '  Bolsa  ' };
    const ja = {
      ...emptyLanguageText(2),
      item_options: [
        { name: '', value: '' },
        { name: '', value: '濃い' },
      ],
    };
    expect(translationsBody({ es, fr: emptyLanguageText(2), ja })).toEqual({
      es: { item_name: 'Bolsa' },
      ja: { item_options: [{}, { value: '濃い' }] },
    });
  });

  it('keeps the options as long as the offer’s after one is added', () => {
    const es = { ...emptyLanguageText(1), item_options: [{ name: 'Tamaño', value: '' }] };
    expect(translationsBody(withOptionAdded({ es })).es?.item_options).toEqual([{ name: 'Tamaño' }, {}]);
  });
});
