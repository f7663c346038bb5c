import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ORDER_OFFER_QUANTITY,
  canChangeCartItems,
  canRemoveCartLine,
  isCartEditable,
  isLineQuantityAllowed,
  testCardsFrom,
  type CartItemFacts,
} from './editable-cart.js';

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

describe('canChangeCartItems', () => {
  const open: CartItemFacts = {
    editable: { value: true, override: null },
    isGiftClaim: false,
    orderStatus: null,
  };

  it('lets an editable cart change before any order attempt', () => {
    expect(canChangeCartItems(open)).toBe(true);
  });

  // The page lost its quantity controls after a declined card: the rule read "no order yet".
  it('keeps the lines open to change after a declined or failed attempt', () => {
    expect(canChangeCartItems({ ...open, orderStatus: 'declined' })).toBe(true);
    expect(canChangeCartItems({ ...open, orderStatus: 'pending' })).toBe(true);
  });

  it('freezes the lines once the order is paid or handed to an express payment', () => {
    expect(canChangeCartItems({ ...open, orderStatus: 'complete' })).toBe(false);
    expect(canChangeCartItems({ ...open, orderStatus: 'awaiting_payment' })).toBe(false);
  });

  it('never lets a gift claim or a store that does not allow it change the lines', () => {
    expect(canChangeCartItems({ ...open, isGiftClaim: true })).toBe(false);
    expect(canChangeCartItems({ ...open, editable: { value: true, override: false } })).toBe(false);
    expect(canChangeCartItems({ ...open, editable: null })).toBe(false);
  });
});

describe('canRemoveCartLine', () => {
  it('removes a line only while another one stays', () => {
    expect(canRemoveCartLine(2)).toBe(true);
    expect(canRemoveCartLine(1)).toBe(false);
    expect(canRemoveCartLine(0)).toBe(false);
  });
});

describe('isLineQuantityAllowed', () => {
  it('takes 1 to 99, and 0 to remove', () => {
    for (const quantity of [0, 1, 50, 99]) expect(isLineQuantityAllowed(quantity)).toBe(true);
    for (const quantity of [-1, 100, 1.5, Number.NaN]) expect(isLineQuantityAllowed(quantity)).toBe(false);
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
