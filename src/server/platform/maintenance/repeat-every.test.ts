import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { repeatEvery } from './repeat-every.js';

describe('repeatEvery', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs the task once per interval until stopped', async () => {
    const task = vi.fn(() => Promise.resolve());
    const timer = repeatEvery(60, 'housekeeping', { error: vi.fn() }, task);
    await vi.advanceTimersByTimeAsync(59_000);
    expect(task).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1_000 + 60_000);
    expect(task).toHaveBeenCalledTimes(2);
    await timer.stop();
    await vi.advanceTimersByTimeAsync(600_000);
    expect(task).toHaveBeenCalledTimes(2);
  });

  it('never starts a run while the last one is still going', async () => {
    let finish = () => {};
    const task = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const timer = repeatEvery(10, 'rebill run', { error: vi.fn() }, task);
    await vi.advanceTimersByTimeAsync(35_000);
    expect(task).toHaveBeenCalledTimes(1);
    finish();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(task).toHaveBeenCalledTimes(2);
    finish();
    await timer.stop();
  });

  it('logs a failed run and keeps going', async () => {
    const error = vi.fn();
    const task = vi.fn(() => Promise.reject(new Error('database went away')));
    const timer = repeatEvery(5, 'housekeeping', { error }, task);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(task).toHaveBeenCalledTimes(2);
    expect(error).toHaveBeenCalledWith({ err: expect.any(Error) }, 'housekeeping failed');
    await timer.stop();
  });

  it('runs first after firstAfterSeconds, then every interval', async () => {
    const task = vi.fn(() => Promise.resolve());
    const timer = repeatEvery(3600, 'housekeeping', { error: vi.fn() }, task, { firstAfterSeconds: 60 });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(task).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(3_599_000);
    expect(task).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(task).toHaveBeenCalledTimes(2);
    await timer.stop();
  });

  it('stops only once the run in progress has ended', async () => {
    let finish = () => {};
    const task = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const timer = repeatEvery(10, 'rebill run', { error: vi.fn() }, task);
    await vi.advanceTimersByTimeAsync(10_000);
    let stopped = false;
    const stopping = timer.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(30_000);
    expect(stopped).toBe(false);
    expect(task).toHaveBeenCalledTimes(1);
    finish();
    await stopping;
    expect(stopped).toBe(true);
  });

  it('never runs when the interval is 0', async () => {
    const task = vi.fn(() => Promise.resolve());
    repeatEvery(0, 'rebill run', { error: vi.fn() }, task);
    await vi.advanceTimersByTimeAsync(86_400_000);
    expect(task).not.toHaveBeenCalled();
  });
});
