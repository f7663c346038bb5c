import { describe, expect, it } from 'vitest';
import {
  isSectionVisible,
  shouldShowBillingAddress,
  shouldShowGiftInformation,
  shouldShowPaymentInformation,
  shouldShowShippingAddress,
  visibleSectionMask,
  type VisibilityFacts,
} from './section-visibility.js';

const facts = (overrides: Partial<VisibilityFacts> = {}): VisibilityFacts => ({
  expressCheckoutActive: false,
  sameAddress: false,
  shippingInformationRequired: true,
  total: 54.12,
  isRecurring: false,
  hasGiftOffer: false,
  ...overrides,
});

describe('shouldShowBillingAddress', () => {
  it('shows billing for a paid order with a separate billing address', () => {
    expect(shouldShowBillingAddress(facts())).toBe(true);
  });

  it('hides billing when express checkout (PayPal) is active', () => {
    expect(shouldShowBillingAddress(facts({ expressCheckoutActive: true }))).toBe(false);
  });

  it('hides billing when the same-address box is checked and shipping information is required', () => {
    expect(shouldShowBillingAddress(facts({ sameAddress: true }))).toBe(false);
  });

  it('shows billing when the same-address box is checked but nothing ships', () => {
    expect(shouldShowBillingAddress(facts({ sameAddress: true, shippingInformationRequired: false }))).toBe(
      true,
    );
  });

  it('hides billing when the total is 0 and the order is not recurring', () => {
    expect(shouldShowBillingAddress(facts({ total: 0 }))).toBe(false);
  });

  it('shows billing for a recurring order with a total of 0 today', () => {
    expect(shouldShowBillingAddress(facts({ total: 0, isRecurring: true }))).toBe(true);
  });
});

describe('shouldShowShippingAddress', () => {
  it('is shown unless shipping information is not required', () => {
    expect(shouldShowShippingAddress(facts())).toBe(true);
    expect(shouldShowShippingAddress(facts({ shippingInformationRequired: false }))).toBe(false);
  });
});

describe('shouldShowGiftInformation', () => {
  it('is shown only when at least one offer is a gift', () => {
    expect(shouldShowGiftInformation(facts())).toBe(false);
    expect(shouldShowGiftInformation(facts({ hasGiftOffer: true }))).toBe(true);
  });
});

describe('shouldShowPaymentInformation', () => {
  it('hides payment when the total is 0 and the order is not recurring', () => {
    expect(shouldShowPaymentInformation(facts({ total: 0 }))).toBe(false);
  });

  it('shows payment for a paid order, and for a recurring order even at 0 today', () => {
    expect(shouldShowPaymentInformation(facts())).toBe(true);
    expect(shouldShowPaymentInformation(facts({ total: 0, isRecurring: true }))).toBe(true);
  });

  it('stays shown while express checkout is active', () => {
    expect(shouldShowPaymentInformation(facts({ expressCheckoutActive: true }))).toBe(true);
  });
});

describe('isSectionVisible', () => {
  it('always shows sections the table does not name', () => {
    const nothing = facts({ total: 0, shippingInformationRequired: false, expressCheckoutActive: true });
    expect(isSectionVisible('ContactInformation', nothing)).toBe(true);
    expect(isSectionVisible('SomethingElse', nothing)).toBe(true);
  });

  it('gives one flag per section in the organization order', () => {
    const sections = [
      { component: 'ContactInformation' },
      { component: 'ShippingAddress' },
      { component: 'BillingAddress' },
      { component: 'GiftInformation' },
      { component: 'PaymentInformation' },
    ];
    expect(visibleSectionMask(sections, facts({ sameAddress: true }))).toEqual([
      true,
      true,
      false,
      false,
      true,
    ]);
    expect(visibleSectionMask(sections, facts({ total: 0, hasGiftOffer: true }))).toEqual([
      true,
      true,
      false,
      true,
      false,
    ]);
  });
});
