import { describe, expect, it } from 'vitest';
import { describeWait, describeWaitMs } from './wait-time.js';

describe('describeWait', () => {
  it('says seconds under a minute and whole minutes, rounded up, from there', () => {
    expect(describeWait(1)).toBe('1 second');
    expect(describeWait(45)).toBe('45 seconds');
    expect(describeWait(60)).toBe('1 minute');
    expect(describeWait(61)).toBe('2 minutes');
    expect(describeWait(2400)).toBe('40 minutes');
  });

  it('rounds milliseconds up to at least a second', () => {
    expect(describeWaitMs(1)).toBe('1 second');
    expect(describeWaitMs(10_000)).toBe('10 seconds');
    expect(describeWaitMs(600_000)).toBe('10 minutes');
  });
});
