/**
 * The order button's state and its two checkboxes (docs/checkout-rules.md#order-button).
 * Subscription terms: displayed only when the option is on, the order is recurring and at least one offer is not a
 * gift (a gift's recipient, not the buyer, is the subscriber); the value is true when the box is not displayed or is
 * auto-checked. Email opt-in starts from its auto-checked option.
 */
export interface CheckboxOption {
  display: boolean;
  autoChecked: boolean;
}

export interface CheckboxState {
  display: boolean;
  value: boolean;
}

export interface ProcessOrderState {
  disabled: boolean;
  loading: boolean;
  submitted: boolean;
  /** set to ask every shown section to validate (placing the order), reset afterwards */
  validation: boolean;
  subscriptionTerms: CheckboxState;
  emailOptIn: CheckboxState;
}

export interface OrderFacts {
  isRecurring: boolean;
  offers: readonly { is_gift: boolean }[];
}

export interface ProcessOrderOptions {
  subscriptionTermsCheckbox: CheckboxOption;
  emailOptInCheckbox: CheckboxOption;
}

export function shouldDisplaySubscriptionTerms(option: CheckboxOption, facts: OrderFacts): boolean {
  return option.display && facts.isRecurring && facts.offers.some((offer) => !offer.is_gift);
}

function subscriptionTermsFor(option: CheckboxOption, facts: OrderFacts): CheckboxState {
  const display = shouldDisplaySubscriptionTerms(option, facts);
  return { display, value: !display || option.autoChecked };
}

export function initialProcessOrderState(
  options: ProcessOrderOptions,
  facts: OrderFacts = { isRecurring: false, offers: [] },
): ProcessOrderState {
  return {
    disabled: true,
    loading: false,
    submitted: false,
    validation: false,
    subscriptionTerms: subscriptionTermsFor(options.subscriptionTermsCheckbox, facts),
    emailOptIn: {
      display: options.emailOptInCheckbox.display,
      value: options.emailOptInCheckbox.autoChecked,
    },
  };
}

export type ProcessOrderAction =
  /** after each cart fetch: the terms box's display is recomputed with the same condition */
  | { type: 'cartFetched'; facts: OrderFacts; options: ProcessOrderOptions }
  | { type: 'toggleSubscriptionTerms' }
  | { type: 'toggleEmailOptIn' }
  | { type: 'setDisabled'; disabled: boolean }
  | { type: 'triggerValidation' }
  | { type: 'resetValidation' }
  | { type: 'submit' }
  | { type: 'finish' };

export function processOrder(state: ProcessOrderState, action: ProcessOrderAction): ProcessOrderState {
  switch (action.type) {
    case 'cartFetched': {
      const option = action.options.subscriptionTermsCheckbox;
      const display = shouldDisplaySubscriptionTerms(option, action.facts);
      let value: boolean;
      if (!display) value = true;
      // A box that just appeared starts from its option; one already shown keeps the shopper's choice.
      else if (!state.subscriptionTerms.display) value = option.autoChecked;
      else value = state.subscriptionTerms.value;
      return { ...state, subscriptionTerms: { display, value } };
    }
    case 'toggleSubscriptionTerms':
      return {
        ...state,
        subscriptionTerms: {
          ...state.subscriptionTerms,
          value: state.subscriptionTerms.display ? !state.subscriptionTerms.value : true,
        },
      };
    case 'toggleEmailOptIn':
      return { ...state, emailOptIn: { ...state.emailOptIn, value: !state.emailOptIn.value } };
    case 'setDisabled':
      return { ...state, disabled: action.disabled };
    case 'triggerValidation':
      return { ...state, validation: true };
    case 'resetValidation':
      return { ...state, validation: false };
    case 'submit':
      return { ...state, loading: true, submitted: true };
    case 'finish':
      return { ...state, loading: false };
  }
}
