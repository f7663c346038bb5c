import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/server/platform/clock.js';
import { createLogger } from '../../src/server/platform/logging.js';
import {
  buildTestProcessorApp,
  TOKEN_REQUESTS_PER_IP,
} from '../../src/server/platform/payments/test-processor/test-processor-app.js';
import { PROCESSOR_CONFIG_PLACEHOLDER } from '../../src/server/platform/payments/test-processor/test-processor-pages.js';
import {
  findToken,
  insertChallenge,
} from '../../src/server/platform/payments/test-processor/test-processor-repository.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';

const CHECKOUT = 'http://checkout.test';
const PROCESSOR = 'http://processor.test';
const FRAME_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
  `base-uri 'none'; form-action 'none'; frame-ancestors ${CHECKOUT}`;

let database: TestDatabase;
let app: FastifyInstance;
const clock = new ManualClock('2026-11-21T12:00:00.000Z');
const logs: string[] = [];
let ipCounter = 0;

/** Each test calls from an address of its own, so the per-IP limit is met only where a test means it. */
const freshIp = () => `203.0.113.${++ipCounter}`;

const card = { number: '4111 1111 1111 1111', cvv: '123', exp_month: 12, exp_year: 2028 };

function post(url: string, payload: unknown, extra: Partial<InjectOptions> = {}) {
  return app.inject({
    method: 'POST',
    url,
    payload: payload as InjectOptions['payload'],
    remoteAddress: freshIp(),
    ...extra,
    headers: { origin: PROCESSOR, 'content-type': 'application/json', ...extra.headers },
  });
}

async function newChallenge(key: string) {
  await database.db.query(
    `INSERT INTO test_gateway_charges (idempotency_key, kind, amount, currency, status, reference)
     VALUES ($1, 'charge', 1000, 'USD', 'requires_action', $2)`,
    [key, `ch_${key}`],
  );
  return insertChallenge(database.db, key, clock.now());
}

beforeAll(async () => {
  database = await createTestDatabase();
  const clientDir = mkdtempSync(path.join(tmpdir(), 'sc-processor-'));
  const frameDir = path.join(clientDir, 'card-frame');
  mkdirSync(path.join(frameDir, 'assets'), { recursive: true });
  writeFileSync(
    path.join(frameDir, 'index.html'),
    `<!doctype html><html lang="en"><head><title>Card</title>${PROCESSOR_CONFIG_PLACEHOLDER}` +
      '<script type="module" src="/assets/frame-1a2b.js"></script></head><body></body></html>',
  );
  writeFileSync(
    path.join(frameDir, 'challenge.html'),
    `<!doctype html><html lang="en"><head><title>Confirm</title>${PROCESSOR_CONFIG_PLACEHOLDER}</head>` +
      '<body><h1>Your bank asks you to confirm this payment</h1></body></html>',
  );
  writeFileSync(path.join(frameDir, 'assets', 'frame-1a2b.js'), 'console.log("frame");\n');
  mkdirSync(path.join(clientDir, 'assets'));
  writeFileSync(path.join(clientDir, 'assets', 'index-9z.js'), 'console.log("checkout page");\n');
  mkdirSync(path.join(clientDir, 'images', 'cards'), { recursive: true });
  writeFileSync(
    path.join(clientDir, 'images', 'cards', 'visa.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg"/>',
  );
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(chunk.toString());
      done();
    },
  });
  app = await buildTestProcessorApp({
    db: database.db,
    clock,
    logger: createLogger({ level: 'debug', stream }),
    checkoutOrigin: `${CHECKOUT}/`,
    clientDir,
    processorOrigin: PROCESSOR,
  });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await database?.drop();
});

