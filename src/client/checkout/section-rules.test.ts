import { describe, expect, it } from 'vitest';
import { englishT } from '../testing/english-t.js';
import { cartFixture, FILLED_CUSTOMER, offerFixture, US_PROFILES } from '../testing/fixtures.js';
import { initialForm } from './form/checkout-form.js';
import {
  formFieldOfOrderPath,
  orderedErrors,
  sectionOfField,
  validateSection,
  type SectionContext,
} from './section-rules.js';

const now = new Date(2026, 10, 15);

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

describe('validateSection', () => {
  it('finds a filled contact and shipping address complete', () => {
    expect(validateSection('ContactInformation', context())).toEqual({});
    expect(validateSection('ShippingAddress', context())).toEqual({});
  });

  it('asks for a shipping method when the address has some', () => {
    const cart = cartFixture({ customer: FILLED_CUSTOMER, order: { shipping_profiles: US_PROFILES } });
    expect(validateSection('ShippingAddress', context({ cart })).shipping_profile_id).toBe(
      'Choose a shipping method.',
    );
  });

  it('keys billing errors with the bill_ prefix', () => {
    const errors = validateSection('BillingAddress', context());
    expect(errors.bill_fname).toBe('Enter a first name.');
  });

  it('validates each gift with the offer id in the field name', () => {
    const cart = cartFixture({ offers: [offerFixture({ id: 7, is_gift: true, is_giftable: true })] });
    expect(validateSection('GiftInformation', context({ cart }))).toMatchObject({
      gift_name_7: 'Enter the recipient’s name.',
      gift_email_7: 'Enter the recipient’s email address.',
    });
  });

  it('checks the displayed terms box in the payment section (the card is checked by the payment step)', () => {
    expect(validateSection('PaymentInformation', context())).toEqual({});
    expect(
      validateSection('PaymentInformation', context({ subscriptionTerms: { display: true, value: false } })),
    ).toEqual({ subscription_terms: 'Agree to the subscription terms to start your subscription.' });
  });
});

describe('order answers', () => {
  it('maps body paths to form fields and fields to sections', () => {
    // The server's refusals of the card (an unusable token, a brand it does not take) are the card fields'.
    expect(formFieldOfOrderPath('payment.card_token')).toBe('card_details');
    expect(formFieldOfOrderPath('payment.authenticated_payment')).toBe('card_details');
    expect(sectionOfField('card_details')).toBe('PaymentInformation');
    expect(formFieldOfOrderPath('ship_zipcode')).toBe('ship_zipcode');
    expect(sectionOfField('ship_zipcode')).toBe('ShippingAddress');
    expect(sectionOfField('gift_email_12')).toBe('GiftInformation');
    expect(sectionOfField('subscription_terms')).toBe('PaymentInformation');
    expect(sectionOfField('email')).toBe('ContactInformation');
    expect(sectionOfField('unknown')).toBeNull();
  });

  it('orders errors as the fields appear', () => {
    const cart = cartFixture();
    expect(
      orderedErrors('ShippingAddress', cart, { ship_zipcode: 'z', ship_country: 'c', email: 'elsewhere' }),
    ).toEqual([
      ['ship_country', 'c'],
      ['ship_zipcode', 'z'],
    ]);
  });
});
