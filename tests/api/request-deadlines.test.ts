import { connect, type AddressInfo, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

// Short deadlines, so a stalled request ends within the test: the defaults are 30 s and 10 s.
const REQUEST_TIMEOUT_MS = 2_000;
const BODY_IDLE_TIMEOUT_MS = 600;
// Node looks for late requests every quarter of the deadline here; the rest is a loaded machine's slack.
const SLACK_MS = REQUEST_TIMEOUT_MS / 4 + 700;

let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await createTestApp({
    config: { requestTimeoutMs: REQUEST_TIMEOUT_MS, bodyIdleTimeoutMs: BODY_IDLE_TIMEOUT_MS },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});

afterAll(async () => {
  await t.close();
});

interface Exchange {
  /** everything the server sent */
  raw: string;
  /** ms from the first byte sent until the server closed the connection; null if it was still open at the end */
  closedAfterMs: number | null;
  /** the client's end, still open: a stalled client never closes first */
  socket: Socket;
}

/**
 * Sends `parts` on a real socket `gapMs` apart, then sends nothing more and waits up to `waitMs` for the server to
 * close the connection. Like a client that stalls, it never closes first.
 */
function exchange(parts: string[], options: { gapMs?: number; waitMs: number }): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    let raw = '';
    let started = 0;
    let done = false;
    const finish = (closedAfterMs: number | null) => {
      if (done) return;
      done = true;
      clearTimeout(giveUp);
      resolve({ raw, closedAfterMs, socket });
    };
    const giveUp = setTimeout(() => finish(null), options.waitMs);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (raw += chunk));
    socket.on('end', () => finish(Date.now() - started));
    socket.on('error', reject);
    socket.on('connect', () => {
      started = Date.now();
      void (async () => {
        for (const [index, part] of parts.entries()) {
          if (index > 0) await sleep(options.gapMs ?? 0);
          if (done) return;
          socket.write(part);
        }
      })();
    });
  });
}

const sockets: Socket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
});

/** exchange(), closing the client's socket after the test. */
async function send(parts: string[], options: { gapMs?: number; waitMs: number }): Promise<Exchange> {
  const result = await exchange(parts, options);
  sockets.push(result.socket);
  return result;
}

/** How many connections the server holds open now. */
function serverConnections(): Promise<number> {
  return new Promise((resolve, reject) =>
    t.app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  );
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** The one answer in `raw`, read as HTTP/1.1. */
function answerOf(raw: string): Answer {
  const split = raw.indexOf('\r\n\r\n');
  expect(split, `an HTTP answer, got ${JSON.stringify(raw.slice(0, 200))}`).toBeGreaterThan(0);
  const [statusLine = '', ...lines] = raw.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const text = raw.slice(split + 4);
  expect(Buffer.byteLength(text, 'latin1')).toBe(Number(headers['content-length']));
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(text) };
}

const SECURITY_HEADERS = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'permissions-policy':
    'accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(self "https://js.stripe.com"), usb=()',
  'content-type': 'application/json; charset=utf-8',
  connection: 'close',
};

/** The refusal's shape: the security headers, the one error shape, and nothing after it on the connection. */
function expectRefusal(result: Exchange, status: number, code: string, message: RegExp): void {
  const answer = answerOf(result.raw);
  expect(answer.status).toBe(status);
  expect(answer.headers).toMatchObject(SECURITY_HEADERS);
  expect(answer.body).toEqual({ status, code, message: expect.stringMatching(message) });
  expect(result.closedAfterMs, 'the server closes the connection').not.toBeNull();
}

const uploadHead = (declaredLength: number) =>
  'POST /checkout/api/csrf HTTP/1.1\r\nHost: checkout.test\r\nContent-Type: application/json\r\n' +
  `Content-Length: ${declaredLength}\r\n\r\n`;

