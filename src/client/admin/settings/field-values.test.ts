import { describe, expect, it } from 'vitest';
import {
  cardListOf,
  fieldErrorsFor,
  filledTranslations,
  listOfText,
  numberOrText,
  optionalNumber,
  optionalText,
} from './field-values.js';

describe('numberOrText', () => {
  it('sends a typed number as a number, and anything else as text for the server to refuse', () => {
    expect(numberOrText(' 49.99 ')).toBe(49.99);
    expect(numberOrText('7')).toBe(7);
    expect(numberOrText('seven')).toBe('seven');
    expect(numberOrText('')).toBe('');
    expect(optionalNumber('  ')).toBeNull();
    expect(optionalNumber('3')).toBe(3);
    expect(optionalText(' ')).toBeNull();
    expect(optionalText(' https://x.example ')).toBe('https://x.example');
  });
});

describe('listOfText', () => {
  it('splits a list typed with commas or spaces', () => {
    expect(listOfText('US, ca  MX,,')).toEqual(['US', 'ca', 'MX']);
    expect(listOfText('')).toEqual([]);
  });
});

describe('cardListOf', () => {
  it('keeps a card number typed in groups whole, and splits numbers at commas', () => {
    expect(cardListOf('4242 4242 4242 4242, 4000000000000002 ,')).toEqual([
      '4242424242424242',
      '4000000000000002',
    ]);
  });
});

describe('fieldErrorsFor', () => {
  it("shows an error inside a field's value by that field, and keeps one no field has", () => {
    expect(
      fieldErrorsFor(
        {
          'client_options.testCards.2': 'A test card is 12 to 19 digits without spaces.',
          'client_options.testCards.4': 'A test card is 12 to 19 digits without spaces.',
          'legal.terms_url': 'Enter a full http(s) URL.',
          other: 'Unexpected.',
        },
        ['client_options.testCards', 'legal.terms_url', 'legal'],
      ),
    ).toEqual({
      'client_options.testCards': 'A test card is 12 to 19 digits without spaces.',
      'legal.terms_url': 'Enter a full http(s) URL.',
      other: 'Unexpected.',
    });
  });
});

describe('filledTranslations', () => {
  it('sends each language’s typed fields trimmed, and leaves out what is empty', () => {
    expect(
      filledTranslations({
        ja: { terms_url: ' https://shop.example/ja ', privacy_url: '' },
        es: { terms_url: '', privacy_url: '  ' },
        fr: { terms_url: '', privacy_url: 'https://shop.example/fr/vie-privee' },
      }),
    ).toEqual({
      fr: { privacy_url: 'https://shop.example/fr/vie-privee' },
      ja: { terms_url: 'https://shop.example/ja' },
    });
  });
});
