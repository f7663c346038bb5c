import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
}

export interface WebhookReceiver {
  /** http://127.0.0.1:<port>/hooks */
  url: string;
  /** every request it answered 2xx, in the order they came */
  received: ReceivedWebhook[];
  /** every request it was sent, whatever it answered */
  requests: number;
  /** the status it answers (200 unless told otherwise) */
  answer: number;
  close(): Promise<void>;
}

/** A real HTTP receiver of webhooks on a free port (or `port`), keeping what it accepts. */
export async function startWebhookReceiver(port = 0): Promise<WebhookReceiver> {
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      receiver.requests += 1;
      if (receiver.answer >= 200 && receiver.answer < 300)
        receiver.received.push({ headers: request.headers, body });
      response.writeHead(receiver.answer, { 'content-type': 'text/plain' });
      response.end(receiver.answer < 300 ? 'thanks' : 'down for maintenance');
    });
  });
  const receiver: WebhookReceiver = {
    url: '',
    received: [],
    requests: 0,
    answer: 200,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}

/** A received message verified with the standardwebhooks package under `secret` (throws if forged). */
export function verifiedWebhook(secret: string, message: ReceivedWebhook) {
  const payload = new Webhook(secret).verify(message.body, {
    'webhook-id': String(message.headers['webhook-id']),
    'webhook-timestamp': String(message.headers['webhook-timestamp']),
    'webhook-signature': String(message.headers['webhook-signature']),
  }) as { type: string; timestamp: string; data: Record<string, unknown> };
  return { id: String(message.headers['webhook-id']), payload };
}
