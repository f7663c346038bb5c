import { describe, expect, it } from 'vitest';
import { cartFixture, FILLED_CUSTOMER } from '../../testing/fixtures.js';
import { initialForm } from '../form/checkout-form.js';
import type { SectionContext } from '../section-rules.js';
import { validatePayment } from './payment-rules.js';

const now = new Date(Date.UTC(2026, 10, 15));

function context(card: Record<string, string>, overrides: Partial<SectionContext> = {}): SectionContext {
  const cart = overrides.cart ?? cartFixture({ customer: FILLED_CUSTOMER });
  const form = initialForm(cart, null, now);
  Object.assign(form.text, card);
  return {
    cart,
    form,
    testCards: ['4242424242424242'],
    now,
    expressPaymentTokenId: null,
    subscriptionTerms: { display: false, value: true },
    ...overrides,
  };
}

const good = { card_number: '4111 1111 1111 1111', card_expiry: '04 / 28', card_cvv: '123' };

describe('validatePayment', () => {
  it('accepts a valid card', () => {
    expect(validatePayment(context(good))).toEqual({});
  });

  it('asks for each missing card field', () => {
    expect(validatePayment(context({ card_number: '', card_expiry: '', card_cvv: '' }))).toEqual({
      card_number: 'Enter your card number.',
      card_expiry: 'Enter the expiry date as MM / YY.',
      card_cvv: 'Enter the 3-digit security code on the back of the card.',
    });
  });

  it("uses the server's card rules: brand, typos, expiry, CVV length", () => {
    expect(validatePayment(context({ ...good, card_number: '3530111333300000' })).card_number).toMatch(
      /^We accept Visa, Mastercard, Discover and American Express/,
    );
    expect(validatePayment(context({ ...good, card_number: '4111111111111112' })).card_number).toMatch(
      /typos/,
    );
    expect(validatePayment(context({ ...good, card_expiry: '10 / 26' })).card_expiry).toBe(
      'This card has expired. Use another card.',
    );
    expect(validatePayment(context({ ...good, card_expiry: '13/28' })).card_expiry).toBe(
      'Enter the expiry date as MM / YY, like 04 / 28.',
    );
    expect(validatePayment(context({ ...good, card_number: '378282246310005' })).card_cvv).toMatch(/4-digit/);
  });

  it('takes test cards from the client options as they are', () => {
    expect(validatePayment(context({ ...good, card_number: '4242424242424242' }))).toEqual({});
  });

  it('does not check a card when paying by PayPal, only the terms box', () => {
    const errors = validatePayment(
      context(
        { card_number: '' },
        { expressPaymentTokenId: 'pt_1', subscriptionTerms: { display: true, value: false } },
      ),
    );
    expect(errors).toEqual({
      subscription_terms: 'Agree to the subscription terms to start your subscription.',
    });
  });
});
