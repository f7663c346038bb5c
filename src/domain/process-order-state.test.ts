import { describe, expect, it } from 'vitest';
import {
  initialProcessOrderState,
  processOrder,
  shouldDisplaySubscriptionTerms,
  type ProcessOrderOptions,
} from './process-order-state.js';

const options = (
  terms = { display: true, autoChecked: false },
  optIn = { display: true, autoChecked: false },
) => ({ subscriptionTermsCheckbox: terms, emailOptInCheckbox: optIn }) satisfies ProcessOrderOptions;

const recurring = { isRecurring: true, offers: [{ is_gift: false }] };
const oneOff = { isRecurring: false, offers: [{ is_gift: false }] };
const allGifts = { isRecurring: true, offers: [{ is_gift: true }, { is_gift: true }] };

describe('shouldDisplaySubscriptionTerms', () => {
  it('displays the box when the option is on, the order is recurring and an offer is not a gift', () => {
    expect(shouldDisplaySubscriptionTerms({ display: true, autoChecked: false }, recurring)).toBe(true);
  });

  it('hides it when the option is off, the order is one-off, or every offer is a gift', () => {
    expect(shouldDisplaySubscriptionTerms({ display: false, autoChecked: false }, recurring)).toBe(false);
    expect(shouldDisplaySubscriptionTerms({ display: true, autoChecked: false }, oneOff)).toBe(false);
    expect(shouldDisplaySubscriptionTerms({ display: true, autoChecked: false }, allGifts)).toBe(false);
  });
});

describe('initialProcessOrderState', () => {
  it('starts disabled, not loading, not submitted and with validation off', () => {
    const state = initialProcessOrderState(options(), recurring);
    expect(state).toMatchObject({ disabled: true, loading: false, submitted: false, validation: false });
  });

  it('makes the terms value true when the box is not displayed', () => {
    expect(initialProcessOrderState(options(), oneOff).subscriptionTerms).toEqual({
      display: false,
      value: true,
    });
  });

  it('makes the terms value true when the box is auto-checked, false otherwise', () => {
    expect(
      initialProcessOrderState(options({ display: true, autoChecked: true }), recurring).subscriptionTerms,
    ).toEqual({ display: true, value: true });
    expect(initialProcessOrderState(options(), recurring).subscriptionTerms).toEqual({
      display: true,
      value: false,
    });
  });

  it('starts the email opt-in from its auto-checked option', () => {
    expect(
      initialProcessOrderState(options(undefined, { display: true, autoChecked: true })).emailOptIn,
    ).toEqual({ display: true, value: true });
    expect(initialProcessOrderState(options()).emailOptIn.value).toBe(false);
  });
});

describe('processOrder', () => {
  it('toggles the displayed terms box', () => {
    const state = initialProcessOrderState(options(), recurring);
    const checked = processOrder(state, { type: 'toggleSubscriptionTerms' });
    expect(checked.subscriptionTerms.value).toBe(true);
    expect(processOrder(checked, { type: 'toggleSubscriptionTerms' }).subscriptionTerms.value).toBe(false);
  });

  it('yields true when toggling a terms box that is not displayed', () => {
    const state = initialProcessOrderState(options(), oneOff);
    expect(processOrder(state, { type: 'toggleSubscriptionTerms' }).subscriptionTerms.value).toBe(true);
  });

  it('recomputes the terms display after each cart fetch', () => {
    const start = initialProcessOrderState(options(), oneOff);
    const nowRecurring = processOrder(start, { type: 'cartFetched', facts: recurring, options: options() });
    expect(nowRecurring.subscriptionTerms).toEqual({ display: true, value: false });
    const accepted = processOrder(nowRecurring, { type: 'toggleSubscriptionTerms' });
    const refetched = processOrder(accepted, { type: 'cartFetched', facts: recurring, options: options() });
    expect(refetched.subscriptionTerms).toEqual({ display: true, value: true });
    const giftsOnly = processOrder(refetched, { type: 'cartFetched', facts: allGifts, options: options() });
    expect(giftsOnly.subscriptionTerms).toEqual({ display: false, value: true });
  });

  it('toggles the email opt-in', () => {
    const state = initialProcessOrderState(options());
    expect(processOrder(state, { type: 'toggleEmailOptIn' }).emailOptIn.value).toBe(true);
  });

  it('sets and resets the validation trigger', () => {
    const triggered = processOrder(initialProcessOrderState(options()), { type: 'triggerValidation' });
    expect(triggered.validation).toBe(true);
    expect(processOrder(triggered, { type: 'resetValidation' }).validation).toBe(false);
  });

  it('marks an order as loading and submitted, and stops loading when it finishes', () => {
    const submitting = processOrder(initialProcessOrderState(options()), { type: 'submit' });
    expect(submitting).toMatchObject({ loading: true, submitted: true });
    expect(processOrder(submitting, { type: 'finish' })).toMatchObject({ loading: false, submitted: true });
  });

  it('enables and disables the order button', () => {
    const enabled = processOrder(initialProcessOrderState(options()), {
      type: 'setDisabled',
      disabled: false,
    });
    expect(enabled.disabled).toBe(false);
  });
});
