import { describe, expect, it } from 'vitest';
import { containsPattern, subscriptionSearchOf } from './subscription-search.js';

describe('subscriptionSearchOf', () => {
  it('looks for an id when the search is all digits', () => {
    expect(subscriptionSearchOf(' 42 ')).toEqual({ kind: 'id', id: 42 });
  });

  it('looks for part of an email, whatever its case', () => {
    expect(subscriptionSearchOf('Ada@Example')).toEqual({ kind: 'email', pattern: '%ada@example%' });
  });

  it('looks for nothing when the search is empty', () => {
    expect(subscriptionSearchOf(undefined)).toEqual({ kind: 'none' });
    expect(subscriptionSearchOf('   ')).toEqual({ kind: 'none' });
  });

  it('takes a number too long for an id as text', () => {
    expect(subscriptionSearchOf('1234567890123456')).toMatchObject({ kind: 'email' });
  });
});

describe('containsPattern', () => {
  it('takes %, _ and backslash literally', () => {
    expect(containsPattern('a_b%c\\d')).toBe('%a\\_b\\%c\\\\d%');
  });
});
