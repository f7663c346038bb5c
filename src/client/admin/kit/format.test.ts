import { describe, expect, it } from 'vitest';
import { formatMoney } from './format.js';

describe('formatMoney', () => {
  it("writes the API's major units in the store's currency, with its own decimals", () => {
    expect(formatMoney(49.99, 'USD')).toBe('$49.99');
    expect(formatMoney(1200, 'JPY')).toBe('¥1,200');
    expect(formatMoney(0, 'EUR')).toBe('€0.00');
  });
});
