import { describe, expect, it } from 'vitest';
import {
  brandOf,
  cardFieldErrors,
  cvvHint,
  errorAfterBlur,
  errorAfterInput,
  fieldErrorsOfTokenAnswer,
  formatField,
  frameState,
  tokenRequestBody,
  type FieldValues,
} from './card-fields-state.js';
import html from './index.html?raw';
import { frameTranslator, speakFrameLanguage } from './frame-language.js';

const englishT = await speakFrameLanguage(document.implementation.createHTMLDocument(), '');

const now = new Date('2026-11-21T12:00:00Z');
const valid: FieldValues = { number: '4111 1111 1111 1111', expiry: '04 / 28', cvv: '123' };
const empty: FieldValues = { number: '', expiry: '', cvv: '' };
const errorsOf = (values: FieldValues, testCards: string[] = []) =>
  cardFieldErrors(values, { now, testCards });

describe('formatField', () => {
  it('groups the number as typed, writes the expiry as MM / YY and keeps 4 CVV digits', () => {
    expect(formatField('number', '41111111')).toBe('4111 1111');
    expect(formatField('number', '378282246310005')).toBe('3782 822463 10005');
    expect(formatField('expiry', '0428')).toBe('04 / 28');
    expect(formatField('expiry', '4')).toBe('04');
    expect(formatField('cvv', '12a345')).toBe('1234');
  });
});

describe('brandOf', () => {
  it('names the brand from 4 digits, a given test card, or other for a brand not accepted', () => {
    expect(brandOf('411', [])).toBeNull();
    expect(brandOf('4111', [])).toBe('visa');
    expect(brandOf('5555 5555', [])).toBe('mastercard');
    expect(brandOf('3782', [])).toBe('american-express');
    expect(brandOf('6011', [])).toBe('discover');
    expect(brandOf('3530 1113', [])).toBe('other');
    expect(brandOf('4242 4242 4242 4242', ['4242424242424242'])).toBe('testcard');
  });
});

describe('cardFieldErrors', () => {
  it("gives the page's messages, the expiry as one field", () => {
    expect(errorsOf(valid)).toEqual({});
    expect(errorsOf(empty)).toEqual({
      number: { key: 'card.number_missing' },
      expiry: { key: 'card.expiry_missing' },
      cvv: { key: 'card.cvv_invalid_back', values: { digits: 3 } },
    });
    expect(errorsOf({ ...valid, expiry: '13 / 28' }).expiry).toEqual({ key: 'card.expiry_malformed' });
    expect(errorsOf({ ...valid, expiry: '10 / 26' }).expiry).toEqual({ key: 'card.expired' });
    expect(errorsOf({ ...valid, number: '3530 1113 3330 0000' }).number).toEqual({
      key: 'card.brand_not_accepted',
    });
    expect(errorsOf({ ...valid, number: '3782 822463 10005' }).cvv).toEqual({
      key: 'card.cvv_invalid_front',
      values: { digits: 4 },
    });
    expect(errorsOf({ ...valid, number: '4242 4242 4242 4241' }, ['4242424242424241'])).toEqual({});
  });
});

describe('when a message shows', () => {
  const errors = errorsOf({ ...valid, number: '4111' });

  it('after blur, unless the field was left empty and showed nothing', () => {
    expect(errorAfterBlur('number', { ...valid, number: '4111' }, {}, errors)).toEqual({
      key: 'card.number_length',
    });
    expect(errorAfterBlur('number', empty, {}, errorsOf(empty))).toBeUndefined();
    expect(errorAfterBlur('number', empty, { number: 'x' }, errorsOf(empty))).toEqual({
      key: 'card.number_missing',
    });
  });

  it('while typing, only when one is already shown, and it goes once fixed', () => {
    expect(errorAfterInput('number', {}, errors)).toBeUndefined();
    expect(errorAfterInput('number', { number: 'old' }, errors)).toBe(errors.number);
    expect(errorAfterInput('number', { number: 'old' }, errorsOf(valid))).toBeUndefined();
  });
});

describe('frameState', () => {
  it('tells the page brand, completeness, emptiness and the first message shown', () => {
    expect(frameState(empty, {}, errorsOf(empty), [], englishT)).toEqual({
      brand: null,
      complete: false,
      empty: true,
      error: null,
    });
    expect(frameState(valid, {}, errorsOf(valid), [], englishT)).toEqual({
      brand: 'visa',
      complete: true,
      empty: false,
      error: null,
    });
    const half = { ...valid, number: '3530 1113', cvv: '' };
    expect(
      frameState(half, { cvv: 'cvv message', number: 'number message' }, errorsOf(half), [], englishT),
    ).toEqual({
      brand: 'other',
      complete: false,
      empty: false,
      error: 'number message',
    });
  });

  it("says a rule's message in the frame's language", async () => {
    const spanishT = await frameTranslator('es');
    const shown = { number: { key: 'card.brand_not_accepted' } } as const;
    const half = { ...valid, number: '3530 1113' };
    expect(frameState(half, shown, errorsOf(half), [], englishT).error).toBe(
      'We accept Visa, Mastercard, Discover and American Express. Use one of those cards.',
    );
    expect(frameState(half, shown, errorsOf(half), [], spanishT).error).toBe(
      'Aceptamos Visa, Mastercard, Discover y American Express. Usa una de esas tarjetas.',
    );
  });
});

describe('cvvHint', () => {
  it("says what the page's field said", () => {
    expect(cvvHint('4111', [], englishT)).toBe('3 digits, on the back of the card.');
    expect(cvvHint('3782', [], englishT)).toBe('4 digits, on the front of the card.');
  });
});

describe('the token call', () => {
  it('sends digits and a four-digit year, and maps its field messages onto the fields', () => {
    expect(tokenRequestBody(valid, ['4242 4242 4242 4242'])).toEqual({
      number: '4111111111111111',
      cvv: '123',
      exp_month: 4,
      exp_year: 2028,
      test_cards: ['4242424242424242'],
    });
    expect(fieldErrorsOfTokenAnswer({ number: 'n', exp_year: 'y', cvv: 'c', other: 'o' })).toEqual({
      number: 'n',
      expiry: 'y',
      cvv: 'c',
    });
  });
});

describe('the frame page', () => {
  it('labels every field, names its autofill and says which brands are accepted', () => {
    expect(html).toContain('We accept Visa, Mastercard, Discover and American Express.');
    for (const [id, autocomplete] of [
      ['card-number', 'cc-number'],
      ['card-expiry', 'cc-exp'],
      ['card-cvv', 'cc-csc'],
    ]) {
      expect(html).toMatch(new RegExp(`<label class="field__label" for="${id}" data-t="card\\.\\w+">`));
      expect(html).toMatch(new RegExp(`id="${id}"[^>]*autocomplete="${autocomplete}"`));
    }
    expect(html).toContain('aria-live="polite"');
    expect(html).toContain('<!--processor-config-->');
    expect(html).not.toMatch(/<script(?![^>]*type="module")/);
  });
});
