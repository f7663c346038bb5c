import { describe, expect, it } from 'vitest';
import {
  AUTHENTICATE_CARD,
  checkTokenCard,
  parseTokenRequest,
  tokenBehaviour,
  tokenCardOf,
} from './card-token-request.js';
import { sayFieldMessages } from '../../../../domain/field-errors.js';
import type { Language } from '../../../../i18n/languages.js';
import { translatorFor } from '../../../i18n/translator.js';

const now = new Date('2026-11-21T12:00:00Z');
const visa = { number: '4111 1111 1111 1111', cvv: '123', exp_month: 12, exp_year: 2028 };

describe('parseTokenRequest', () => {
  it('takes texts, or whole numbers for the expiry, and test cards as digits', () => {
    expect(
      parseTokenRequest({ ...visa, exp_month: '04', exp_year: '29', test_cards: ['4242 4242 4242 4242'] }),
    ).toEqual({
      ...visa,
      exp_month: '04',
      exp_year: '29',
      test_cards: ['4242424242424242'],
    });
    expect(parseTokenRequest(visa)?.test_cards).toEqual([]);
  });

  it('refuses bodies of another shape', () => {
    for (const body of [
      null,
      [visa],
      'card',
      { ...visa, number: 4111111111111111 },
      { ...visa, cvv: undefined },
      { ...visa, exp_month: 1.5 },
      { ...visa, exp_year: '20288' },
      { ...visa, number: '4'.repeat(41) },
      { ...visa, test_cards: '4111' },
      { ...visa, test_cards: [4111] },
      { ...visa, test_cards: Array.from({ length: 51 }, () => '4111111111111111') },
    ]) {
      expect(parseTokenRequest(body)).toBeNull();
    }
  });
});

describe('checkTokenCard', () => {
  const check = (body: object) => checkTokenCard(parseTokenRequest({ ...visa, ...body })!, now);

  it("passes a valid card and answers the checkout's messages per request field", () => {
    expect(check({})).toEqual({});
    expect(check({ number: '', cvv: '', exp_month: 0, exp_year: 'x' })).toEqual({
      number: { key: 'card.number_missing' },
      exp_month: { key: 'card.exp_month_invalid' },
      exp_year: { key: 'card.exp_year_invalid' },
      cvv: { key: 'card.cvv_invalid_back', values: { digits: 3 } },
    });
    expect(check({ exp_month: 10, exp_year: 2026 })).toEqual({ exp_year: { key: 'card.expired' } });
    expect(check({ number: '6011 1111 1111 1117' })).toEqual({});
  });

  it('lets a given test card through without Luhn or length', () => {
    expect(check({ number: '4242424242424241' }).number).toEqual({ key: 'card.number_invalid' });
    expect(check({ number: '4242424242424241', test_cards: ['4242424242424241'] })).toEqual({});
  });
});

describe("the card rules' messages", () => {
  const said = (language: Language, body: object) =>
    sayFieldMessages(checkTokenCard(parseTokenRequest({ ...visa, ...body })!, now), translatorFor(language));

  it('are said in the reader’s language, the CVV with its number of digits', () => {
    expect(said('en', { number: '3530111333300000', cvv: '12' })).toEqual({
      number: 'We accept Visa, Mastercard, Discover and American Express. Use one of those cards.',
      cvv: 'Enter the 3-digit security code on the back of the card.',
    });
    expect(said('en', { number: '378282246310005', cvv: '123', exp_month: 13 })).toEqual({
      exp_month: 'Enter the expiry month, 01 to 12.',
      cvv: 'Enter the 4-digit security code on the front of the card.',
    });
    expect(said('fr', { number: '4111111111111112', exp_month: 10, exp_year: 2026 })).toEqual({
      number: 'Ce numéro de carte n’est pas valide. Vérifiez qu’il ne contient pas de faute de frappe.',
      exp_year: 'Cette carte a expiré. Utilisez une autre carte.',
    });
    expect(said('ja', { cvv: '' }).cvv).toBe('カード裏面の 3 桁のセキュリティコードを入力してください。');
  });
});

describe('tokenBehaviour', () => {
  it('reads the documented test card table, grouped or not', () => {
    expect(tokenBehaviour('4000 0000 0000 0002')).toBe('decline');
    expect(tokenBehaviour('4000000000009995')).toBe('insufficient_funds');
    expect(tokenBehaviour('4000-0000-0000-0119')).toBe('processor_error');
    expect(tokenBehaviour(AUTHENTICATE_CARD)).toBe('authenticate');
    expect(tokenBehaviour('4111111111111111')).toBe('approve');
    expect(tokenBehaviour('378282246310005')).toBe('approve');
  });
});

describe('tokenCardOf', () => {
  it('keeps brand, last 4, expiry (four-digit year), behaviour and the test-card mark: never the number or CVV', () => {
    const card = tokenCardOf(parseTokenRequest({ ...visa, exp_month: '04', exp_year: '29' })!);
    expect(card).toEqual({
      brand: 'visa',
      last4: '1111',
      exp_month: 4,
      exp_year: 2029,
      behaviour: 'approve',
      test_card: false,
    });
    expect(JSON.stringify(card)).not.toContain('4111111111111111');
    expect(
      tokenCardOf(
        parseTokenRequest({ ...visa, number: '4000000000000002', test_cards: ['4000000000000002'] })!,
      ),
    ).toMatchObject({ brand: 'testcard', behaviour: 'decline', test_card: true });
    expect(tokenCardOf(parseTokenRequest({ ...visa, number: '378282246310005' })!).brand).toBe(
      'american-express',
    );
  });
});