describe('a request that stops arriving', () => {
  it('is answered 408 once its body sends nothing for the idle deadline, and its connection closed', async () => {
    // The shape the issue measured: most of a declared body, then silence.
    const result = await send([uploadHead(200), `{"csrfTokenExpiry":${' '.repeat(150)}`], {
      waitMs: REQUEST_TIMEOUT_MS * 3,
    });
    expectRefusal(
      result,
      408,
      'request_timeout',
      /^The request body stopped arriving \(nothing came for 1 second\)/,
    );
    expect(result.closedAfterMs).toBeGreaterThanOrEqual(BODY_IDLE_TIMEOUT_MS - 50);
    expect(result.closedAfterMs).toBeLessThan(BODY_IDLE_TIMEOUT_MS + SLACK_MS);
  });

  it('lets go of the socket even when the client never closes its side', async () => {
    const result = await send([uploadHead(200), '{"csrfTokenExpiry":'], { waitMs: REQUEST_TIMEOUT_MS * 3 });
    expect(answerOf(result.raw).status).toBe(408);
    expect(result.socket.destroyed).toBe(false);
    // The server gives a client a moment to close after the answer (so the answer is not lost to a reset), then drops it.
    const deadline = Date.now() + 5_000;
    while ((await serverConnections()) > 0 && Date.now() < deadline) await sleep(100);
    expect(await serverConnections()).toBe(0);
  });

  it('is answered 408 at the request deadline when its body trickles in, never idle for long', async () => {
    const result = await send([uploadHead(200), ...Array<string>(100).fill(' ')], {
      gapMs: BODY_IDLE_TIMEOUT_MS / 4,
      waitMs: REQUEST_TIMEOUT_MS * 3,
    });
    expectRefusal(result, 408, 'request_timeout', /^The request took too long to arrive \(over 2 seconds\)/);
    expect(result.closedAfterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    expect(result.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + SLACK_MS);
  });

  it('is answered 408 at the request deadline when its headers stop arriving', async () => {
    const result = await send(['GET /healthz HTTP/1.1\r\nHost: checkout.test\r\nX-Slow: '], {
      waitMs: REQUEST_TIMEOUT_MS * 3,
    });
    expectRefusal(result, 408, 'request_timeout', /^The request took too long to arrive/);
    expect(result.closedAfterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    expect(result.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + SLACK_MS);
  });

  it('leaves alone a request that arrived in time, and a connection waiting between requests', async () => {
    const body = '{"csrfTokenExpiry":600}';
    const result = await send(
      [uploadHead(body.length).slice(0, 40), uploadHead(body.length).slice(40), body],
      {
        gapMs: BODY_IDLE_TIMEOUT_MS / 2,
        waitMs: REQUEST_TIMEOUT_MS + SLACK_MS,
      },
    );
    expect(result.closedAfterMs, 'an idle keep-alive connection is not a late request').toBeNull();
    const answer = answerOf(result.raw);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ csrfTokenExpiry: 600 });
  });
});

describe('requests the HTTP parser refuses', () => {
  it('answers headers over the size limit 431 with the security headers and the error shape', async () => {
    const result = await send(
      [`GET /healthz HTTP/1.1\r\nHost: checkout.test\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`],
      { waitMs: 5_000 },
    );
    expectRefusal(
      result,
      431,
      'headers_too_large',
      /^The request's address and headers together are larger than 16 KB\.$/,
    );
  });

  it('answers a malformed request line 400 likewise', async () => {
    const result = await send(['GET /healthz HTTP/1.1 extra\r\nHost: checkout.test\r\n\r\n'], {
      waitMs: 5_000,
    });
    expectRefusal(result, 400, 'malformed_request', /^The request is not valid HTTP\/1\.1/);
    const garbage = await send(['NOT-HTTP\r\n\r\n'], { waitMs: 5_000 });
    expectRefusal(garbage, 400, 'malformed_request', /^The request is not valid HTTP\/1\.1/);
  });

  it('answers an address over the size limit 414 likewise', async () => {
    const result = await send(
      [`GET /checkout/api/${'a/'.repeat(10_000)} HTTP/1.1\r\nHost: checkout.test\r\n\r\n`],
      {
        waitMs: 5_000,
      },
    );
    expectRefusal(result, 414, 'url_too_long', /^The address is too long/);
  });

  it('logs each refusal without what the client sent', () => {
    const lines = t.logs.filter((line) => line.includes('request refused before it reached the app'));
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const line of lines) expect(line).not.toMatch(/aaaa|X-Big|NOT-HTTP/);
  });
});