describe('GET /frame', () => {
  it('serves the card fields, framed by the checkout origin only, with that origin in a JSON block', async () => {
    const response = await app.inject({ method: 'GET', url: '/frame' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['content-security-policy']).toBe(FRAME_POLICY);
    expect(response.headers['x-frame-options']).toBeUndefined();
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.body).toContain(
      `<script type="application/json" id="processor-config">{"checkoutOrigin":"${CHECKOUT}"}</script>`,
    );
    expect(response.body).not.toContain(PROCESSOR_CONFIG_PLACEHOLDER);
  });

  it("serves the frame's own assets and the brand icons, never the checkout page's assets", async () => {
    const script = await app.inject({ method: 'GET', url: '/assets/frame-1a2b.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['cache-control']).toContain('immutable');
    expect(script.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(script.headers['x-frame-options']).toBe('DENY');
    expect((await app.inject({ method: 'GET', url: '/images/cards/visa.svg' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/assets/index-9z.js' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/assets/../../assets/index-9z.js' })).statusCode).toBe(
      404,
    );
  });
});

describe('POST /v1/tokens', () => {
  it('tokenizes a valid card and keeps its brand, last 4 and expiry, never the number or the CVV', async () => {
    const response = await post('/v1/tokens', card);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.json();
    expect(body).toEqual({
      token: expect.stringMatching(/^tok_test_/),
      brand: 'visa',
      last4: '1111',
      exp_month: 12,
      exp_year: 2028,
    });
    const stored = await findToken(database.db, body.token);
    expect(stored).toMatchObject({ behaviour: 'approve', test_card: false, used_at: null });
    const { rows } = await database.db.query('SELECT * FROM test_processor_tokens WHERE token = $1', [
      body.token,
    ]);
    expect(JSON.stringify(rows)).not.toMatch(/4111111111111111|"123"/);
  });

  it.each([
    ['4000 0000 0000 0002', 'decline'],
    ['4000000000009995', 'insufficient_funds'],
    ['4000000000000119', 'processor_error'],
    ['4000 0027 6000 3184', 'authenticate'],
    ['5555555555554444', 'approve'],
  ])('remembers what %s means: %s', async (number, behaviour) => {
    const response = await post('/v1/tokens', { ...card, number });
    expect(response.statusCode).toBe(200);
    expect((await findToken(database.db, response.json().token))?.behaviour).toBe(behaviour);
  });

  it('marks a number among the test cards given, even one no network would issue', async () => {
    const response = await post('/v1/tokens', {
      ...card,
      number: '4242424242424241',
      exp_year: '29',
      test_cards: ['4242 4242 4242 4241'],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ brand: 'testcard', last4: '4241', exp_year: 2029 });
    expect(await findToken(database.db, response.json().token)).toMatchObject({ test_card: true });
  });

  it('answers 422 with the messages the fields show', async () => {
    const response = await post('/v1/tokens', {
      number: '3530 1113 3330 0000',
      cvv: '12',
      exp_month: 10,
      exp_year: 2026,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      code: 'validation_failed',
      fields: {
        number: 'We accept Visa, Mastercard, Discover and American Express. Use one of those cards.',
        exp_year: 'This card has expired. Use another card.',
        cvv: 'Enter the 3-digit security code on the back of the card.',
      },
    });
    const amex = await post('/v1/tokens', { ...card, number: '378282246310005', cvv: '123' });
    expect(amex.json().fields).toEqual({ cvv: 'Enter the 4-digit security code on the front of the card.' });
    const typo = await post('/v1/tokens', { ...card, number: '4111111111111112', exp_month: 13 });
    expect(typo.json().fields).toEqual({
      number: 'This card number is not valid. Check it for typos.',
      exp_month: 'Enter the expiry month, 01 to 12.',
    });
    const short = await post('/v1/tokens', { ...card, number: '41111111111' });
    expect(short.json().fields.number).toBe(
      'This card number is too short or too long. Check it and try again.',
    );
  });

  it("says the field messages in the frame's language, sent as Accept-Language", async () => {
    const response = await post(
      '/v1/tokens',
      { ...card, number: '4111111111111112', cvv: '12' },
      { headers: { 'accept-language': 'es' } },
    );
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      code: 'validation_failed',
      fields: {
        number: 'Este número de tarjeta no es válido. Comprueba que no haya errores.',
        cvv: 'Introduce el código de seguridad de 3 dígitos del reverso de la tarjeta.',
      },
    });
  });

  it('answers 400 to a body of the wrong shape', async () => {
    expect((await post('/v1/tokens', { ...card, number: 4111111111111111 })).statusCode).toBe(400);
    expect((await post('/v1/tokens', { ...card, test_cards: 'all' })).statusCode).toBe(400);
    expect((await post('/v1/tokens', [card])).statusCode).toBe(400);
  });

  it('refuses calls from any other origin, the checkout included', async () => {
    for (const origin of [CHECKOUT, 'http://evil.test', 'null']) {
      const response = await post('/v1/tokens', card, { headers: { origin } });
      expect(response.statusCode).toBe(403);
    }
    const none = await app.inject({ method: 'POST', url: '/v1/tokens', payload: card });
    expect(none.statusCode).toBe(403);
  });

  it('limits how many tokens one address asks for', async () => {
    const remoteAddress = '198.51.100.7';
    for (let i = 0; i < TOKEN_REQUESTS_PER_IP.limit; i++) {
      expect((await post('/v1/tokens', { ...card, cvv: '1' }, { remoteAddress })).statusCode).toBe(422);
    }
    const refused = await post('/v1/tokens', card, { remoteAddress });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    clock.advance(TOKEN_REQUESTS_PER_IP.windowMs);
    expect((await post('/v1/tokens', card, { remoteAddress })).statusCode).toBe(200);
  });

  it('takes another limit when it is given one (TEST_PROCESSOR_TOKENS_PER_IP), in the same window', async () => {
    const limited = await buildTestProcessorApp({
      db: database.db,
      clock,
      logger: createLogger({ level: 'silent' }),
      checkoutOrigin: CHECKOUT,
      clientDir: null,
      processorOrigin: PROCESSOR,
      tokenRequestsPerIp: 2,
    });
    try {
      const ask = () =>
        limited.inject({
          method: 'POST',
          url: '/v1/tokens',
          payload: card,
          remoteAddress: '198.51.100.8',
          headers: { origin: PROCESSOR },
        });
      expect((await ask()).statusCode).toBe(200);
      expect((await ask()).statusCode).toBe(200);
      expect((await ask()).statusCode).toBe(429);
      clock.advance(TOKEN_REQUESTS_PER_IP.windowMs);
      expect((await ask()).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('never logs the card', async () => {
    await post('/v1/tokens', { ...card, number: '4111111111111111', cvv: '987' });
    await post('/v1/tokens', '{"number": "4111111111111111", "cvv": "987",');
    expect(logs.join('')).not.toMatch(/4111111111111111|987/);
  });
});

describe('the 3-D Secure challenge', () => {
  it('shows the bank page, framed by the checkout only, with its state in the config block', async () => {
    const challenge = await newChallenge('order_1_1_attempt_1');
    const response = await app.inject({ method: 'GET', url: `/challenge/${challenge.id}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-security-policy']).toBe(FRAME_POLICY);
    expect(response.headers['x-frame-options']).toBeUndefined();
    expect(response.body).toContain('Your bank asks you to confirm this payment');
    expect(response.body).toContain(
      `{"checkoutOrigin":"${CHECKOUT}","challenge":{"id":"${challenge.id}","status":"pending"}}`,
    );
    expect((await app.inject({ method: 'GET', url: '/challenge/auth_test_nope' })).statusCode).toBe(404);
  });

  it('is decided once by the challenge page', async () => {
    const challenge = await newChallenge('order_1_1_attempt_2');
    const completed = await post(`/challenge/${challenge.id}`, { result: 'complete' });
    expect(completed.statusCode).toBe(200);
    expect(completed.json()).toEqual({ status: 'succeeded' });
    const again = await post(`/challenge/${challenge.id}`, { result: 'fail' });
    expect(again.json()).toEqual({ status: 'succeeded' });
    const failed = await newChallenge('order_1_1_attempt_3');
    expect((await post(`/challenge/${failed.id}`, { result: 'fail' })).json()).toEqual({ status: 'failed' });
    const page = await app.inject({ method: 'GET', url: `/challenge/${failed.id}` });
    expect(page.body).toContain('"status":"failed"');
  });

  it('refuses other origins, unknown challenges and other results', async () => {
    const challenge = await newChallenge('order_1_1_attempt_4');
    const foreign = await post(
      `/challenge/${challenge.id}`,
      { result: 'complete' },
      { headers: { origin: CHECKOUT } },
    );
    expect(foreign.statusCode).toBe(403);
    expect((await post(`/challenge/${challenge.id}`, { result: 'maybe' })).statusCode).toBe(400);
    expect((await post('/challenge/auth_test_nope', { result: 'complete' })).statusCode).toBe(404);
  });
});

describe('every answer', () => {
  it('carries the security headers, errors included', async () => {
    for (const [url, status] of [
      ['/nothing-here', 404],
      ['/v1/tokens', 404],
      ['/challenge/%zz', 400],
      [`/challenge/${'a'.repeat(101)}`, 414],
    ] as const) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(status);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    }
  });
});
