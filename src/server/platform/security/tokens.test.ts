import { jwtVerify } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../clock.js';
import { ACCESS_TOKEN_LIFETIME_SECONDS, createTokenService, VERIFIED_TOKENS_KEPT } from './tokens.js';

const SECRET = 'a'.repeat(40);
const OTHER = 'b'.repeat(40);
const claims = { organizationId: 7, organizationPublicId: 'demo' };

describe('createTokenService', () => {
  it('accepts its own access token again and again until it expires, then calls it expired', async () => {
    const clock = new ManualClock();
    const tokens = createTokenService({ current: SECRET }, clock);
    const { token } = await tokens.issueAccessToken(claims);
    for (let i = 0; i < 3; i++)
      expect(await tokens.verifyAccessToken(token)).toEqual({ ok: true, value: claims });
    clock.advance(ACCESS_TOKEN_LIFETIME_SECONDS * 1000 - 1000);
    expect((await tokens.verifyAccessToken(token)).ok).toBe(true);
    clock.advance(1000);
    expect(await tokens.verifyAccessToken(token)).toEqual({ ok: false, reason: 'expired' });
    expect(await tokens.verifyAccessToken(token)).toEqual({ ok: false, reason: 'expired' });
  });

  it('signs standard HS256 tokens without WebCrypto, and takes its own as verified', async () => {
    const clock = new ManualClock();
    const tokens = createTokenService({ current: SECRET }, clock);
    const sign = vi.spyOn(globalThis.crypto.subtle, 'sign');
    const verify = vi.spyOn(globalThis.crypto.subtle, 'verify');
    try {
      const { token } = await tokens.issueAccessToken(claims);
      const csrf = await tokens.issueCsrfToken(600);
      expect(await tokens.verifyAccessToken(token)).toEqual({ ok: true, value: claims });
      expect((await tokens.verifyCsrfToken(csrf)).ok).toBe(true);
      expect(sign).not.toHaveBeenCalled();
      expect(verify).not.toHaveBeenCalled();
      // Any other holder of the secret accepts them.
      const { payload, protectedHeader } = await jwtVerify(token, new TextEncoder().encode(SECRET), {
        algorithms: ['HS256'],
        issuer: 'secure-checkout',
        audience: 'checkout-api',
        currentDate: clock.now(),
        requiredClaims: ['exp', 'iat', 'jti'],
      });
      expect(protectedHeader).toEqual({ alg: 'HS256', typ: 'JWT' });
      expect(payload).toMatchObject({ org: 7, sub: 'demo' });
      expect(payload.exp).toBe((payload.iat ?? 0) + ACCESS_TOKEN_LIFETIME_SECONDS);
    } finally {
      sign.mockRestore();
      verify.mockRestore();
    }
  });

  it('never lets a verified token stand in for a changed one', async () => {
    const tokens = createTokenService({ current: SECRET }, new ManualClock());
    const { token } = await tokens.issueAccessToken(claims);
    expect((await tokens.verifyAccessToken(token)).ok).toBe(true);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const flipped = `${header}.${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(await tokens.verifyAccessToken(flipped)).toEqual({ ok: false, reason: 'invalid' });
    const otherPayload = Buffer.from(JSON.stringify({ org: 8, sub: 'other' })).toString('base64url');
    expect(await tokens.verifyAccessToken(`${header}.${otherPayload}.${signature}`)).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it('keeps the audiences apart: a CSRF token is no access token, even once verified', async () => {
    const tokens = createTokenService({ current: SECRET }, new ManualClock());
    const csrf = await tokens.issueCsrfToken(600);
    expect((await tokens.verifyCsrfToken(csrf)).ok).toBe(true);
    expect(await tokens.verifyAccessToken(csrf)).toEqual({ ok: false, reason: 'invalid' });
  });

  it("refuses another secret's tokens, and accepts the previous secret's during a rotation", async () => {
    const clock = new ManualClock();
    const old = await createTokenService({ current: OTHER }, clock).issueAccessToken(claims);
    expect(await createTokenService({ current: SECRET }, clock).verifyAccessToken(old.token)).toEqual({
      ok: false,
      reason: 'invalid',
    });
    const rotating = createTokenService({ current: SECRET, previous: OTHER }, clock);
    expect(await rotating.verifyAccessToken(old.token)).toEqual({ ok: true, value: claims });
  });

  it('still verifies correctly once more tokens were seen than it remembers', async () => {
    const clock = new ManualClock();
    const tokens = createTokenService({ current: SECRET }, clock);
    const first = await tokens.issueCsrfToken(600);
    expect((await tokens.verifyCsrfToken(first)).ok).toBe(true);
    for (let i = 0; i < VERIFIED_TOKENS_KEPT; i++) {
      expect((await tokens.verifyCsrfToken(await tokens.issueCsrfToken(600))).ok).toBe(true);
    }
    expect((await tokens.verifyCsrfToken(first)).ok).toBe(true);
    clock.advance(600_000);
    expect(await tokens.verifyCsrfToken(first)).toEqual({ ok: false, reason: 'expired' });
  }, 60_000);

  it("opens one subscription with a subscriber's link until it expires, and no other kind of token does", async () => {
    const clock = new ManualClock();
    const tokens = createTokenService({ current: SECRET }, clock);
    const link = tokens.issueSubscriberToken({ organizationId: 7, subscriptionId: 42 }, 3600);
    expect(await tokens.verifySubscriberToken(link)).toEqual({
      ok: true,
      value: { organizationId: 7, subscriptionId: 42 },
    });
    const { token: access } = await tokens.issueAccessToken(claims);
    expect(await tokens.verifySubscriberToken(access)).toEqual({ ok: false, reason: 'invalid' });
    expect((await tokens.verifyAccessToken(link)).ok).toBe(false);
    clock.advance(3600 * 1000);
    expect(await tokens.verifySubscriberToken(link)).toEqual({ ok: false, reason: 'expired' });
  });
});
