import { describe, expect, it } from 'vitest';
import { shouldDisplaySubscriptionTerms, subscriptionTermsValue } from './subscription-terms.js';

describe('shouldDisplaySubscriptionTerms', () => {
  const gift = { is_gift: true };
  const plain = { is_gift: false };

  it('shows the box for a recurring order with an offer that is not a gift, when the option is on', () => {
    expect(
      shouldDisplaySubscriptionTerms({ optionDisplay: true, isRecurring: true, offers: [gift, plain] }),
    ).toBe(true);
  });

  it('hides it when the option is off, the order is one-off, or every offer is a gift', () => {
    expect(shouldDisplaySubscriptionTerms({ optionDisplay: false, isRecurring: true, offers: [plain] })).toBe(
      false,
    );
    expect(shouldDisplaySubscriptionTerms({ optionDisplay: true, isRecurring: false, offers: [plain] })).toBe(
      false,
    );
    expect(shouldDisplaySubscriptionTerms({ optionDisplay: true, isRecurring: true, offers: [gift] })).toBe(
      false,
    );
  });
});

describe('subscriptionTermsValue', () => {
  it('is true when hidden or auto-checked, else the tick', () => {
    expect(subscriptionTermsValue({ displayed: false, autoChecked: false, checked: false })).toBe(true);
    expect(subscriptionTermsValue({ displayed: true, autoChecked: true, checked: false })).toBe(true);
    expect(subscriptionTermsValue({ displayed: true, autoChecked: false, checked: false })).toBe(false);
    expect(subscriptionTermsValue({ displayed: true, autoChecked: false, checked: true })).toBe(true);
  });
});
