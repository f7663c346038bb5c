import { describe, expect, it } from 'vitest';
import { isJsonNestedDeeperThan } from './json-body-parser.js';

describe('isJsonNestedDeeperThan', () => {
  it('counts nesting of arrays and objects together', () => {
    expect(isJsonNestedDeeperThan('{"a":[{"b":[1]}]}', 4)).toBe(false);
    expect(isJsonNestedDeeperThan('{"a":[{"b":[1]}]}', 3)).toBe(true);
    expect(isJsonNestedDeeperThan('[[],[],[],[]]', 2)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(isJsonNestedDeeperThan('{"a":"[[[[{{{{"}', 1)).toBe(false);
    expect(isJsonNestedDeeperThan('{"a":"\\"[[[[", "b":"\\\\"}', 1)).toBe(false);
    expect(isJsonNestedDeeperThan('{"a":"\\\\", "b":[[1]]}', 2)).toBe(true);
  });

  it('stops at once on very deep input', () => {
    expect(isJsonNestedDeeperThan('['.repeat(100_000), 32)).toBe(true);
  });
});
