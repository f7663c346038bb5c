import type { Logger } from 'pino';

export interface RepeatingTask {
  /** Stops scheduling runs; resolves once a run in progress has ended. */
  stop(): Promise<void>;
}

/**
 * Runs a task every `seconds` (0 means never), the first time after `firstAfterSeconds` (default: one interval), never
 * two runs at once; a failed run is logged and the next one still comes.
 */
export function repeatEvery(
  seconds: number,
  what: string,
  logger: Pick<Logger, 'error'>,
  task: () => Promise<unknown>,
  options: { firstAfterSeconds?: number } = {},
): RepeatingTask {
  if (seconds <= 0) return { stop: () => Promise.resolve() };
  let running: Promise<void> | null = null;
  const run = () => {
    if (running) return;
    running = task()
      .then(() => undefined)
      .catch((error: unknown) => logger.error({ err: error }, `${what} failed`))
      .finally(() => {
        running = null;
      });
  };
  let interval: NodeJS.Timeout | null = null;
  const first = setTimeout(
    () => {
      run();
      interval = setInterval(run, seconds * 1000);
      interval.unref();
    },
    (options.firstAfterSeconds ?? seconds) * 1000,
  );
  first.unref();
  return {
    async stop() {
      clearTimeout(first);
      if (interval) clearInterval(interval);
      await running;
    },
  };
}
