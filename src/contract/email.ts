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
    /** queued, sent (the SMTP server took it), kept (no SMTP_URL: kept locally) or failed (error says why) */
    status: z.enum(['queued', 'sent', 'failed', 'kept']),
    error: z.nullable(z.string()),
    message_id: z.nullable(z.string()),
    created_at: z.string(),
    sent_at: z.nullable(z.string()),
  }),
);
export type EmailSummary = z.infer<typeof EmailSummarySchema>;

export const EmailSchema = unlessUnused(() =>
  z.extend(EmailSummarySchema, { html: z.string(), text: z.string() }),
);
export type Email = z.infer<typeof EmailSchema>;

export const EmailListSchema = unlessUnused(() => listOf(EmailSummarySchema));
