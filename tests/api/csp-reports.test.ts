import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ABUSE_LIMITS } from '../../src/server/platform/security/abuse-limits.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

const CART = 'Zx9yWv8uTs7rQp6oNm5lKj4i';
let nextAddress = 10;
/** A public address of its own per test, so each meets the per-IP limit afresh. */
const newAddress = () => `81.2.69.${nextAddress++}`;

function post(type: string, payload: string, remoteAddress = newAddress()) {
  return t.app.inject({
    method: 'POST',
    url: '/checkout/api/csp-reports',
    headers: { 'content-type': type },
    payload,
    remoteAddress,
  });
}

async function scrapeCount(directive: string): Promise<number> {
  const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
  const sample = `checkout_csp_violations_total{directive="${directive}"}`;
  const line = text.split('\n').find((entry) => entry.startsWith(`${sample} `));
  return line === undefined ? 0 : Number(line.slice(sample.length + 1));
}

const warnings = (from: number) =>
  t.logs
    .slice(from)
    .map((line) => JSON.parse(line) as Record<string, any>)
    .filter((line) => line.msg === 'content security policy violated');

describe('POST /checkout/api/csp-reports', () => {
  it("takes report-uri's application/csp-report: 204, logged at warn without the cart token, counted", async () => {
    const before = { logs: t.logs.length, count: await scrapeCount('script-src-elem') };
    const response = await post(
      'application/csp-report',
      JSON.stringify({
        'csp-report': {
          'document-uri': `http://checkout.test/checkout/${CART}?cart_token=${CART}&ship_zipcode=73301`,
          referrer: '',
          'violated-directive': 'script-src-elem',
          'effective-directive': 'script-src-elem',
          'original-policy': "script-src 'self'",
          disposition: 'enforce',
          'blocked-uri': 'https://cdn.evil.example/skim.js?site=checkout',
          'status-code': 200,
        },
      }),
    );
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    const logged = warnings(before.logs);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      level: 40,
      cspViolations: [
        {
          directive: 'script-src-elem',
          blocked: 'https://cdn.evil.example/skim.js',
          document: 'http://checkout.test/checkout/[token]',
          disposition: 'enforce',
        },
      ],
    });
    expect(t.logs.slice(before.logs).join('\n')).not.toMatch(new RegExp(`${CART}|73301|site=checkout`));
    expect(await scrapeCount('script-src-elem')).toBe(before.count + 1);
  });

  it("takes the Reporting API's application/reports+json batch, csp-violation reports only", async () => {
    const before = { logs: t.logs.length, count: await scrapeCount('frame-src') };
    const violation = {
      type: 'csp-violation',
      age: 10,
      url: `http://checkout.test/checkout/${CART}`,
      user_agent: 'Mozilla/5.0',
      body: {
        documentURL: `http://checkout.test/checkout/${CART}`,
        effectiveDirective: 'frame-src',
        blockedURL: 'https://frames.evil.example/card',
        originalPolicy: "frame-src 'none'",
        disposition: 'enforce',
        statusCode: 200,
      },
    };
    const response = await post(
      'application/reports+json',
      JSON.stringify([violation, violation, { type: 'deprecation', age: 1, url: '', body: { id: 'x' } }]),
    );
    expect(response.statusCode).toBe(204);
    expect(warnings(before.logs)[0]?.cspViolations).toHaveLength(2);
    expect(await scrapeCount('frame-src')).toBe(before.count + 2);
  });

  it('refuses another type, another shape and a large body; other routes do not take report types', async () => {
    const report = JSON.stringify({ 'csp-report': { 'effective-directive': 'img-src' } });
    expect((await post('text/plain', report)).statusCode).toBe(415);
    const wrongShape = await post('application/csp-report', JSON.stringify({ hello: 'world' }));
    expect(wrongShape.statusCode).toBe(400);
    expect(JSON.parse(wrongShape.body)).toMatchObject({ code: 'invalid_report' });
    expect((await post('application/csp-report', '{"csp-report":')).statusCode).toBe(400);
    const padded = JSON.stringify({ 'csp-report': { 'script-sample': 'x'.repeat(20_000) } });
    expect((await post('application/csp-report', padded)).statusCode).toBe(413);
    const csrf = await t.app.inject({
      method: 'POST',
      url: '/checkout/api/csrf',
      headers: { 'content-type': 'application/csp-report' },
      payload: '{}',
    });
    expect(csrf.statusCode).toBe(415);
  });

  it('limits reports per client address (429 with Retry-After), not other addresses', async () => {
    const address = newAddress();
    const report = JSON.stringify({ 'csp-report': { 'effective-directive': 'img-src' } });
    const limit = ABUSE_LIMITS.cspReportsPerIp.limit;
    for (let i = 0; i < limit; i++)
      expect((await post('application/csp-report', report, address)).statusCode).toBe(204);
    const refused = await post('application/csp-report', report, address);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'too_many_reports' });
    expect((await post('application/csp-report', report)).statusCode).toBe(204);
    t.clock.advance(ABUSE_LIMITS.cspReportsPerIp.windowMs + 1000);
    expect((await post('application/csp-report', report, address)).statusCode).toBe(204);
  });
});
