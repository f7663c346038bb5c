import { describe, expect, it } from 'vitest';
import { isCalendarDay } from './calendar-day.js';

describe('isCalendarDay', () => {
  it('accepts real days and refuses other shapes and impossible dates', () => {
    expect(isCalendarDay('2026-11-26')).toBe(true);
    expect(isCalendarDay('2024-02-29')).toBe(true);
    expect(isCalendarDay('2026-02-30')).toBe(false);
    expect(isCalendarDay('2026-13-01')).toBe(false);
    expect(isCalendarDay('26-11-2026')).toBe(false);
    expect(isCalendarDay('2026-11-26T00:00:00Z')).toBe(false);
  });
});
