/**
 * The default waits after each failed attempt: 30 s, then four times longer each time (2 min, 8 min, 32 min, about
 * 2 h), six attempts over about 2.8 hours, long enough for an SMTP server's restart or a short outage
 * (docs/architecture.md, "Jobs").
 */
export const DEFAULT_RETRY_DELAYS_SECONDS: readonly number[] = exponentialDelays(30, 4, 5);

/** `count` delays starting at `firstSeconds`, each `factor` times the one before. */
export function exponentialDelays(firstSeconds: number, factor: number, count: number): number[] {
  if (!(firstSeconds > 0) || !(factor >= 1) || !Number.isInteger(count) || count < 0)
    throw new RangeError('exponentialDelays needs a positive first delay, a factor of 1 or more and a count');
  return Array.from({ length: count }, (_, index) => Math.round(firstSeconds * factor ** index));
}

export type AfterFailure = { retry: true; runAt: Date } | { retry: false };

/**
 * What follows a failed attempt (1 for the first): another attempt after the attempt's delay, or none once every
 * delay has been used (attempt n waits delays[n - 1]).
 */
export function afterFailure(attempt: number, delaysSeconds: readonly number[], now: Date): AfterFailure {
  const delay = delaysSeconds[attempt - 1];
  if (delay === undefined) return { retry: false };
  return { retry: true, runAt: new Date(now.getTime() + delay * 1000) };
}

/** Whether a claimed attempt may still run: a job whose worker died on its last attempt is failed, not run again. */
export function mayRun(attempt: number, delaysSeconds: readonly number[]): boolean {
  return attempt <= delaysSeconds.length + 1;
}

/** Delays as a job is given them: whole seconds, zero or more. */
export function checkedDelays(delaysSeconds: readonly number[]): number[] {
  for (const delay of delaysSeconds) {
    if (!Number.isSafeInteger(delay) || delay < 0)
      throw new RangeError(`A retry delay must be a whole number of seconds, zero or more (got ${delay}).`);
  }
  return [...delaysSeconds];
}
