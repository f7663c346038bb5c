import { describe, expect, it } from 'vitest';
import { chosenEvents, kindLabel, orderFilterOf } from './developer-words.js';

describe('kindLabel', () => {
  it("writes an email's kind as words", () => {
    expect(kindLabel('subscription_welcome')).toBe('Subscription welcome');
    expect(kindLabel('order_receipt')).toBe('Order receipt');
  });
});

describe('orderFilterOf', () => {
  it("reads the email log's order id from the address, keeping what is not an id for the server to refuse", () => {
    expect(orderFilterOf('?order_id=%2042%20')).toBe('42');
    expect(orderFilterOf('?order_id=abc')).toBe('abc');
    expect(orderFilterOf('')).toBe('');
  });
});

describe('chosenEvents', () => {
  it('sends the chosen events in the order the contract lists them', () => {
    expect(chosenEvents(['a', 'b', 'c'], new Set(['c', 'a']))).toEqual(['a', 'c']);
  });
});
