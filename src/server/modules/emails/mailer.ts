import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface OutgoingEmail {
  from: { name: string; address: string };
  to: string;
  subject: string;
  html: string;
  text: string;
  /** the Message-ID header, fixed by the email's record so a resend is recognisable as the same email */
  messageId: string;
  /** the kept file's name (without .eml) when there is no SMTP server */
  fileName: string;
}

export interface Mailer {
  /** smtp: through SMTP_URL; kept: written to a local file (or only recorded), the zero-setup default */
  readonly delivery: 'smtp' | 'kept';
  /** where kept emails are written (null: the database record only) */
  readonly keptIn: string | null;
  /** Sends (or keeps) one email; throws with the server's reason when it is refused. */
  send(email: OutgoingEmail): Promise<{ messageId: string }>;
  close(): void;
}

/**
 * The mailer on nodemailer (docs/emails.md): SMTP when SMTP_URL is set, else each email is kept as an .eml file
 * under DATA_DIR/emails, so a store run without any setup still shows what it would have sent.
 */
export function createMailer(options: { smtpUrl: string | null; keepDir: string | null }): Mailer {
  const message = (email: OutgoingEmail) => ({
    from: email.from,
    to: email.to,
    subject: email.subject,
    html: email.html,
    text: email.text,
    messageId: email.messageId,
  });
  if (options.smtpUrl !== null) {
    // Short timeouts: a stuck server fails the attempt, which the job retries later (docs/emails.md, "Retries").
    const transport = nodemailer.createTransport({
      url: options.smtpUrl,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
    return {
      delivery: 'smtp',
      keptIn: null,
      async send(email) {
        const info = await transport.sendMail(message(email));
        return { messageId: info.messageId };
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const keepDir = options.keepDir;
  return {
    delivery: 'kept',
    keptIn: keepDir,
    async send(email) {
      const info = await transport.sendMail(message(email));
      if (keepDir !== null) {
        await mkdir(keepDir, { recursive: true });
        await writeFile(path.join(keepDir, `${email.fileName}.eml`), info.message as Buffer);
      }
      return { messageId: info.messageId };
    },
    close: () => undefined,
  };
}

/** The folder kept emails go to: DATA_DIR/emails. */
export function keptEmailsDir(dataDir: string | null): string | null {
  return dataDir === null ? null : path.join(dataDir, 'emails');
}
