import { describe, expect, it } from 'vitest';
import { ourCardBrand, stripeDecline } from './stripe-decline.js';

describe('stripeDecline', () => {
  it('maps the issuer decline codes that have a code of ours', () => {
    expect(stripeDecline({ code: 'card_declined', decline_code: 'insufficient_funds' })).toEqual({
      code: 'insufficient_funds',
      hard: false,
    });
    expect(stripeDecline({ code: 'card_declined', decline_code: 'incorrect_cvc' }).code).toBe(
      'incorrect_cvc',
    );
    expect(stripeDecline({ code: 'card_declined', decline_code: 'expired_card' })).toEqual({
      code: 'expired_card',
      hard: true,
    });
  });

  it('maps Stripe error codes when the issuer gave no decline code', () => {
    expect(stripeDecline({ code: 'expired_card' })).toEqual({ code: 'expired_card', hard: true });
    expect(stripeDecline({ code: 'incorrect_cvc' }).code).toBe('incorrect_cvc');
    expect(stripeDecline({ code: 'invalid_cvc' }).code).toBe('incorrect_cvc');
    expect(stripeDecline({ code: 'payment_intent_authentication_failure' })).toEqual({
      code: 'authentication_failed',
      hard: false,
    });
  });

  it('answers authentication_required, a soft decline, for an off-session charge the bank wants confirmed', () => {
    expect(
      stripeDecline({ code: 'authentication_required', decline_code: 'authentication_required' }),
    ).toEqual({ code: 'authentication_required', hard: false });
  });

  it('answers card_declined for every other decline, hard for lost, stolen and fraudulent cards', () => {
    expect(stripeDecline({ code: 'card_declined', decline_code: 'generic_decline' })).toEqual({
      code: 'card_declined',
      hard: false,
    });
    for (const declineCode of ['lost_card', 'stolen_card', 'fraudulent', 'pickup_card', 'do_not_honor']) {
      expect(stripeDecline({ code: 'card_declined', decline_code: declineCode })).toEqual({
        code: 'card_declined',
        hard: true,
      });
    }
    expect(stripeDecline({ code: 'incorrect_number' })).toEqual({ code: 'card_declined', hard: true });
    expect(stripeDecline({ code: 'card_declined', decline_code: 'try_again_later' }).hard).toBe(false);
    expect(stripeDecline({})).toEqual({ code: 'card_declined', hard: false });
  });
});

describe('ourCardBrand', () => {
  it('names the brands we accept as src/domain/card.ts does, and refuses the rest', () => {
    expect(ourCardBrand('visa')).toBe('visa');
    expect(ourCardBrand('mastercard')).toBe('mastercard');
    expect(ourCardBrand('discover')).toBe('discover');
    expect(ourCardBrand('amex')).toBe('american-express');
    for (const other of ['jcb', 'diners', 'unionpay', 'eftpos_au', 'unknown', null, undefined]) {
      expect(ourCardBrand(other)).toBeNull();
    }
  });
});
