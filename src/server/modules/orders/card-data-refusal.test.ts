import { describe, expect, it } from 'vitest';
import { CARD_DATA_REFUSED_MESSAGE, refuseCardData } from './card-data-refusal.js';

describe('refuseCardData', () => {
  it('refuses a payment that carries card fields, naming each one (never their values)', () => {
    const refusal = refuseCardData({
      payment: { method: 'card', card_number: '4111111111111111', card_cvv: '123', card_exp_month: 12 },
    });
    expect(refusal).toMatchObject({
      status: 422,
      code: 'card_data_refused',
      message: CARD_DATA_REFUSED_MESSAGE,
    });
    expect(refusal?.toBody()).toMatchObject({
      fields: {
        'payment.card_number': CARD_DATA_REFUSED_MESSAGE,
        'payment.card_cvv': CARD_DATA_REFUSED_MESSAGE,
        'payment.card_exp_month': CARD_DATA_REFUSED_MESSAGE,
      },
    });
    expect(JSON.stringify(refusal?.toBody())).not.toContain('4111');
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
