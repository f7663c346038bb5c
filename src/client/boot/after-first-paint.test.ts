import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterFirstPaint } from './after-first-paint.js';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('afterFirstPaint', () => {
  it('waits for the first contentful paint to be reported', async () => {
    let report: (entries: { name: string }[]) => void = () => undefined;
    const disconnect = vi.fn();
    class FakeObserver {
      static supportedEntryTypes = ['paint', 'largest-contentful-paint'];
      constructor(callback: (list: { getEntries: () => { name: string }[] }) => void) {
        report = (entries) => callback({ getEntries: () => entries });
      }
      observe() {}
      disconnect = disconnect;
    }
    vi.stubGlobal('PerformanceObserver', FakeObserver);
    let resolved = false;
    const painted = afterFirstPaint().then(() => (resolved = true));
    report([{ name: 'first-paint' }]);
    await Promise.resolve();
    expect(resolved).toBe(false);
    report([{ name: 'first-contentful-paint' }]);
    await painted;
    expect(disconnect).toHaveBeenCalled();
  });

  it('waits a frame where paints are not reported', async () => {
    vi.stubGlobal('PerformanceObserver', undefined);
    const frame = vi.fn((callback: FrameRequestCallback) => {
      callback(0);
      return 1;
    });
    vi.stubGlobal('requestAnimationFrame', frame);
    await afterFirstPaint();
    expect(frame).toHaveBeenCalled();
  });

  it('gives up waiting after the limit', async () => {
    vi.useFakeTimers();
    class SilentObserver {
      static supportedEntryTypes = ['paint'];
      observe() {}
      disconnect() {}
    }
    vi.stubGlobal('PerformanceObserver', SilentObserver);
    const painted = afterFirstPaint(500);
    vi.advanceTimersByTime(500);
    await expect(painted).resolves.toBeUndefined();
  });
});
