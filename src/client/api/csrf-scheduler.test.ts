import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCsrfScheduler } from './csrf-scheduler.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('createCsrfScheduler', () => {
  it('regenerates a default token after 3480 seconds', async () => {
    const regenerate = vi.fn(async () => true);
    createCsrfScheduler(regenerate).schedule(3600);
    await vi.advanceTimersByTimeAsync(3479_000);
    expect(regenerate).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1000);
    expect(regenerate).toHaveBeenCalledTimes(1);
  });

  it('regenerates a short-lived token 9 seconds before it expires', async () => {
    const regenerate = vi.fn(async () => true);
    createCsrfScheduler(regenerate).schedule(60);
    await vi.advanceTimersByTimeAsync(51_000);
    expect(regenerate).toHaveBeenCalledTimes(1);
  });

  it('plans only the latest token and tries again soon after a failure', async () => {
    const regenerate = vi.fn(async () => false);
    const scheduler = createCsrfScheduler(regenerate);
    scheduler.schedule(3600);
    scheduler.schedule(100);
    await vi.advanceTimersByTimeAsync(91_000);
    expect(regenerate).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(regenerate).toHaveBeenCalledTimes(2);
  });

  it('stops', async () => {
    const regenerate = vi.fn(async () => true);
    const scheduler = createCsrfScheduler(regenerate);
    scheduler.schedule(20);
    scheduler.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(regenerate).not.toHaveBeenCalled();
  });
});
