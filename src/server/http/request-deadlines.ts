import type { IncomingHttpHeaders, ServerOptions } from 'node:http';
import { Transform, type Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';
import { describeWait } from '../security/abuse-limits.js';

/**
 * Node's own deadlines for a request, as Fastify passes them to the HTTP server. Fastify turns Node's request
 * deadline off by default (requestTimeout 0), so a body that stops arriving held its socket and buffers forever.
 * The head and the whole request get the same deadline; Node answers it on 'clientError' (client-errors.ts). Node
 * looks for late requests every connectionsCheckingInterval (30 s by default): every second, or a quarter of the
 * deadline when that is shorter, so a late request ends close to its deadline. The socket's own idle timeout
 * (Fastify's connectionTimeout) stays off: a request waiting on the payment gateway sends nothing either.
 */
export function requestDeadlineOptions(requestTimeoutMs: number): {
  requestTimeout: number;
  http: ServerOptions;
} {
  return {
    requestTimeout: requestTimeoutMs,
    http: {
      requestTimeout: requestTimeoutMs,
      headersTimeout: requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1_000, Math.ceil(requestTimeoutMs / 4)),
    },
  };
}

/** Fastify reads a body for these methods only; others leave it to Node to discard. */
const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'TRACE']);

export function hasBodyToRead(method: string, headers: IncomingHttpHeaders): boolean {
  if (BODYLESS_METHODS.has(method)) return false;
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * The body as it arrives, failed with `idleError()` when nothing comes for `idleMs`. The source is left unread
 * (not destroyed) so the answer can still go out on its connection.
 */
export function withIdleDeadline(source: Readable, idleMs: number, idleError: () => Error): Readable {
  const timer = setTimeout(() => {
    source.unpipe(guarded);
    guarded.destroy(idleError());
  }, idleMs);
  const guarded = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      timer.refresh();
      done(null, chunk);
    },
    flush(done) {
      clearTimeout(timer);
      done();
    },
  });
  guarded.once('close', () => clearTimeout(timer));
  // Fastify listens while it reads the body; one it never reads (a refused media type) must not crash the process.
  guarded.on('error', () => undefined);
  source.once('error', (error) => guarded.destroy(error));
  source.pipe(guarded);
  return guarded;
}

/**
 * A body that stops arriving is answered 408 after `bodyIdleTimeoutMs` of silence, and its connection closed
 * (docs/security.md, "Input"): the whole-request deadline alone would hold each stalled upload's socket and buffered
 * body for the full deadline.
 */
export function installBodyIdleDeadline(app: FastifyInstance, bodyIdleTimeoutMs: number): void {
  const idleError = () =>
    new AppError(
      408,
      'request_timeout',
      `The request body stopped arriving (nothing came for ${describeWait(Math.max(1, Math.ceil(bodyIdleTimeoutMs / 1000)))}). Check the connection and send it again.`,
      { headers: { connection: 'close' } },
    );
  app.addHook('preParsing', async (request, reply, payload) => {
    if (!hasBodyToRead(request.method, request.headers)) return payload;
    const guarded = withIdleDeadline(payload, bodyIdleTimeoutMs, idleError);
    // Once the answer is out the body no longer matters.
    reply.raw.once('close', () => guarded.destroy());
    return guarded;
  });
}
