// What happens to a subscription after a declined renewal: the organization's dunning (docs/operations.md,
// "Dunning"). Pure, so the rebill runner only records what this decides.
import type { Dunning } from '../../../contract/organization.js';

const DAY_MS = 86_400_000;

export type DunningEnd = 'past_due' | 'cancelled' | 'paused';

export type DunningStep = { kind: 'retry'; at: Date } | { kind: DunningEnd };

const ENDS: Record<Dunning['after_last_retry'], DunningEnd> = {
  past_due: 'past_due',
  cancel: 'cancelled',
  pause: 'paused',
};

/**
 * The step after a decline. `retriesSoFar` counts the retries of this cycle already made (0 after the first
 * attempt's decline); a hard decline (the processor says no retry will go through) skips the retries left.
 */
export function nextDunningStep(input: {
  retriesSoFar: number;
  dunning: Dunning;
  hard: boolean;
  now: Date;
}): DunningStep {
  const delay = input.hard ? undefined : input.dunning.retry_days[input.retriesSoFar];
  if (delay === undefined) return { kind: ENDS[input.dunning.after_last_retry] };
  return { kind: 'retry', at: new Date(input.now.getTime() + delay * DAY_MS) };
}
