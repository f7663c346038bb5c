import { describe, expect, it } from 'vitest';
import { shownEmailStatus, type EmailJobState } from './email-status.js';

const at = new Date('2026-11-26T10:00:00Z');
const job = (state: Partial<EmailJobState>): EmailJobState => ({
  status: 'queued',
  attempts: 0,
  runAt: at,
  lastError: null,
  ...state,
});

describe('shownEmailStatus', () => {
  it('shows a sent or kept email as recorded, with the attempts it took', () => {
    expect(shownEmailStatus({ status: 'sent', error: null }, job({ status: 'done', attempts: 2 }))).toEqual({
      status: 'sent',
      error: null,
      attempts: 2,
      nextAttemptAt: null,
    });
    expect(shownEmailStatus({ status: 'kept', error: null }, null)).toMatchObject({
      status: 'kept',
      attempts: null,
    });
  });

  it('shows an email not tried yet, or in its first attempt, as queued', () => {
    expect(
      shownEmailStatus({ status: 'queued', error: null }, job({ status: 'running', attempts: 1 })),
    ).toEqual({
      status: 'queued',
      error: null,
      attempts: 1,
      nextAttemptAt: null,
    });
  });

  it('shows a failed attempt as retrying while the job will try again, with its error and next time', () => {
    const retrying = shownEmailStatus(
      { status: 'failed', error: '550 Mailbox unavailable' },
      job({ status: 'queued', attempts: 1, runAt: at, lastError: '550 Mailbox unavailable' }),
    );
    expect(retrying).toEqual({
      status: 'retrying',
      error: '550 Mailbox unavailable',
      attempts: 1,
      nextAttemptAt: at,
    });
    // Being tried again right now: no next time to tell.
    expect(
      shownEmailStatus({ status: 'failed', error: 'timeout' }, job({ status: 'running', attempts: 2 })),
    ).toEqual({ status: 'retrying', error: 'timeout', attempts: 2, nextAttemptAt: null });
  });

  it('shows an attempt that failed before the send (its job holds the error) as retrying', () => {
    expect(
      shownEmailStatus({ status: 'queued', error: null }, job({ attempts: 1, lastError: 'database gone' })),
    ).toMatchObject({ status: 'retrying', error: 'database gone' });
  });

  it('shows failed, with the reason, only once the job gave up', () => {
    expect(
      shownEmailStatus(
        { status: 'failed', error: '550 Mailbox unavailable' },
        job({ status: 'failed', attempts: 6, lastError: '550 Mailbox unavailable' }),
      ),
    ).toEqual({ status: 'failed', error: '550 Mailbox unavailable', attempts: 6, nextAttemptAt: null });
    // Its worker died on the last attempt, before the send was recorded.
    expect(
      shownEmailStatus(
        { status: 'queued', error: null },
        job({
          status: 'failed',
          attempts: 6,
          lastError: 'Its last attempt never finished (the worker stopped).',
        }),
      ),
    ).toMatchObject({ status: 'failed', error: 'Its last attempt never finished (the worker stopped).' });
  });

  it('keeps the row’s own word once its job was deleted by the housekeeping', () => {
    expect(shownEmailStatus({ status: 'failed', error: 'refused' }, null)).toEqual({
      status: 'failed',
      error: 'refused',
      attempts: null,
      nextAttemptAt: null,
    });
  });
});
