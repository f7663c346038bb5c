/**
 * Resolves once the browser has shown the page's first view (the server's markup): its first contentful paint
 * has been reported, or a frame has passed where the browser cannot tell. React replaces that markup only then,
 * so the paint the shopper saw first is the one the browser counts (a view replaced before its paint is reported
 * is not counted, and the page's largest paint would wait for the script). At most `limitMs`.
 */
export function afterFirstPaint(limitMs = 500): Promise<void> {
  return new Promise((resolve) => {
    let observer: PerformanceObserver | null = null;
    const done = () => {
      observer?.disconnect();
      window.clearTimeout(limit);
      resolve();
    };
    const limit = window.setTimeout(done, limitMs);
    if (
      typeof PerformanceObserver !== 'undefined' &&
      PerformanceObserver.supportedEntryTypes?.includes('paint')
    ) {
      observer = new PerformanceObserver((list) => {
        if (list.getEntries().some((entry) => entry.name === 'first-contentful-paint')) done();
      });
      observer.observe({ type: 'paint', buffered: true });
    } else {
      requestAnimationFrame(() => window.setTimeout(done, 0));
    }
  });
}

/**
 * Resolves once the browser has painted what was just rendered: a frame, then a task after it. Work the shopper
 * does not see yet (the code of closed steps, a frame's document) starts then, not in the paint's way.
 */
export function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestAnimationFrame === 'function') {
      requestAnimationFrame(() => window.setTimeout(resolve, 0));
    } else {
      window.setTimeout(resolve, 0);
    }
  });
}
