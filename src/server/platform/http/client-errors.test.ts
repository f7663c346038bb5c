import { describe, expect, it } from 'vitest';
import { overflowedInRequestLine, rawErrorAnswer, refusalOfParserError } from './client-errors.js';

const limits = { requestTimeoutMs: 30_000, maxHeaderBytes: 16 * 1024 };

function parserError(code: string, rawPacket?: Buffer, bytesParsed?: number) {
  return Object.assign(new Error(`Parse Error: ${code}`), { code, rawPacket, bytesParsed });
}

describe('overflowedInRequestLine', () => {
  it('sees the address end where the parser stopped: a space follows', () => {
    const packet = Buffer.from(`GET /${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(overflowedInRequestLine(packet, 5 + 20_000)).toBe(true);
  });

  it('sees an address running on to the end of a packet that starts the request', () => {
    const packet = Buffer.from(`GET /${'a'.repeat(17_000)}`);
    expect(overflowedInRequestLine(packet, packet.length)).toBe(true);
  });

  it('counts a head that passed the limit after its request line as headers', () => {
    const packet = Buffer.from(`GET / HTTP/1.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(overflowedInRequestLine(packet, packet.indexOf('\r\n\r\n'))).toBe(false);
    expect(overflowedInRequestLine(packet, packet.length)).toBe(false);
  });

  it('cannot tell from a packet that continues an earlier line, and says headers', () => {
    expect(overflowedInRequestLine(Buffer.from('b'.repeat(9_000)), 9_000)).toBe(false);
    expect(overflowedInRequestLine(undefined, 10)).toBe(false);
  });
});

describe('refusalOfParserError', () => {
  it('answers a late request 408 with the deadline in words', () => {
    expect(refusalOfParserError(parserError('ERR_HTTP_REQUEST_TIMEOUT'), limits)).toEqual({
      status: 408,
      code: 'request_timeout',
      message:
        'The request took too long to arrive (over 30 seconds). Check the connection and send it again.',
    });
  });

  it('answers a head over the limit 431, or 414 when the address alone passed it', () => {
    expect(
      refusalOfParserError(parserError('HPE_HEADER_OVERFLOW', Buffer.from('b'.repeat(100)), 100), limits),
    ).toEqual({
      status: 431,
      code: 'headers_too_large',
      message: "The request's address and headers together are larger than 16 KB.",
    });
    const longAddress = Buffer.from(`GET /${'a'.repeat(100)} HTTP/1.1\r\n`);
    expect(refusalOfParserError(parserError('HPE_HEADER_OVERFLOW', longAddress, 105), limits)).toMatchObject({
      status: 414,
      code: 'url_too_long',
    });
  });

  it('answers anything else the parser refuses 400, and a reset connection not at all', () => {
    for (const code of ['HPE_INVALID_METHOD', 'HPE_INVALID_HEADER_TOKEN', 'HPE_UNEXPECTED_CONTENT_LENGTH']) {
      expect(refusalOfParserError(parserError(code), limits)).toMatchObject({
        status: 400,
        code: 'malformed_request',
      });
    }
    expect(refusalOfParserError(parserError('ECONNRESET'), limits)).toBeNull();
  });
});

describe('rawErrorAnswer', () => {
  const body = { status: 431, code: 'headers_too_large', message: 'Too large — “16 KB”.' };

  it('is one HTTP/1.1 answer in the error shape that closes the connection', () => {
    const answer = rawErrorAnswer(body, { tls: false });
    const [head = '', json = ''] = answer.split('\r\n\r\n');
    const [statusLine, ...lines] = head.split('\r\n');
    expect(statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(JSON.parse(json)).toEqual(body);
    expect(lines).toContain(`content-length: ${Buffer.byteLength(json)}`);
    expect(lines).toContain('connection: close');
    expect(lines).toContain("content-security-policy: default-src 'none'; frame-ancestors 'none'");
    expect(lines).toContain('x-frame-options: DENY');
    expect(lines.some((line) => line.startsWith('strict-transport-security'))).toBe(false);
  });

  it('adds HSTS on a TLS connection', () => {
    expect(rawErrorAnswer(body, { tls: true })).toContain(
      'strict-transport-security: max-age=63072000; includeSubDomains',
    );
  });
});
