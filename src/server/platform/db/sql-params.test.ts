import { describe, expect, it } from 'vitest';
import { SqlParams } from './sql-params.js';

describe('SqlParams', () => {
  it('numbers each parameter after the ones a shared fragment already numbered', () => {
    const params = new SqlParams(['org', 'cart']);
    expect(params.add(7)).toBe('$3');
    expect(params.add(true, 'boolean')).toBe('$4::boolean');
    expect(params.values).toEqual(['org', 'cart', 7, true]);
  });

  it('lists several parameters with their casts', () => {
    const params = new SqlParams();
    expect(params.list([[1], ['a']], ['bigint[]', 'text[]'])).toBe('$1::bigint[], $2::text[]');
    expect(params.list(['x', 'y'])).toBe('$3, $4');
    expect(params.values).toEqual([[1], ['a'], 'x', 'y']);
  });
});
