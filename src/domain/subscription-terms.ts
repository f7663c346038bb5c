/**
 * The subscription-terms checkbox is displayed only if the client option is on, the order is recurring and at least
 * one offer is not a gift. Recomputed after each cart fetch; the server requires acceptance exactly when it is shown.
 */
export function shouldDisplaySubscriptionTerms(input: {
  optionDisplay: boolean;
  isRecurring: boolean;
  offers: readonly { is_gift: boolean }[];
}): boolean {
  return input.optionDisplay && input.isRecurring && input.offers.some((offer) => !offer.is_gift);
}

/** Its value: true when not displayed or auto-checked, else what the shopper ticked. */
export function subscriptionTermsValue(input: {
  displayed: boolean;
  autoChecked: boolean;
  checked: boolean;
}): boolean {
  return !input.displayed || input.autoChecked || input.checked;
}
