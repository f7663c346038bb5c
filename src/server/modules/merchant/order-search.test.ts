import { describe, expect, it } from 'vitest';
import { createdRange, customerNameOf, parseOrderSearch } from './order-search.js';

describe('parseOrderSearch', () => {
  it('is no search when empty or blank', () => {
    expect(parseOrderSearch(undefined)).toEqual({ kind: 'all' });
    expect(parseOrderSearch('   ')).toEqual({ kind: 'all' });
  });

  it('reads digits, with or without a #, as an order number', () => {
    expect(parseOrderSearch(' 1042 ')).toEqual({ kind: 'number', orderId: 1042 });
    expect(parseOrderSearch('#7')).toEqual({ kind: 'number', orderId: 7 });
  });

  it('reads anything else as lower-case text inside a LIKE pattern, spaces collapsed', () => {
    expect(parseOrderSearch('  Ada   Lovelace ')).toEqual({ kind: 'text', pattern: '%ada lovelace%' });
    expect(parseOrderSearch('ADA@Example.com')).toEqual({ kind: 'text', pattern: '%ada@example.com%' });
    expect(parseOrderSearch('12a')).toEqual({ kind: 'text', pattern: '%12a%' });
  });

  it("escapes LIKE's own characters, so they match only themselves", () => {
    expect(parseOrderSearch('50%_off\\')).toEqual({ kind: 'text', pattern: '%50\\%\\_off\\\\%' });
  });

  it('takes a number too long to be an id as text', () => {
    expect(parseOrderSearch('1234567890123456').kind).toBe('text');
  });
});

describe('createdRange', () => {
  it('runs from the start of the first UTC day to the start of the day after the last', () => {
    expect(createdRange('2026-11-01', '2026-11-30')).toEqual({
      from: new Date('2026-11-01T00:00:00Z'),
      before: new Date('2026-12-01T00:00:00Z'),
    });
    expect(createdRange(undefined, undefined)).toEqual({ from: null, before: null });
  });
});

describe('customerNameOf', () => {
  it('names the billing person, else the shipping one, else no one', () => {
    const ada = { fname: 'Ada', lname: 'Lovelace' };
    const bob = { fname: ' Bob ', lname: '' };
    expect(customerNameOf(ada, bob)).toBe('Ada Lovelace');
    expect(customerNameOf(null, bob)).toBe('Bob');
    expect(customerNameOf({ fname: '', lname: '' }, ada)).toBe('Ada Lovelace');
    expect(customerNameOf(null, null)).toBe('');
  });
});
