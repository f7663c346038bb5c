import type { ParsedMail } from 'mailparser';
import { createJobHandlers } from '../../src/server/job-handlers.js';
import { createSubscriberLinks } from '../../src/server/modules/subscriber/subscriber-link.js';
import { systemClock } from '../../src/server/platform/clock.js';
import { createJobWorker } from '../../src/server/platform/jobs/job-worker.js';
import { createLogger } from '../../src/server/platform/logging.js';
import { createTokenService } from '../../src/server/platform/security/tokens.js';
import type { CheckoutServer } from './checkout-server.js';
import type { SmtpInbox } from './smtp-inbox.js';

/**
 * Runs the server's due jobs as its worker would: its emails through the SMTP server at `smtpUrl`, or without one
 * kept (and listed in the log).
 */
export async function runDueJobs(server: CheckoutServer, smtpUrl?: string): Promise<void> {
  const links = createSubscriberLinks(
    createTokenService({ current: server.tokenSecret }, systemClock),
    server.baseUrl,
    () => systemClock.now(),
  );
  const config = smtpUrl === undefined ? server.config : { ...server.config, smtpUrl };
  const { handlers, emailJobs } = createJobHandlers(config, links);
  try {
    await createJobWorker(server.database.db, handlers, {
      clock: systemClock,
      logger: createLogger({ level: 'silent' }),
    }).drain();
  } finally {
    emailJobs.mailer.close();
  }
}

/** Runs the server's due jobs, its emails through the test's SMTP server: those sent now. */
export async function deliverEmails(server: CheckoutServer, inbox: SmtpInbox): Promise<ParsedMail[]> {
  const before = inbox.messages.length;
  await runDueJobs(server, inbox.url);
  return inbox.messages.slice(before);
}
