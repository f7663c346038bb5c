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

  it('lets what this tab stored win over the cart', () => {
    const form = initialForm(
      cartFixture({ customer: FILLED_CUSTOMER }),
      { text: { email: 'grace@example.com' }, sameAddress: false },
      now,
    );
    expect(form.text.email).toBe('grace@example.com');
    expect(form.sameAddress).toBe(false);
  });

  it('holds no card field: the card is typed into the processor’s frame', () => {
    const form = initialForm(cartFixture({ customer: FILLED_CUSTOMER }), null, now);
    expect(Object.keys(form.text).filter((name) => name.startsWith('card'))).toEqual([]);
  });
});

describe('persistableForm', () => {
  it('keeps every typed field and the same-address box, not the errors', () => {
    const form: CheckoutForm = {
      text: { email: 'a@b.co', ship_city: 'Austin' },
      sameAddress: true,
      errors: { email: 'x' },
    };
    expect(persistableForm(form)).toEqual({
      text: { email: 'a@b.co', ship_city: 'Austin' },
      sameAddress: true,
    });
  });

  it('round-trips through session storage', () => {
    const form: CheckoutForm = { text: { email: 'a@b.co' }, sameAddress: false, errors: {} };
    writeStoredForm(window.sessionStorage, 'T1', form);
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
});

describe('setCheckedError', () => {
  const form: CheckoutForm = { text: { ship_zipcode: '7330' }, sameAddress: true, errors: {} };

  it("shows a blur check's message while the field still holds the value checked", () => {
    const next = formReducer(form, {
      type: 'setCheckedError',
      name: 'ship_zipcode',
      value: '7330',
      error: 'Enter a 5-digit ZIP code.',
    });
    expect(next.errors).toEqual({ ship_zipcode: 'Enter a 5-digit ZIP code.' });
    expect(
      formReducer(next, { type: 'setCheckedError', name: 'ship_zipcode', value: '7330', error: undefined })
        .errors,
    ).toEqual({});
  });

  // The check waits for the click that moved the focus; the click may have changed the field (a copied address).
  it('drops a check made on a value the field no longer holds', () => {
    const changed = formReducer(form, { type: 'set', name: 'ship_zipcode', value: '73301' });
    expect(
      formReducer(changed, {
        type: 'setCheckedError',
        name: 'ship_zipcode',
        value: '7330',
        error: 'Enter a 5-digit ZIP code.',
      }),
    ).toBe(changed);
  });
});
