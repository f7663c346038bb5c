import { randomBytes } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenService } from '../../src/server/platform/security/tokens.js';
import { anotherInstance } from '../helpers/another-instance.js';
import {
  createTestApp,
  createTestOrganization,
  injectJson,
  type JsonResponse,
  type TestApp,
} from '../helpers/test-app.js';

let t: TestApp;
let organization: string;

beforeAll(async () => {
  t = await createTestApp();
  organization = (await createTestOrganization(t.db)).publicId;
});

afterAll(async () => {
  await t.close();
});

const csrf = (payload: unknown, app = t.app) =>
  injectJson(app, { method: 'POST', url: '/checkout/api/csrf', payload: payload as object });

const authorize = (headers: Record<string, string>, payload: unknown = { organization }, app = t.app) =>
  injectJson(app, { method: 'POST', url: '/checkout/api/authorize', headers, payload: payload as object });

async function csrfToken(expiry?: number, app = t.app): Promise<string> {
  const response = await csrf(expiry === undefined ? {} : { csrfTokenExpiry: expiry }, app);
  expect(response.status).toBe(200);
  return response.body.csrfToken as string;
}

function expectError(response: JsonResponse, status: number, code: string, message: string) {
  expect(response.status).toBe(status);
  expect(response.body).toEqual({ status, code, message });
}

const CSRF_MISSING = 'This request needs a CSRF token. Reload the page to get a fresh one.';
const CSRF_INVALID = 'The CSRF token is not valid. Reload the page to get a fresh one.';
const CSRF_EXPIRED = 'The CSRF token has expired. Reload the page to get a fresh one.';

describe('POST /checkout/api/csrf', () => {
  it('answers a signed token valid for 3600 seconds by default', async () => {
    const response = await csrf({});
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ csrfToken: expect.any(String), csrfTokenExpiry: 3600 });
    const claims = decodeJwt(response.body.csrfToken);
    expect(decodeProtectedHeader(response.body.csrfToken)).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(claims).toMatchObject({ iss: 'secure-checkout', aud: 'checkout-csrf' });
    expect(claims.iat).toBe(Math.floor(t.clock.now().getTime() / 1000));
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(3600);
    // Each token is its own (a fresh id), even within the same second.
    expect((await csrf({})).body.csrfToken).not.toBe(response.body.csrfToken);
  });

  it('answers a token valid for the seconds asked, from 16 up, capped at a day', async () => {
    for (const [asked, given] of [
      [16, 16],
      [180, 180],
      [16.9, 16],
      [86_400, 86_400],
      [1e9, 86_400],
    ] as const) {
      const response = await csrf({ csrfTokenExpiry: asked });
      expect(response.status, String(asked)).toBe(200);
      expect(response.body.csrfTokenExpiry).toBe(given);
      const claims = decodeJwt(response.body.csrfToken);
      expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(given);
    }
  });

  it("accepts the page's _is_vrio_checkout marker and ip_address", async () => {
    const response = await csrf({ csrfTokenExpiry: 600, _is_vrio_checkout: 1, ip_address: '81.2.69.160' });
    expect(response.status).toBe(200);
    expect(response.body.csrfTokenExpiry).toBe(600);
  });

  it('answers 400 with the rule in words when the expiry is not a number of at least 16', async () => {
    const notANumber = 'csrfTokenExpiry must be a number of seconds.';
    const tooShort = 'csrfTokenExpiry must be at least 16 seconds.';
    for (const [payload, message] of [
      [{ csrfTokenExpiry: 'abc' }, notANumber],
      [{ csrfTokenExpiry: '3600' }, notANumber],
      [{ csrfTokenExpiry: 'NaN' }, notANumber],
      [{ csrfTokenExpiry: null }, notANumber],
      [{ csrfTokenExpiry: true }, notANumber],
      [{ csrfTokenExpiry: [60] }, notANumber],
      [{ csrfTokenExpiry: { seconds: 60 } }, notANumber],
      [{ csrfTokenExpiry: 15 }, tooShort],
      [{ csrfTokenExpiry: 15.99 }, tooShort],
      [{ csrfTokenExpiry: 0 }, tooShort],
      [{ csrfTokenExpiry: -3600 }, tooShort],
    ] as const) {
      const response = await csrf(payload);
      expect(response.status, JSON.stringify(payload)).toBe(400);
      expect(response.body).toEqual({
        status: 400,
        code: 'invalid_csrf_request',
        message,
        fields: { csrfTokenExpiry: message },
      });
    }
  });

  it('answers 400 for an expiry JSON can only spell as infinity (1e999)', async () => {
    const response = await injectJson(t.app, {
      method: 'POST',
      url: '/checkout/api/csrf',
      headers: { 'content-type': 'application/json' },
      payload: '{"csrfTokenExpiry":1e999}',
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      code: 'invalid_csrf_request',
      message: 'csrfTokenExpiry must be a number of seconds.',
    });
  });

  it('answers 400 naming an unexpected field', async () => {
    const response = await csrf({ csrfTokenExpiry: 60, admin: true });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      code: 'invalid_csrf_request',
      fields: { admin: 'This field is not expected here.' },
    });
  });
});

