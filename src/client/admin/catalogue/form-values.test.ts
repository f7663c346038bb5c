import { describe, expect, it } from 'vitest';
import { amountOf, changedFields, isoToLocal, localToIso, wholeOf, withoutEmpty } from './form-values.js';

describe('amountOf', () => {
  it('reads an amount as a number, and leaves what is not one for the server to refuse', () => {
    expect(amountOf(' 12.5 ')).toBe(12.5);
    expect(amountOf('12.345')).toBe(12.345);
    expect(amountOf('12,50')).toBe('12,50');
    expect(amountOf('')).toBeUndefined();
  });

  it('reads whole numbers only as whole numbers', () => {
    expect(wholeOf('30')).toBe(30);
    expect(wholeOf('2.5')).toBe('2.5');
    expect(wholeOf(' ')).toBeUndefined();
  });
});

describe('changedFields', () => {
  it('keeps only what changed, comparing lists and objects by value', () => {
    const before = { name: 'Tea', price: 12, options: [{ name: 'Size', value: 'S' }], active: true };
    const next = { name: 'Tea', price: 13, options: [{ name: 'Size', value: 'S' }], active: true };
    expect(changedFields(before, next)).toEqual({ price: 13 });
  });

  it('sends a field emptied as null', () => {
    expect(changedFields({ image: 'https://x.example/a.png' }, { image: undefined })).toEqual({
      image: null,
    });
  });
});

describe('withoutEmpty', () => {
  it('leaves out the fields left empty', () => {
    expect(withoutEmpty({ a: 1, b: undefined, c: null })).toEqual({ a: 1, c: null });
  });
});

describe('localToIso', () => {
  it('gives the moment with the offset of the zone it was typed in', () => {
    expect(localToIso('2026-12-01T09:30', () => -60)).toBe('2026-12-01T09:30:00+01:00');
    expect(localToIso('2026-12-01T09:30', () => 300)).toBe('2026-12-01T09:30:00-05:00');
    expect(localToIso('2026-12-01T09:30', () => -330)).toBe('2026-12-01T09:30:00+05:30');
    expect(localToIso('2026-12-01T09:30', () => 0)).toBe('2026-12-01T09:30:00+00:00');
  });

  it('leaves what is not a full date and time as typed', () => {
    expect(localToIso('')).toBe('');
    expect(localToIso('2026-12-01')).toBe('2026-12-01');
  });

  it('reads back the same local time it wrote', () => {
    const local = '2026-07-04T18:05';
    expect(isoToLocal(localToIso(local))).toBe(local);
    expect(isoToLocal(null)).toBe('');
  });
});
