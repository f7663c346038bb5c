import { describe, expect, it } from 'vitest';
import { periodStarts } from './summary-periods.js';

describe('periodStarts', () => {
  it('starts today at midnight UTC and the month on its first, also on the first itself', () => {
    expect(periodStarts(new Date('2026-11-26T07:58:00-05:00'))).toEqual({
      today: new Date('2026-11-26T00:00:00Z'),
      month: new Date('2026-11-01T00:00:00Z'),
    });
    expect(periodStarts(new Date('2026-12-01T00:00:00Z'))).toEqual({
      today: new Date('2026-12-01T00:00:00Z'),
      month: new Date('2026-12-01T00:00:00Z'),
    });
  });
});
