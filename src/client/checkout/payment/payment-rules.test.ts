import { describe, expect, it } from 'vitest';
import { englishT } from '../../testing/english-t.js';
import { cartFixture, FILLED_CUSTOMER } from '../../testing/fixtures.js';
import { initialForm } from '../form/checkout-form.js';
import type { SectionContext } from '../section-rules.js';
import type { CardView } from './card-session.js';
import { validatePayment as validateWith } from './payment-rules.js';

const validatePayment = (context: SectionContext, card: CardView | null) =>
  validateWith(context, card, englishT);
const CARD_INCOMPLETE = englishT('payment.card_incomplete');
const CARD_LOADING = englishT('payment.card_loading');
const CARD_MISSING = englishT('payment.card_missing');
const CARD_UNAVAILABLE = englishT('payment.card_unavailable');

const now = new Date(Date.UTC(2026, 10, 15));

function context(overrides: Partial<SectionContext> = {}): SectionContext {
  const cart = overrides.cart ?? cartFixture({ customer: FILLED_CUSTOMER });
  return {
    cart,
    form: initialForm(cart, null, now),
    now,
    expressPaymentTokenId: null,
    subscriptionTerms: { display: false, value: true },
    t: englishT,
    ...overrides,
  };
}

const ready = (state: Partial<CardView['state']> = {}): CardView => ({
  status: 'ready',
  fillable: false,
  state: { brand: 'visa', complete: true, empty: false, error: null, ...state },
});

describe('validatePayment', () => {
  it('accepts complete card fields of a brand the store takes, and a test card', () => {
    expect(validatePayment(context(), ready())).toEqual({});
    expect(validatePayment(context(), ready({ brand: 'testcard' }))).toEqual({});
  });

  it('accepts a complete card whose brand the processor does not say (a wallet)', () => {
    expect(validatePayment(context(), ready({ brand: null }))).toEqual({});
  });

  it('asks for the card while the fields are empty, and for the rest while they are incomplete', () => {
    expect(validatePayment(context(), ready({ brand: null, empty: true, complete: false }))).toEqual({
      card_details: CARD_MISSING,
    });
    expect(CARD_MISSING).toBe('Enter your card number.');
    expect(validatePayment(context(), ready({ complete: false }))).toEqual({ card_details: CARD_INCOMPLETE });
  });

  it('refuses any other brand with the words the server uses, before the frame’s own error', () => {
    expect(
      validatePayment(
        context(),
        ready({ brand: 'other', complete: true, error: 'Your card number is invalid.' }),
      ),
    ).toEqual({
      card_details: 'We accept Visa, Mastercard, Discover and American Express. Use one of those cards.',
    });
  });

  it('shows the frame’s own error', () => {
    expect(
      validatePayment(
        context(),
        ready({ complete: false, error: 'Your card’s expiry date is in the past.' }),
      ),
    ).toEqual({ card_details: 'Your card’s expiry date is in the past.' });
  });

  it('waits for fields that are still loading, and says when they could not load', () => {
    expect(validatePayment(context(), { status: 'loading', fillable: false, state: ready().state })).toEqual({
      card_details: CARD_LOADING,
    });
    expect(validatePayment(context(), null)).toEqual({ card_details: CARD_LOADING });
    expect(validatePayment(context(), { status: 'failed', fillable: false, state: ready().state })).toEqual({
      card_details: CARD_UNAVAILABLE,
    });
  });

  it('does not check a card when paying by PayPal, only the terms box', () => {
    const errors = validatePayment(
      context({ expressPaymentTokenId: 'pt_1', subscriptionTerms: { display: true, value: false } }),
      ready({ empty: true, complete: false }),
    );
    expect(errors).toEqual({
      subscription_terms: 'Agree to the subscription terms to start your subscription.',
    });
  });

  it('does not check a card for an order that pays nothing', () => {
    const cart = cartFixture({ customer: FILLED_CUSTOMER, total: 0 });
    expect(validatePayment(context({ cart }), null)).toEqual({});
  });
});
