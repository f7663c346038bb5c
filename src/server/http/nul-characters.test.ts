import { describe, expect, it } from 'vitest';
import { containsNulCharacter } from './nul-characters.js';

describe('containsNulCharacter', () => {
  it('finds a NUL character in strings, nested values and keys', () => {
    expect(containsNulCharacter('a\u0000b')).toBe(true);
    expect(containsNulCharacter({ a: [{ b: 'x\u0000' }] })).toBe(true);
    expect(containsNulCharacter({ ['k\u0000']: 1 })).toBe(true);
  });

  it('passes text without one, including the escape written out', () => {
    expect(containsNulCharacter({ a: ['\\u0000', '%00', 0, null, true], b: { c: 'é💳' } })).toBe(false);
    expect(containsNulCharacter(undefined)).toBe(false);
  });
});
