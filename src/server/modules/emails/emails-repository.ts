import type { Queryable } from '../../platform/db/database.js';

export type EmailStatus = 'queued' | 'sent' | 'failed' | 'kept';

export interface EmailRow {
  id: number;
  organization_id: number;
  kind: string;
  job_key: string | null;
  order_id: number | null;
  to_address: string;
  from_address: string;
  subject: string;
  body_html: string;
  body_text: string;
  status: EmailStatus;
  error: string | null;
  message_id: string | null;
  created_at: Date;
  sent_at: Date | null;
}

export type NewEmail = Pick<
  EmailRow,
  | 'organization_id'
  | 'kind'
  | 'order_id'
  | 'to_address'
  | 'from_address'
  | 'subject'
  | 'body_html'
  | 'body_text'
> & { job_key: string };

export async function findEmailByJobKey(db: Queryable, jobKey: string): Promise<EmailRow | null> {
  const { rows } = await db.query<EmailRow>('SELECT * FROM emails WHERE job_key = $1', [jobKey]);
  return rows[0] ?? null;
}

/** Records an email as queued, once per job key: the row already written under the key is answered otherwise. */
export async function insertEmailOnce(db: Queryable, email: NewEmail, now: Date): Promise<EmailRow> {
  const { rows } = await db.query<EmailRow>(
    `INSERT INTO emails (organization_id, kind, job_key, order_id, to_address, from_address, subject, body_html,
                         body_text, status, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'queued', $10)
     ON CONFLICT (job_key) DO NOTHING
     RETURNING *`,
    [
      email.organization_id,
      email.kind,
      email.job_key,
      email.order_id,
      email.to_address,
      email.from_address,
      email.subject,
      email.body_html,
      email.body_text,
      now,
    ],
  );
  const row = rows[0] ?? (await findEmailByJobKey(db, email.job_key));
  if (!row) throw new Error(`email ${email.job_key} was neither written nor found`);
  return row;
}

export async function recordEmailOutcome(
  db: Queryable,
  id: number,
  outcome: { status: 'sent' | 'kept'; messageId: string } | { status: 'failed'; error: string },
  now: Date,
): Promise<void> {
  await db.query(
    `UPDATE emails
        SET status = $2, message_id = coalesce($3, message_id), error = $4, sent_at = $5
      WHERE id = $1`,
    [
      id,
      outcome.status,
      outcome.status === 'failed' ? null : outcome.messageId,
      outcome.status === 'failed' ? outcome.error : null,
      outcome.status === 'failed' ? null : now,
    ],
  );
}

export async function listEmails(
  db: Queryable,
  organizationId: number,
  options: { limit?: number | undefined; startingAfter?: number | undefined; orderId?: number | undefined },
): Promise<{ rows: EmailRow[]; hasMore: boolean }> {
  const limit = options.limit ?? 50;
  const { rows } = await db.query<EmailRow>(
    `SELECT * FROM emails
      WHERE organization_id = $1 AND ($2::bigint IS NULL OR id < $2) AND ($3::bigint IS NULL OR order_id = $3)
      ORDER BY id DESC
      LIMIT $4`,
    [organizationId, options.startingAfter ?? null, options.orderId ?? null, limit + 1],
  );
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
}

export async function findEmail(db: Queryable, organizationId: number, id: number): Promise<EmailRow | null> {
  const { rows } = await db.query<EmailRow>('SELECT * FROM emails WHERE organization_id = $1 AND id = $2', [
    organizationId,
    id,
  ]);
  return rows[0] ?? null;
}
