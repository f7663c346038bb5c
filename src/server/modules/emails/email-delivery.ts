// Sending an email's record once (docs/emails.md, "Retries"): shared by every email job.
import type { Queryable } from '../../platform/db/database.js';
import { findOrganizationById } from '../organizations/organizations-repository.js';
import { recordEmailOutcome, type EmailRow } from './emails-repository.js';
import type { Mailer } from './mailer.js';

/**
 * Sends a recorded email unless it was sent (or kept) already, so a job's retry after a crash sends nothing twice; a
 * refused send is recorded with its reason and thrown, and the job retries it with back-off.
 */
export async function deliverEmail(db: Queryable, mailer: Mailer, email: EmailRow, now: Date): Promise<void> {
  if (email.status === 'sent' || email.status === 'kept') return;
  const organization = await findOrganizationById(db, email.organization_id);
  let messageId: string;
  try {
    ({ messageId } = await mailer.send({
      from: { name: organization?.name ?? '', address: email.from_address },
      to: email.to_address,
      subject: email.subject,
      html: email.body_html,
      text: email.body_text,
      messageId: `<email-${email.id}@${email.from_address.split('@')[1] ?? 'localhost'}>`,
      fileName: `email-${email.id}`,
    }));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    await recordEmailOutcome(db, email.id, { status: 'failed', error: reason }, now);
    throw error;
  }
  const status = mailer.delivery === 'smtp' ? 'sent' : 'kept';
  await recordEmailOutcome(db, email.id, { status, messageId }, now);
}
