// A rough per-client limit for the test processor's token and challenge calls: it stands for a real processor's
// own limits (card testing goes through tokenization first), held in memory since it has one listener per process.

export interface WindowCount {
  startedAt: number;
  count: number;
}

/** One more request in a fixed window: the window's new count, and whether the request is over the limit. */
export function countRequest(
  previous: WindowCount | undefined,
  now: number,
  rule: { limit: number; windowMs: number },
): { next: WindowCount; allowed: boolean; retryAfterMs: number } {
  const current =
    previous && now - previous.startedAt < rule.windowMs ? previous : { startedAt: now, count: 0 };
  const next = { startedAt: current.startedAt, count: current.count + 1 };
  return {
    next,
    allowed: next.count <= rule.limit,
    retryAfterMs: Math.max(0, current.startedAt + rule.windowMs - now),
  };
}

/** Counts per key; windows that ended are dropped once the map grows, so memory stays bounded by active clients. */
export function createRequestWindows(rule: { limit: number; windowMs: number }, maxKeys = 10_000) {
  const windows = new Map<string, WindowCount>();
  return {
    take(key: string, now: number): { allowed: boolean; retryAfterMs: number } {
      if (windows.size >= maxKeys && !windows.has(key)) {
        for (const [other, count] of windows)
          if (now - count.startedAt >= rule.windowMs) windows.delete(other);
        // Still full: every client is inside its window, so forget the oldest rather than grow without end.
        if (windows.size >= maxKeys) windows.delete(windows.keys().next().value as string);
      }
      const { next, allowed, retryAfterMs } = countRequest(windows.get(key), now, rule);
      windows.set(key, next);
      return { allowed, retryAfterMs };
    },
  };
}
