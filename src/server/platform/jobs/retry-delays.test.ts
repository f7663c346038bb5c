import { describe, expect, it } from 'vitest';
import {
  afterFailure,
  checkedDelays,
  DEFAULT_RETRY_DELAYS_SECONDS,
  exponentialDelays,
  mayRun,
} from './retry-delays.js';

const NOW = new Date('2026-11-21T12:00:00.000Z');

describe('exponentialDelays', () => {
  it('multiplies each delay by the factor', () => {
    expect(exponentialDelays(30, 4, 5)).toEqual([30, 120, 480, 1920, 7680]);
    expect(exponentialDelays(1, 2, 3)).toEqual([1, 2, 4]);
    expect(exponentialDelays(10, 2, 0)).toEqual([]);
  });

  it('is what a job gets by default', () => {
    expect(DEFAULT_RETRY_DELAYS_SECONDS).toEqual([30, 120, 480, 1920, 7680]);
  });

  it('refuses delays that never grow or never start', () => {
    expect(() => exponentialDelays(0, 2, 3)).toThrow(RangeError);
    expect(() => exponentialDelays(5, 0.5, 3)).toThrow(RangeError);
    expect(() => exponentialDelays(5, 2, 1.5)).toThrow(RangeError);
  });
});

describe('afterFailure', () => {
  it('waits the delay of the attempt that failed', () => {
    expect(afterFailure(1, [30, 120], NOW)).toEqual({
      retry: true,
      runAt: new Date('2026-11-21T12:00:30.000Z'),
    });
    expect(afterFailure(2, [30, 120], NOW)).toEqual({
      retry: true,
      runAt: new Date('2026-11-21T12:02:00.000Z'),
    });
  });

  it('gives up once every delay has been used', () => {
    expect(afterFailure(3, [30, 120], NOW)).toEqual({ retry: false });
    expect(afterFailure(1, [], NOW)).toEqual({ retry: false });
  });
});

describe('mayRun', () => {
  it('lets the attempts the delays allow run, and no more', () => {
    expect(mayRun(1, [])).toBe(true);
    expect(mayRun(2, [])).toBe(false);
    expect(mayRun(3, [30, 120])).toBe(true);
    expect(mayRun(4, [30, 120])).toBe(false);
  });
});

describe('checkedDelays', () => {
  it('takes whole seconds and refuses anything else', () => {
    expect(checkedDelays([0, 5])).toEqual([0, 5]);
    expect(() => checkedDelays([1.5])).toThrow(RangeError);
    expect(() => checkedDelays([-1])).toThrow(RangeError);
  });
});
