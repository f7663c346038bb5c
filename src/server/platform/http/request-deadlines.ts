import type { IncomingHttpHeaders, ServerOptions } from 'node:http';
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';
import { describeWaitMs } from '../../../domain/wait-time.js';

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

/** Fastify reads a body for every method but these (its own list of bodyless methods); Node discards theirs. */
const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'TRACE']);

export function hasBodyToRead(method: string, headers: IncomingHttpHeaders): boolean {
  if (BODYLESS_METHODS.has(method)) return false;
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Watches a body as it arrives and fails it with `idleError()` when nothing comes for `idleMs`: through its 'error'
 * event, which the body's reader answers. The body stays paused for its reader (a 'data' listener alone would start
 * the flow before the reader listens) and is not destroyed, so the answer can still go out on its connection. Returns
 * the function that stops watching.
 */
export function watchBodyIdle(body: Readable, idleMs: number, idleError: () => Error): () => void {
  const refresh = () => timer.refresh();
  const stop = () => {
    clearTimeout(timer);
    body.off('data', refresh);
    body.off('end', stop);
    body.off('close', stop);
  };
  const timer = setTimeout(() => {
    stop();
    // Only a body someone reads is failed; one nobody reads (a refused media type) was answered already.
    if (body.listenerCount('error') > 0) body.emit('error', idleError());
  }, idleMs);
  body.pause();
  body.on('data', refresh);
  body.once('end', stop);
  body.once('close', stop);
  return stop;
}

/**
 * A body that stops arriving is answered 408 after `bodyIdleTimeoutMs` of silence, and its connection closed
 * (docs/security.md, "Input"): the whole-request deadline alone would hold each stalled upload's socket and buffered
 * body for the full deadline.
 */
export function installBodyIdleDeadline(app: FastifyInstance, bodyIdleTimeoutMs: number): void {
  const message = `The request body stopped arriving (nothing came for ${describeWaitMs(bodyIdleTimeoutMs)}). Check the connection and send it again.`;
  const idleError = () => new AppError(408, 'request_timeout', message, { headers: { connection: 'close' } });
  app.addHook('preParsing', async (request, reply, payload) => {
    if (hasBodyToRead(request.method, request.headers)) {
      // Once the answer is out the body no longer matters.
      reply.raw.once('close', watchBodyIdle(payload, bodyIdleTimeoutMs, idleError));
    }
    return payload;
  });
}
