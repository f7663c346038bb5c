import { describe, expect, it } from 'vitest';
import { isCartEditable } from './editable-cart.js';

describe('isCartEditable', () => {
  it('takes the value when no override is set', () => {
    expect(isCartEditable({ value: true, override: null })).toBe(true);
    expect(isCartEditable({ value: false, override: null })).toBe(false);
  });

  it('lets the override win over the value', () => {
    expect(isCartEditable({ value: false, override: true })).toBe(true);
    expect(isCartEditable({ value: true, override: false })).toBe(false);
  });
});
