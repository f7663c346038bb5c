import { describe, expect, it } from 'vitest';
import { countRequest, createRequestWindows } from './request-window.js';

const rule = { limit: 2, windowMs: 1000 };

describe('countRequest', () => {
  it('counts within a window and starts a new one after it', () => {
    const first = countRequest(undefined, 0, rule);
    expect(first).toEqual({ next: { startedAt: 0, count: 1 }, allowed: true, retryAfterMs: 1000 });
    const second = countRequest(first.next, 400, rule);
    expect(second.allowed).toBe(true);
    const third = countRequest(second.next, 900, rule);
    expect(third).toMatchObject({ allowed: false, retryAfterMs: 100 });
    expect(countRequest(third.next, 1000, rule)).toMatchObject({
      next: { startedAt: 1000, count: 1 },
      allowed: true,
    });
  });
});

describe('createRequestWindows', () => {
  it('limits each key on its own and stays bounded', () => {
    const windows = createRequestWindows(rule, 2);
    expect(windows.take('a', 0).allowed).toBe(true);
    expect(windows.take('a', 1).allowed).toBe(true);
    expect(windows.take('a', 2).allowed).toBe(false);
    expect(windows.take('b', 2).allowed).toBe(true);
    // A third key in a full map forgets the oldest window rather than growing.
    expect(windows.take('c', 3).allowed).toBe(true);
    expect(windows.take('a', 4).allowed).toBe(true);
  });
});
