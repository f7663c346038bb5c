import { describe, expect, it } from 'vitest';
import { findUnstorableCharacter } from './unstorable-characters.js';

describe('findUnstorableCharacter', () => {
  it('finds a NUL character in strings, nested values and keys', () => {
    expect(findUnstorableCharacter('a\u0000b')).toBe('nul');
    expect(findUnstorableCharacter({ a: [{ b: 'x\u0000' }] })).toBe('nul');
    expect(findUnstorableCharacter({ ['k\u0000']: 1 })).toBe('nul');
  });

  it('finds half of a surrogate pair standing alone, high or low, in strings, nested values and keys', () => {
    expect(findUnstorableCharacter('\ud800')).toBe('lone_surrogate');
    expect(findUnstorableCharacter('a\udc00b')).toBe('lone_surrogate');
    expect(findUnstorableCharacter('💳'.slice(0, 1))).toBe('lone_surrogate');
    expect(findUnstorableCharacter('💳'.slice(1))).toBe('lone_surrogate');
    expect(findUnstorableCharacter('\udc00\ud800')).toBe('lone_surrogate'); // both halves, the wrong way round
    expect(findUnstorableCharacter({ options: [{ name: '\ud800', value: 'x' }] })).toBe('lone_surrogate');
    expect(findUnstorableCharacter({ ['k\udbff']: 1 })).toBe('lone_surrogate');
  });

  it('passes text without either, including whole pairs and the escapes written out', () => {
    expect(
      findUnstorableCharacter({ a: ['\\u0000', '\\ud800', '%00', 0, null, true], b: { c: 'é💳𝄞' } }),
    ).toBeNull();
    expect(findUnstorableCharacter('\ud83d\udcb3')).toBeNull();
    expect(findUnstorableCharacter(undefined)).toBeNull();
  });
});