describe('POST /checkout/api/authorize', () => {
  it('answers an access token, its type and lifetime for a valid CSRF token', async () => {
    const response = await authorize(
      { 'csrf-token': await csrfToken() },
      { organization, _is_vrio_checkout: 1 },
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 3600,
    });
    const claims = decodeJwt(response.body.access_token);
    expect(decodeProtectedHeader(response.body.access_token).alg).toBe('HS256');
    expect(claims).toMatchObject({ iss: 'secure-checkout', aud: 'checkout-api', sub: organization });
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(3600);
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('answers 403 without a CSRF token', async () => {
    expectError(await authorize({}), 403, 'csrf_token_missing', CSRF_MISSING);
    expectError(await authorize({ 'csrf-token': '' }), 403, 'csrf_token_missing', CSRF_MISSING);
  });

  it('answers 403 for a forged or tampered CSRF token', async () => {
    const good = await csrfToken();
    const [header, payload, signature] = good.split('.');
    const otherPayload = Buffer.from(
      JSON.stringify({ ...decodeJwt(good), exp: (decodeJwt(good).exp ?? 0) + 86_400 * 365 }),
    ).toString('base64url');
    for (const forged of [
      'forged',
      'a.b.c',
      `${header}.${otherPayload}.${signature}`,
      `${header}.${payload}.${randomBytes(32).toString('base64url')}`,
      `${header}.${payload}.`,
      good.slice(0, -2),
      'x'.repeat(5000),
    ]) {
      expectError(await authorize({ 'csrf-token': forged }), 403, 'csrf_token_invalid', CSRF_INVALID);
    }
  });

  it('answers 403 for an expired CSRF token, once its seconds have passed', async () => {
    const token = await csrfToken(16);
    t.clock.advance(15_000);
    expect((await authorize({ 'csrf-token': token })).status).toBe(200);
    t.clock.advance(1000);
    expectError(await authorize({ 'csrf-token': token }), 403, 'csrf_token_expired', CSRF_EXPIRED);
  });

  it('answers 403 for a CSRF token signed with another secret', async () => {
    // What another deployment (another TOKEN_SECRET) issues, with the same code.
    const other = createTokenService({ current: randomBytes(32).toString('hex') }, t.clock);
    const foreign = await other.issueCsrfToken(3600);
    expectError(await authorize({ 'csrf-token': foreign }), 403, 'csrf_token_invalid', CSRF_INVALID);
  });

  it('answers 403 for an access token presented as the CSRF token (another audience)', async () => {
    const access = (await authorize({ 'csrf-token': await csrfToken() })).body.access_token as string;
    expectError(await authorize({ 'csrf-token': access }), 403, 'csrf_token_invalid', CSRF_INVALID);
  });

  it('refuses tokens with another algorithm, issuer or no expiry, even signed with the right secret', async () => {
    const key = new TextEncoder().encode(t.tokenSecret);
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const claims = { iss: 'secure-checkout', aud: 'checkout-csrf', iat: now, exp: now + 600, jti: 'x' };
    const unsigned = [
      Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url'),
      Buffer.from(JSON.stringify(claims)).toString('base64url'),
      '',
    ].join('.');
    const hs512 = await new SignJWT(claims).setProtectedHeader({ alg: 'HS512' }).sign(key);
    const otherIssuer = await new SignJWT({ ...claims, iss: 'someone-else' })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(key);
    const { exp: _exp, ...withoutExpiry } = claims;
    const noExpiry = await new SignJWT(withoutExpiry).setProtectedHeader({ alg: 'HS256' }).sign(key);
    // The same claims, signed properly, pass: the refusals above are about the one thing changed.
    const proper = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(key);
    expect((await authorize({ 'csrf-token': proper })).status).toBe(200);
    for (const token of [unsigned, hs512, otherIssuer, noExpiry]) {
      expectError(await authorize({ 'csrf-token': token }), 403, 'csrf_token_invalid', CSRF_INVALID);
    }
  });

  it('answers 404 for an unknown organization, and 422 when none is named', async () => {
    const token = await csrfToken();
    expectError(
      await authorize({ 'csrf-token': token }, { organization: 'no-such-store' }),
      404,
      'organization_not_found',
      'This store could not be found. Check the checkout link.',
    );
    const missing = await authorize({ 'csrf-token': token }, {});
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({
      code: 'validation_failed',
      fields: { organization: expect.any(String) },
    });
  });

  it('finds an organization created after its public id was asked for, and keeps answering it', async () => {
    const token = await csrfToken();
    const publicId = `late-store-${randomBytes(3).toString('hex')}`;
    expect((await authorize({ 'csrf-token': token }, { organization: publicId })).status).toBe(404);
    // Not remembered as missing: once the store exists, its links work at once.
    const created = await createTestOrganization(t.db, { publicId });
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await authorize({ 'csrf-token': token }, { organization: publicId });
      expect(response.status).toBe(200);
      expect(decodeJwt(response.body.access_token).sub).toBe(created.publicId);
    }
  });

  it('checks the CSRF token before anything else: an unknown organization without one is 403', async () => {
    const response = await authorize({}, { organization: 'no-such-store' });
    expect(response.status).toBe(403);
  });
});

