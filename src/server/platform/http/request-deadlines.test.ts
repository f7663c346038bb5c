import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { hasBodyToRead, requestDeadlineOptions, watchBodyIdle } from './request-deadlines.js';

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

describe('watchBodyIdle', () => {
  const idle = () => new Error('idle');

  it('lets the body through to its reader while it keeps coming, and stops at its end', async () => {
    const body = new PassThrough();
    const errors: Error[] = [];
    body.on('error', (error) => errors.push(error));
    watchBodyIdle(body, 200, idle);
    const chunks: Buffer[] = [];
    body.on('data', (chunk: Buffer) => chunks.push(chunk));
    body.resume();
    for (const part of ['{"a":', '1', '}']) {
      body.write(part);
      await new Promise((wait) => setTimeout(wait, 100));
    }
    body.end();
    await new Promise((resolve) => body.once('end', resolve));
    await new Promise((wait) => setTimeout(wait, 300));
    expect(Buffer.concat(chunks).toString()).toBe('{"a":1}');
    expect(errors).toEqual([]);
  });

  it('keeps the body paused until its reader starts it, losing nothing', async () => {
    const body = new PassThrough();
    watchBodyIdle(body, 1_000, idle);
    body.write('{"a":1}');
    await new Promise((wait) => setTimeout(wait, 50));
    const chunks: Buffer[] = [];
    body.on('data', (chunk: Buffer) => chunks.push(chunk));
    body.resume();
    body.end();
    await new Promise((resolve) => body.once('end', resolve));
    expect(Buffer.concat(chunks).toString()).toBe('{"a":1}');
  });

  it('fails the body once nothing comes for the idle time, leaving it open for the answer', async () => {
    const body = new PassThrough();
    const failed = new Promise<Error>((resolve) => body.once('error', resolve));
    watchBodyIdle(body, 100, idle);
    body.resume();
    body.write('{"a":');
    const started = Date.now();
    const error = await failed;
    expect(error.message).toBe('idle');
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    expect(body.destroyed).toBe(false);
  });
});
