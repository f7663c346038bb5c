import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SmtpInbox {
  /** smtp://127.0.0.1:<port> */
  url: string;
  /** every message the server took, parsed, in the order they came */
  messages: ParsedMail[];
  /** the raw messages as received */
  raw: string[];
  /** while set, each recipient is refused with this reply (a 550) */
  refuse: string | null;
  close(): Promise<void>;
}

/** A real SMTP server on a free port (plain SMTP, no authentication), keeping what it receives. */
export async function startSmtpInbox(): Promise<SmtpInbox> {
  const inbox: SmtpInbox = {
    url: '',
    messages: [],
    raw: [],
    refuse: null,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (inbox.refuse === null) return callback();
      const error = Object.assign(new Error(inbox.refuse), { responseCode: 550 });
      return callback(error);
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw)
          .then((parsed) => {
            inbox.raw.push(raw);
            inbox.messages.push(parsed);
            callback();
          })
          .catch((error: Error) => callback(error));
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  inbox.url = `smtp://127.0.0.1:${port}`;
  return inbox;
}
