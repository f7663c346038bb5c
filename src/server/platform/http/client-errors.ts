import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { Logger } from 'pino';
import type { ApiError } from '../../../contract/errors.js';
import { describeWaitMs } from '../../../domain/wait-time.js';
import {
  FIXED_SECURITY_HEADERS,
  RESOURCE_CONTENT_SECURITY_POLICY,
  STRICT_TRANSPORT_SECURITY,
} from './security-headers.js';

/** What Node's HTTP parser and its deadlines report on the server's 'clientError' event. */
export type ParserError = Error & { code?: string; bytesParsed?: number; rawPacket?: unknown };

export interface ParserLimits {
  requestTimeoutMs: number;
  /** Node's limit on a request's head: the request line and the headers together (--max-http-header-size). */
  maxHeaderBytes: number;
}

const METHOD_THEN_SPACE = /^[A-Z]+ /;

/**
 * Whether a head that passed the size limit did so in its request line (the address), as far as the packet the
 * parser stopped in tells: Node counts the request line and the headers together, and reports where it stopped. It
 * stops right after the address when the address ends in that packet (a space follows), or at the packet's end when
 * the address runs on; then the packet is the request line's own when it starts with the method and holds no line
 * end. A packet that only continues a line begun in an earlier one cannot tell, and counts as headers.
 */
export function overflowedInRequestLine(rawPacket: unknown, bytesParsed: number | undefined): boolean {
  if (!Buffer.isBuffer(rawPacket) || bytesParsed === undefined) return false;
  const parsed = rawPacket.subarray(0, bytesParsed);
  if (parsed.includes(0x0a)) return false;
  if (rawPacket[bytesParsed] === 0x20) return true;
  return (
    bytesParsed === rawPacket.length && METHOD_THEN_SPACE.test(parsed.subarray(0, 16).toString('latin1'))
  );
}

function kilobytes(bytes: number): string {
  return `${Math.floor(bytes / 1024)} KB`;
}

/**
 * The answer to a request refused before it reached the app: too slow to arrive, a head over the size limit, or not
 * HTTP at all. Null when there is no one to answer (the connection was reset).
 */
export function refusalOfParserError(error: ParserError, limits: ParserLimits): ApiError | null {
  switch (error.code) {
    case 'ECONNRESET':
      return null;
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        code: 'request_timeout',
        message: `The request took too long to arrive (over ${describeWaitMs(limits.requestTimeoutMs)}). Check the connection and send it again.`,
      };
    case 'HPE_HEADER_OVERFLOW':
      return overflowedInRequestLine(error.rawPacket, error.bytesParsed)
        ? {
            status: 414,
            code: 'url_too_long',
            message: `The address is too long: a request's address and headers may take ${kilobytes(limits.maxHeaderBytes)} together.`,
          }
        : {
            status: 431,
            code: 'headers_too_large',
            message: `The request's address and headers together are larger than ${kilobytes(limits.maxHeaderBytes)}.`,
          };
    default:
      return {
        status: 400,
        code: 'malformed_request',
        message: 'The request is not valid HTTP/1.1: its request line or a header is malformed.',
      };
  }
}

/** The raw HTTP/1.1 answer, with the same headers and error shape as every answer of the app, closing the connection. */
export function rawErrorAnswer(body: ApiError, options: { tls: boolean }): string {
  const json = JSON.stringify(body);
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(json)),
    connection: 'close',
    'content-security-policy': RESOURCE_CONTENT_SECURITY_POLICY,
    ...FIXED_SECURITY_HEADERS,
    'cache-control': 'no-store',
    ...(options.tls ? { 'strict-transport-security': STRICT_TRANSPORT_SECURITY } : {}),
  };
  const head = [
    `HTTP/1.1 ${body.status} ${STATUS_CODES[body.status] ?? ''}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return `${head.join('\r\n')}\r\n\r\n${json}`;
}

/**
 * After the answer, the client gets this long to close its side before the connection is dropped. Closing at once
 * while the client still sends could reset the connection and lose the answer; waiting for a client that never
 * closes would keep its socket.
 */
const LINGER_MS = 2_000;

/**
 * Fastify's clientErrorHandler: answers what Node's parser refuses (and the request deadline it enforces) like the
 * app answers everything else, then closes the connection. `responses` names the answer in progress on a socket, if
 * any: once its headers are out, nothing else may be written there.
 */
export function createClientErrorHandler(options: {
  limits: ParserLimits;
  logger: Logger;
  responses: WeakMap<Socket, ServerResponse>;
}) {
  return (error: ParserError, socket: Socket): void => {
    // A connection already answered can report again (its client's further bytes, its end): it is closing.
    if (socket.destroyed || socket.writableEnded) return;
    const body = refusalOfParserError(error, options.limits);
    if (!body) return;
    options.logger.info(
      { status: body.status, code: body.code, parserCode: error.code },
      'request refused before it reached the app',
    );
    const inProgress = options.responses.get(socket);
    if (!socket.writable || (inProgress?.headersSent === true && !inProgress.writableEnded)) {
      socket.destroy();
      return;
    }
    const tls = (socket as Partial<TLSSocket>).encrypted === true;
    socket.end(rawErrorAnswer(body, { tls }));
    const linger = setTimeout(() => socket.destroy(), LINGER_MS);
    linger.unref();
    socket.once('close', () => clearTimeout(linger));
  };
}
