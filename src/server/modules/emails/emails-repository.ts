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
  /** '' once the housekeeping dropped the bodies after their retention (docs/operations.md, "Housekeeping") */
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

/** An email with the state of the job that sends it (null columns once the job is gone), for the merchant API. */
export interface EmailWithJobRow extends EmailRow {
  job_status: 'queued' | 'running' | 'done' | 'failed' | null;
  job_attempts: number | null;
  job_run_at: Date | null;
  job_last_error: string | null;
}

const EMAIL_WITH_JOB = `SELECT e.*, j.status AS job_status, j.attempts AS job_attempts, j.run_at AS job_run_at,
            j.last_error AS job_last_error
       FROM emails e LEFT JOIN jobs j ON j.key = e.job_key`;

export async function listEmails(
  db: Queryable,
  organizationId: number,
  options: { limit?: number | undefined; startingAfter?: number | undefined; orderId?: number | undefined },
): Promise<{ rows: EmailWithJobRow[]; hasMore: boolean }> {
  const limit = options.limit ?? 50;
  const { rows } = await db.query<EmailWithJobRow>(
    `${EMAIL_WITH_JOB}
      WHERE e.organization_id = $1 AND ($2::bigint IS NULL OR e.id < $2)
        AND ($3::bigint IS NULL OR e.order_id = $3)
      ORDER BY e.id DESC
      LIMIT $4`,
    [organizationId, options.startingAfter ?? null, options.orderId ?? null, limit + 1],
  );
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
}

export async function findEmail(
  db: Queryable,
  organizationId: number,
  id: number,
): Promise<EmailWithJobRow | null> {
  const { rows } = await db.query<EmailWithJobRow>(
    `${EMAIL_WITH_JOB} WHERE e.organization_id = $1 AND e.id = $2`,
    [organizationId, id],
  );
  return rows[0] ?? null;
}

/**
 * Empties the bodies of emails written before `before` whose job will not send them again (docs/operations.md,
 * "Housekeeping"): the row stays, with its status, address, subject and kind. Answers how many were emptied.
 */
export async function dropOldEmailBodies(db: Queryable, before: Date): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE emails e SET body_html = '', body_text = ''
      WHERE e.created_at < $1 AND (e.body_html <> '' OR e.body_text <> '')
        AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.key = e.job_key AND j.status IN ('queued', 'running'))`,
    [before],
  );
  return rowCount;
}

/** A gift as its emails tell it: the recipient, the line given, and the giver's order and name. */
export interface GiftEmailRow {
  id: number;
  gift_name: string;
  gift_email: string;
  gift_message: string;
  claim_code: string | null;
  claimed_at: Date | null;
  item_name: string;
  quantity: number;
  order_id: number;
  giver_email: string;
  bill_first_name: string;
  bill_last_name: string;
  ship_first_name: string;
  ship_last_name: string;
}

export async function findGiftForEmail(
  db: Queryable,
  organizationId: number,
  giftId: number,
): Promise<GiftEmailRow | null> {
  const { rows } = await db.query<GiftEmailRow>(
    `SELECT g.id, g.gift_name, g.gift_email, g.gift_message, g.claim_code, g.claimed_at, l.item_name, l.quantity,
            o.id AS order_id, o.email AS giver_email,
            coalesce(o.billing_address->>'fname', '') AS bill_first_name,
            coalesce(o.billing_address->>'lname', '') AS bill_last_name,
            coalesce(o.shipping_address->>'fname', '') AS ship_first_name,
            coalesce(o.shipping_address->>'lname', '') AS ship_last_name
       FROM gift_details g
       JOIN order_lines l ON l.organization_id = g.organization_id AND l.cart_offer_id = g.cart_offer_id AND l.is_gift
       JOIN orders o ON o.organization_id = l.organization_id AND o.id = l.order_id
      WHERE g.organization_id = $1 AND g.id = $2`,
    [organizationId, giftId],
  );
  return rows[0] ?? null;
}
