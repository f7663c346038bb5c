import { describe, expect, it } from 'vitest';
import { CARD_DATA_REFUSED_MESSAGE, refuseCardData } from './card-data-refusal.js';

const ENGLISH =
  "Card details are entered only in the payment processor's secure card fields, never sent to the store. Reload the page and enter your card there.";
const JAPANESE =
  'カード情報は決済代行会社の安全なカード入力欄にのみ入力し、ストアには送信されません。ページを再読み込みして、そこでカード情報を入力してください。';

describe('refuseCardData', () => {
  it('refuses a payment that carries card fields, naming each one (never their values)', () => {
    const refusal = refuseCardData({
      payment: { method: 'card', card_number: '4111111111111111', card_cvv: '123', card_exp_month: 12 },
    });
    expect(refusal).toMatchObject({
      status: 422,
      code: 'card_data_refused',
      message: ENGLISH,
    });
    expect(refusal?.toBody()).toMatchObject({
      fields: {
        'payment.card_number': ENGLISH,
        'payment.card_cvv': ENGLISH,
        'payment.card_exp_month': ENGLISH,
      },
    });
    expect(JSON.stringify(refusal?.toBody())).not.toContain('4111');
  });
  it("says the refusal and each field's message in the reader's language, the code unchanged", () => {
    const refusal = refuseCardData({ payment: { method: 'card', card_number: '4111111111111111' } });
    expect(refusal?.said).toEqual(CARD_DATA_REFUSED_MESSAGE);
    expect(refusal?.toBody('ja')).toEqual({
      status: 422,
      code: 'card_data_refused',
      message: JAPANESE,
      fields: { 'payment.card_number': JAPANESE },
    });
    expect(JSON.stringify(refusal?.toBody('ja'))).not.toContain('4111');
  });
  it('lets a token, an authenticated payment, an express payment or no payment through', () => {
    for (const body of [
      { payment: { method: 'card', card_token: 'tok_test_1' } },
      { payment: { method: 'card', authenticated_payment: 'ch_test_1' } },
      { payment: { method: 'paypal' } },
      { cart_token: 'x' },
      null,
      'text',
    ]) {
      expect(refuseCardData(body)).toBe(null);
    }
  });
});
