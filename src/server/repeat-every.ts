import type { Logger } from 'pino';

/** Runs a task every `seconds` (never two at once; 0 means never), logging a failure instead of stopping. */
export function repeatEvery(
  seconds: number,
  what: string,
  logger: Pick<Logger, 'error'>,
  task: () => Promise<unknown>,
): { stop(): void } {
  if (seconds <= 0) return { stop: () => {} };
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    task()
      .catch((error: unknown) => logger.error({ err: error }, `${what} failed`))
      .finally(() => {
        running = false;
      });
  }, seconds * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
