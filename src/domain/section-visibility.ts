/**
 * Which checkout sections a shopper sees (docs/checkout-rules.md#section-visibility). Hidden sections do not appear
 * at all, so numbering and navigation skip them.
 */
export interface VisibilityFacts {
  /** an approved express (PayPal-style) payment is being used */
  expressCheckoutActive: boolean;
  /** the "billing address is the same as shipping" box */
  sameAddress: boolean;
  shippingInformationRequired: boolean;
  /** the cart total in major units */
  total: number;
  isRecurring: boolean;
  /** at least one offer is a gift */
  hasGiftOffer: boolean;
}

export function shouldShowBillingAddress(facts: VisibilityFacts): boolean {
  if (facts.expressCheckoutActive) return false;
  if (facts.sameAddress && facts.shippingInformationRequired) return false;
  if (facts.total === 0 && !facts.isRecurring) return false;
  return true;
}

export function shouldShowShippingAddress(facts: VisibilityFacts): boolean {
  return facts.shippingInformationRequired;
}

export function shouldShowGiftInformation(facts: VisibilityFacts): boolean {
  return facts.hasGiftOffer;
}

/** A free, one-off order needs no payment. */
export function shouldShowPaymentInformation(facts: VisibilityFacts): boolean {
  return !(facts.total === 0 && !facts.isRecurring);
}

/** Section component types the table names; every other type is always shown. */
export function isSectionVisible(component: string, facts: VisibilityFacts): boolean {
  switch (component) {
    case 'BillingAddress':
      return shouldShowBillingAddress(facts);
    case 'ShippingAddress':
      return shouldShowShippingAddress(facts);
    case 'GiftInformation':
      return shouldShowGiftInformation(facts);
    case 'PaymentInformation':
      return shouldShowPaymentInformation(facts);
    default:
      return true;
  }
}

/** One flag per section of the organization's ordered list. */
export function visibleSectionMask(
  sections: readonly { component: string }[],
  facts: VisibilityFacts,
): boolean[] {
  return sections.map((section) => isSectionVisible(section.component, facts));
}
