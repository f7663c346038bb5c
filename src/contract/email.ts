import { listOf, ListQuerySchema } from './common.js';
import { unlessUnused, z } from './zod.js';

/** ?limit=&starting_after=&order_id= on the emails list (docs/api.md). */
export const EmailListQuerySchema = unlessUnused(() =>
  z.extend(ListQuerySchema, {
    order_id: z.optional(
      z.pipe(z.string().check(z.regex(/^\d{1,15}$/, 'Use the numeric id of an order.')), z.transform(Number)),
    ),
  }),
);

export const EmailSummarySchema = unlessUnused(() =>
  z.object({
    id: z.int(),
    kind: z.string(),
    order_id: z.nullable(z.int()),
    to: z.string(),
    from: z.string(),
    subject: z.string(),
    /**
     * queued (not tried yet, or in its first attempt), retrying (an attempt failed, error says why, and another comes
     * at next_attempt_at), sent (the SMTP server took it), kept (no SMTP_URL: kept locally) or failed (given up, error
     * says why); docs/emails.md, "Retries"
     */
    status: z.enum(['queued', 'retrying', 'sent', 'failed', 'kept']),
    error: z.nullable(z.string()),
    /** attempts made so far (the one running included); null once its job was removed by the housekeeping */
    attempts: z.nullable(z.int()),
    /** when the next attempt is due, while retrying between attempts */
    next_attempt_at: z.nullable(z.string()),
    message_id: z.nullable(z.string()),
    created_at: z.string(),
    sent_at: z.nullable(z.string()),
  }),
);
export type EmailSummary = z.infer<typeof EmailSummarySchema>;

export const EmailSchema = unlessUnused(() =>
  // null once the housekeeping dropped the bodies after their retention (docs/operations.md, "Housekeeping")
  z.extend(EmailSummarySchema, { html: z.nullable(z.string()), text: z.nullable(z.string()) }),
);
export type Email = z.infer<typeof EmailSchema>;

export const EmailListSchema = unlessUnused(() => listOf(EmailSummarySchema));