describe('authorize rate limit', () => {
  it('answers 429 with Retry-After after 30 authorizations a minute from one IP, counting unknown organizations and ignoring a claimed ip_address', async () => {
    const token = await csrfToken();
    const from = (ip: string, payload: unknown = { organization }) =>
      injectJson(t.app, {
        method: 'POST',
        url: '/checkout/api/authorize',
        headers: { 'csrf-token': token },
        payload: payload as object,
        remoteAddress: ip,
      });
    // The ip_address a page sends is accepted but not believed: the server counts its own view of the client.
    for (let i = 0; i < 25; i++) {
      expect((await from('81.2.69.10', { organization, ip_address: `81.2.70.${i}` })).status).toBe(200);
    }
    for (let i = 0; i < 5; i++)
      expect((await from('81.2.69.10', { organization: 'guess' })).status).toBe(404);
    const refused = await from('81.2.69.10');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.body).toEqual({
      status: 429,
      code: 'too_many_requests',
      message: 'Too many checkout sessions were started from your network. Please try again in 1 minute.',
    });
    expect((await from('81.2.69.11')).status).toBe(200);
    t.clock.advance(60_000);
    expect((await from('81.2.69.10')).status).toBe(200);
  });

  it('counts the address a trusted proxy names, and only from a trusted proxy', async () => {
    const behindProxy = await anotherInstance(t, { config: { trustedProxies: ['10.0.0.0/8'] } });
    try {
      const token = await csrfToken(undefined, behindProxy);
      const via = (remoteAddress: string, forwardedFor: string) =>
        injectJson(behindProxy, {
          method: 'POST',
          url: '/checkout/api/authorize',
          headers: { 'csrf-token': token, 'x-forwarded-for': forwardedFor },
          payload: { organization },
          remoteAddress,
        });
      for (let i = 0; i < 30; i++) expect((await via('10.0.0.2', `81.2.69.20, 10.0.0.9`)).status).toBe(200);
      expect((await via('10.0.0.3', '81.2.69.20')).status).toBe(429);
      // Another shopper behind the same proxy is not affected.
      expect((await via('10.0.0.2', '81.2.69.21')).status).toBe(200);
      // A client that is not the proxy cannot pick the address it is counted under.
      for (let i = 0; i < 31; i++) {
        expect((await via('81.2.69.30', `81.2.69.${100 + i}`)).status).toBe(i < 30 ? 200 : 429);
      }
    } finally {
      await behindProxy.close();
    }
  });

  it('never lets parallel authorizations from one IP past the limit', async () => {
    const token = await csrfToken();
    const responses = await Promise.all(
      Array.from({ length: 45 }, () =>
        injectJson(t.app, {
          method: 'POST',
          url: '/checkout/api/authorize',
          headers: { 'csrf-token': token },
          payload: { organization },
          remoteAddress: '81.2.69.40',
        }),
      ),
    );
    expect(responses.filter((response) => response.status === 200)).toHaveLength(30);
    expect(responses.filter((response) => response.status === 429)).toHaveLength(15);
  });
});
