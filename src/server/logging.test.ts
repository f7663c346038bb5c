import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { accessLogOf, createLogger } from './logging.js';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { lines, logger: createLogger({ level: 'info', stream }) };
}

describe('logger', () => {
  it('masks card numbers in messages, fields, nested objects and errors', () => {
    const { lines, logger } = capture();
    logger.info('charging 4111111111111111 now');
    logger.info({ body: { payment: { card_number: '5555555555554444', card_cvv: '123' } } }, 'order');
    logger.info({ note: 'card 6011 1111 1111 1117 was used', pan: 378282246310005 }, 'x');
    logger.error({ err: new Error('declined 4000000000000002') }, 'failed');
    const all = lines.join('\n');
    for (const pan of [
      '4111111111111111',
      '5555555555554444',
      '6011 1111 1111 1117',
      '378282246310005',
      '4000000000000002',
    ]) {
      expect(all).not.toContain(pan);
    }
    expect(all).not.toMatch(/"card_cvv":"123"/);
    expect(all).toContain('[card ••••1111]');
  });

  it("logs an error's type, message and stack, masked, without its SQL parameters", () => {
    const { lines, logger } = capture();
    const error = Object.assign(new TypeError('charge of 4111 1111 1111 1111 failed'), {
      code: '42P01',
      query: 'SELECT 1',
      params: ['ada@example.com'],
    });
    logger.error({ err: error }, 'failed');
    const line = JSON.parse(lines[0] ?? '{}');
    expect(line.err).toMatchObject({
      type: 'TypeError',
      message: 'charge of [card ••••1111] failed',
      code: '42P01',
      query: 'SELECT 1',
    });
    expect(line.err.stack).toContain('TypeError: charge of [card ••••1111] failed');
    expect(line.err).not.toHaveProperty('params');
  });

  it('redacts authorization and CSRF headers', () => {
    const { lines, logger } = capture();
    logger.info(
      { req: { headers: { authorization: 'Bearer secret-token', 'csrf-token': 'csrf-secret' } } },
      'req',
    );
    expect(lines.join('')).not.toContain('secret-token');
    expect(lines.join('')).not.toContain('csrf-secret');
  });

  it('writes access lines to the same output at the same level, and falls back to the logger itself', () => {
    const { lines, logger } = capture();
    accessLogOf(logger).info({ route: '/healthz', status: 200 }, 'request');
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({
      level: 30,
      route: '/healthz',
      status: 200,
      msg: 'request',
    });
    const quiet = createLogger({ level: 'warn', stream: new Writable({ write: (_c, _e, done) => done() }) });
    expect(accessLogOf(quiet).isLevelEnabled('info')).toBe(false);
    const child = logger.child({ part: 'x' });
    expect(accessLogOf(child)).toBe(child);
  });
});
