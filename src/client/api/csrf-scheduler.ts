import { csrfRegenerationSeconds } from '../../domain/csrf-schedule.js';

/** How long to wait before trying again when a regeneration failed. */
export const CSRF_RETRY_SECONDS = 30;

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const browserTimers: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Keeps a CSRF token fresh (docs/checkout-rules.md#csrf-token-timing): the next one is fetched at (expiry − 9 s
 * below 180 s, else expiry − 120 s). `regenerate` gets a new token (which reports its expiry through schedule()).
 */
export function createCsrfScheduler(regenerate: () => Promise<boolean>, timers: Timers = browserTimers) {
  let handle: unknown = null;
  let stopped = false;

  const plan = (seconds: number) => {
    if (handle !== null) timers.clearTimeout(handle);
    if (stopped) return;
    handle = timers.setTimeout(() => {
      handle = null;
      void regenerate().then((ok) => {
        if (!ok) plan(CSRF_RETRY_SECONDS);
      });
    }, seconds * 1000);
  };

  return {
    /** A new token with this expiry was received: plan its regeneration. */
    schedule(expirySeconds: number) {
      plan(csrfRegenerationSeconds(expirySeconds));
    },
    stop() {
      stopped = true;
      if (handle !== null) timers.clearTimeout(handle);
      handle = null;
    },
  };
}
