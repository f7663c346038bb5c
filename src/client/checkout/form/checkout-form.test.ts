import { describe, expect, it } from 'vitest';
import { cartFixture, FILLED_CUSTOMER, offerFixture } from '../../testing/fixtures.js';
import {
  formReducer,
  initialForm,
  persistableForm,
  readStoredForm,
  writeStoredForm,
  type CheckoutForm,
} from './checkout-form.js';

const now = new Date(2026, 10, 15);

describe('initialForm', () => {
  it("starts from the cart's customer, with the store's country and same-address default", () => {
    const form = initialForm(cartFixture({ customer: FILLED_CUSTOMER }), null, now);
    expect(form.text.email).toBe('ada@example.com');
    expect(form.text.ship_zipcode).toBe('73301');
    expect(form.text.bill_country).toBe('US');
    expect(form.sameAddress).toBe(true);
  });

  it('prefills gift fields per gift offer, the date defaulting to today', () => {
    const gift = offerFixture({ id: 7, is_gift: true, is_giftable: true, gift_name: 'Grace' });
    const form = initialForm(cartFixture({ offers: [gift] }), null, now);
    expect(form.text.gift_name_7).toBe('Grace');
    expect(form.text.gift_date_7).toBe('2026-11-15');
  });

  it('lets what this tab stored win over the cart, but never takes card data from storage', () => {
    const form = initialForm(
      cartFixture({ customer: FILLED_CUSTOMER }),
      { text: { email: 'grace@example.com', card_number: '4111111111111111' }, sameAddress: false },
      now,
    );
    expect(form.text.email).toBe('grace@example.com');
    expect(form.text.card_number).toBe('');
    expect(form.sameAddress).toBe(false);
  });
});

describe('persistableForm', () => {
  it('keeps every typed field except the card number, expiry and CVV', () => {
    const form: CheckoutForm = {
      text: { email: 'a@b.co', card_number: '4111111111111111', card_cvv: '123', card_expiry: '04 / 28' },
      sameAddress: true,
      errors: { email: 'x' },
    };
    expect(persistableForm(form)).toEqual({ text: { email: 'a@b.co' }, sameAddress: true });
  });

  it('round-trips through session storage without the card fields', () => {
    const form: CheckoutForm = {
      text: { email: 'a@b.co', card_number: '4111111111111111', card_cvv: '123' },
      sameAddress: false,
      errors: {},
    };
    writeStoredForm(window.sessionStorage, 'T1', form);
    expect(window.sessionStorage.getItem('secure-checkout:T1')).not.toContain('4111');
    expect(readStoredForm(window.sessionStorage, 'T1')).toEqual({
      text: { email: 'a@b.co' },
      sameAddress: false,
    });
  });

  it('ignores a damaged stored value', () => {
    window.sessionStorage.setItem('secure-checkout:T2', '{not json');
    expect(readStoredForm(window.sessionStorage, 'T2')).toBeNull();
  });
});

describe('formReducer', () => {
  it('replaces the errors of the named fields only', () => {
    const form: CheckoutForm = { text: {}, sameAddress: true, errors: { email: 'old', ship_city: 'keep' } };
    const next = formReducer(form, {
      type: 'setErrors',
      names: ['email', 'phone'],
      errors: { phone: 'new' },
    });
    expect(next.errors).toEqual({ ship_city: 'keep', phone: 'new' });
  });

  it('clears the card fields', () => {
    const form: CheckoutForm = {
      text: { card_number: '4111', card_cvv: '123', email: 'a' },
      sameAddress: true,
      errors: {},
    };
    expect(formReducer(form, { type: 'clearSensitive' }).text).toEqual({
      card_number: '',
      card_cvv: '',
      card_expiry: '',
      email: 'a',
    });
  });
});

describe('setCheckedError', () => {
  const form: CheckoutForm = { text: { card_number: '3530' }, sameAddress: true, errors: {} };

  it("shows a blur check's message while the field still holds the value checked", () => {
    const next = formReducer(form, {
      type: 'setCheckedError',
      name: 'card_number',
      value: '3530',
      error: 'Use one of those cards.',
    });
    expect(next.errors).toEqual({ card_number: 'Use one of those cards.' });
    expect(
      formReducer(next, { type: 'setCheckedError', name: 'card_number', value: '3530', error: undefined })
        .errors,
    ).toEqual({});
  });

  // The check waits for the click that moved the focus; the click may have changed the field (a copied address).
  it('drops a check made on a value the field no longer holds', () => {
    const changed = formReducer(form, { type: 'set', name: 'card_number', value: '4111' });
    expect(
      formReducer(changed, {
        type: 'setCheckedError',
        name: 'card_number',
        value: '3530',
        error: 'Use one of those cards.',
      }),
    ).toBe(changed);
  });
});
