import { IdParamsSchema } from '../../../contract/common.js';
import { EmailListQuerySchema, EmailListSchema, EmailSchema, type Email } from '../../../contract/email.js';
import type { AppContext } from '../../platform/context.js';
import { notFound } from '../../platform/errors.js';
import { iso } from '../../platform/http/money-input.js';
import type { Router } from '../../platform/http/router.js';
import { merchantOf } from '../organizations/request-context.js';
import { findEmail, listEmails, type EmailWithJobRow } from './emails-repository.js';
import { shownEmailStatus } from './email-status.js';
import { withoutOneTimeLinks } from './email-secrets.js';

function presentEmailSummary(row: EmailWithJobRow) {
  const shown = shownEmailStatus(
    row,
    row.job_status === null
      ? null
      : {
          status: row.job_status,
          attempts: row.job_attempts ?? 0,
          runAt: row.job_run_at ?? row.created_at,
          lastError: row.job_last_error,
        },
  );
  return {
    id: row.id,
    kind: row.kind,
    order_id: row.order_id,
    to: row.to_address,
    from: row.from_address,
    subject: row.subject,
    status: shown.status,
    error: shown.error,
    attempts: shown.attempts,
    next_attempt_at: iso(shown.nextAttemptAt),
    message_id: row.message_id,
    created_at: iso(row.created_at),
    sent_at: iso(row.sent_at),
  };
}

function presentEmail(row: EmailWithJobRow): Email {
  // Emptied by the housekeeping after their retention (docs/operations.md, "Housekeeping"): said as null, not ''.
  const dropped = row.body_html === '' && row.body_text === '';
  return {
    ...presentEmailSummary(row),
    html: dropped ? null : withoutOneTimeLinks(row.body_html),
    text: dropped ? null : withoutOneTimeLinks(row.body_text),
  };
}

/** The merchant API's emails (docs/api.md, docs/emails.md): what was sent to whom, as it was sent. */
export function registerEmailRoutes(router: Router, context: AppContext): void {
  const { db } = context;

  router.add({
    method: 'GET',
    url: '/checkout/api/merchant/emails',
    summary: 'List the emails sent to shoppers, newest first',
    description:
      'order_id keeps the emails of one order. status: queued (not tried yet), retrying (an attempt failed and another ' +
      'is coming at next_attempt_at; error says why), sent, kept (no SMTP_URL) or failed (given up; error says why).',
    tags: ['merchant: emails'],
    guard: 'merchant',
    query: EmailListQuerySchema,
    responses: { 200: { description: 'A page', schema: EmailListSchema }, 401: { description: 'Bad key' } },
    async handler({ query, request }) {
      const page = await listEmails(db, merchantOf(request).id, {
        limit: query.limit,
        startingAfter: query.starting_after,
        orderId: query.order_id,
      });
      return { data: page.rows.map(presentEmailSummary), has_more: page.hasMore };
    },
  });

  router.add({
    method: 'GET',
    url: '/checkout/api/merchant/emails/:id',
    summary: 'Read an email with its HTML and text as sent',
    tags: ['merchant: emails'],
    guard: 'merchant',
    params: IdParamsSchema,
    responses: {
      200: { description: 'The email', schema: EmailSchema },
      401: { description: 'Bad key' },
      404: { description: 'No such email' },
    },
    async handler({ params, request }) {
      const row = await findEmail(db, merchantOf(request).id, params.id);
      if (!row) throw notFound('email_not_found', `There is no email ${params.id}.`);
      return presentEmail(row);
    },
  });
}
