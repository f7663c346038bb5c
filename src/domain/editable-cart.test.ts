import { describe, expect, it } from 'vitest';
import { DEFAULT_ORDER_OFFER_QUANTITY, isCartEditable, testCardsFrom } from './editable-cart.js';

describe('isCartEditable', () => {
  it('starts false while the option is unknown', () => {
    expect(isCartEditable(undefined)).toBe(false);
    expect(isCartEditable(null)).toBe(false);
  });

  it('takes the option value when no override is set', () => {
    expect(isCartEditable({ value: true, override: null })).toBe(true);
    expect(isCartEditable({ value: false, override: null })).toBe(false);
  });

  it('lets the override win', () => {
    expect(isCartEditable({ value: true, override: false })).toBe(false);
    expect(isCartEditable({ value: false, override: true })).toBe(true);
  });
});

describe('defaults', () => {
  it('starts an order offer quantity at 1', () => {
    expect(DEFAULT_ORDER_OFFER_QUANTITY).toBe(1);
  });

  it('takes test cards from the option only when the list is non-empty', () => {
    expect(testCardsFrom(['4242424242424242'])).toEqual(['4242424242424242']);
    expect(testCardsFrom([])).toEqual([]);
    expect(testCardsFrom(undefined)).toEqual([]);
  });
});
