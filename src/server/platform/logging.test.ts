import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { accessLogOf, createLogger, lazyChildLogger } from './logging.js';

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

  it('masks card numbers and CVVs however they are written, in a logged error and everywhere else', () => {
    const { lines, logger } = capture();
    const error = new Error('charge of 4111.1111.1111.1111 failed: {"card_cvv":"321"}');
    error.stack = `${error.message}\n    at charge (gateway.ts:1:1) body=card%3D5555%205555%205555%204444%26cvv%3D987`;
    logger.error({ err: error }, 'payment failed');
    logger.warn('retrying 6011\t1111\t1111\t1117 with security code 1234');
    logger.info({ note: '3782_822463_10005', nested: { value: 4111111111111111, cardCvv: '555' } }, 'x');
    const all = lines.join('\n');
    for (const number of [
      '4111.1111.1111.1111',
      '5555%205555%205555%204444',
      '6011\\t1111\\t1111\\t1117',
      '3782_822463_10005',
      '4111111111111111',
    ]) {
      expect(all).not.toContain(number);
    }
    expect(all).not.toMatch(/(?:cvv|security code)(?:[\s\\":=]|%3D)*\d/i);
    const [failed] = lines.map((line) => JSON.parse(line) as { err: { message: string; stack: string } });
    expect(failed?.err.message).toBe('charge of [card ••••1111] failed: {"card_cvv":"[redacted]"}');
    expect(failed?.err.stack).toContain('card%3D[card ••••4444]%26cvv%3D[redacted]');
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

  it('writes access lines as pino would, to the same output at the same level', () => {
    const { lines, logger } = capture();
    const line = {
      reqId: 'r-1',
      method: 'GET',
      route: '/checkout/api/vrio/carts/:cart_token',
      status: 200,
      ms: 3,
    };
    accessLogOf(logger)(line);
    logger.info(line, 'request');
    const [direct, viaPino] = lines.map((text) => JSON.parse(text) as Record<string, unknown>);
    expect(direct).toEqual({ ...viaPino, time: expect.any(Number) });
    expect(Object.keys(direct ?? {})).toEqual(Object.keys(viaPino ?? {}));

    const quietLines: string[] = [];
    const quiet = createLogger({
      level: 'warn',
      stream: new Writable({
        write(chunk: Buffer, _encoding, done) {
          quietLines.push(chunk.toString());
          done();
        },
      }),
    });
    accessLogOf(quiet)(line);
    expect(quietLines).toEqual([]);
  });

  it("makes a request logger only when it is used, with its bindings and the parent's scrubbing", () => {
    const { lines, logger } = capture();
    const lazy = lazyChildLogger(logger, { reqId: 'r-2' }, {});
    expect(lazy.level).toBe('info');
    expect(lines).toEqual([]);
    lazy.warn({ card_number: '4242424242424242' }, 'card 4242 4242 4242 4242 declined');
    const written = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>;
    expect(written).toMatchObject({ level: 40, reqId: 'r-2', card_number: '[redacted]' });
    expect(lines[0]).not.toMatch(/4242 ?4242 ?4242 ?4242/);
    lazy.child({ part: 'x' }).error('child line');
    expect(JSON.parse(lines[1] ?? '{}')).toMatchObject({
      level: 50,
      reqId: 'r-2',
      part: 'x',
      msg: 'child line',
    });
  });
});
