import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { hasBodyToRead, requestDeadlineOptions, withIdleDeadline } from './request-deadlines.js';

describe('requestDeadlineOptions', () => {
  it("turns Node's request and head deadlines on, checked often enough to end a late request near its deadline", () => {
    expect(requestDeadlineOptions(30_000)).toEqual({
      requestTimeout: 30_000,
      http: { requestTimeout: 30_000, headersTimeout: 30_000, connectionsCheckingInterval: 1_000 },
    });
    expect(requestDeadlineOptions(2_000).http.connectionsCheckingInterval).toBe(500);
  });
});

describe('hasBodyToRead', () => {
  it('knows which requests carry a body the app reads', () => {
    expect(hasBodyToRead('POST', { 'content-length': '12' })).toBe(true);
    expect(hasBodyToRead('PUT', { 'transfer-encoding': 'chunked' })).toBe(true);
    expect(hasBodyToRead('POST', { 'content-length': '0' })).toBe(false);
    expect(hasBodyToRead('POST', {})).toBe(false);
    expect(hasBodyToRead('GET', { 'content-length': '12' })).toBe(false);
  });
});

describe('withIdleDeadline', () => {
  const idle = () => new Error('idle');

  it('passes the body through while it keeps coming', async () => {
    const source = new PassThrough();
    const guarded = withIdleDeadline(source, 200, idle);
    const chunks: Buffer[] = [];
    guarded.on('data', (chunk: Buffer) => chunks.push(chunk));
    for (const part of ['{"a":', '1', '}']) {
      source.write(part);
      await new Promise((wait) => setTimeout(wait, 100));
    }
    source.end();
    await new Promise((resolve) => guarded.once('end', resolve));
    expect(Buffer.concat(chunks).toString()).toBe('{"a":1}');
  });

  it('fails once nothing comes for the idle time, leaving the source open for the answer', async () => {
    const source = new PassThrough();
    const guarded = withIdleDeadline(source, 100, idle);
    guarded.resume();
    source.write('{"a":');
    const started = Date.now();
    const error = await new Promise<Error>((resolve) => guarded.once('error', resolve));
    expect(error.message).toBe('idle');
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    expect(source.destroyed).toBe(false);
  });
});
