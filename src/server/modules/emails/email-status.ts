// What the merchant API says of an email (docs/emails.md, "Records"): its own row says how its last send went, its
// job says whether another attempt is coming, so "failed" is said only once the job has given up.
import type { EmailStatus } from './emails-repository.js';

export type ShownEmailStatus = 'queued' | 'retrying' | 'sent' | 'kept' | 'failed';

/** The email's job as the API reads it; null once the housekeeping deleted it (or it never existed). */
export interface EmailJobState {
  status: 'queued' | 'running' | 'done' | 'failed';
  attempts: number;
  runAt: Date;
  lastError: string | null;
}

export interface ShownEmail {
  status: ShownEmailStatus;
  /** why the last attempt failed (retrying), or why it was given up (failed) */
  error: string | null;
  /** attempts made so far, the one running included; null once its job was deleted */
  attempts: number | null;
  /** when the next attempt is due (retrying, between attempts) */
  nextAttemptAt: Date | null;
}

/**
 * An email as the merchant should see it: sent or kept as recorded; while its job will still try again, queued (no
 * attempt failed yet) or retrying (with the last error and the next attempt's time); failed only once it gave up.
 */
export function shownEmailStatus(
  email: { status: EmailStatus; error: string | null },
  job: EmailJobState | null,
): ShownEmail {
  const attempts = job?.attempts ?? null;
  if (email.status === 'sent' || email.status === 'kept')
    return { status: email.status, error: null, attempts, nextAttemptAt: null };
  if (job?.status === 'queued' || job?.status === 'running') {
    const error = email.error ?? job.lastError;
    if (error === null) return { status: 'queued', error: null, attempts, nextAttemptAt: null };
    return {
      status: 'retrying',
      error,
      attempts,
      nextAttemptAt: job.status === 'queued' ? job.runAt : null,
    };
  }
  if (job?.status === 'failed')
    return { status: 'failed', error: job.lastError ?? email.error, attempts, nextAttemptAt: null };
  // No job left to try again (deleted after its retention): the row's own word is the last one.
  return { status: email.status, error: email.error, attempts, nextAttemptAt: null };
}
