import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTokenService } from '../../src/server/platform/security/tokens.js';
import { anotherInstance } from '../helpers/another-instance.js';
import { shopperSession, type ShopperSession } from '../helpers/shopper.js';
import { createStore, type Store } from '../helpers/store.js';
import { createTestApp, injectJson, type JsonResponse, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let store: Store;
let cartToken: string;
let session: ShopperSession;

beforeAll(async () => {
  t = await createTestApp();
  store = await createStore(t.app, t.db);
  cartToken = await store.cart([{ offer_id: store.offers.beans.id }]);
});

// Tests move the clock forward: each starts with tokens issued at its own start.
beforeEach(async () => {
  session = await shopperSession(t.app, store.org.publicId);
});

afterAll(async () => {
  await t.close();
});

/** GET carts/{token} with exactly these credentials. */
const getCart = (headers: Record<string, string>, app = t.app, token = cartToken) =>
  injectJson(app, { method: 'GET', url: `/checkout/api/vrio/carts/${token}`, headers });

const ACCESS_MISSING = 'No access token requested.';
const ACCESS_INVALID = 'The access token is not valid. Authorize again.';
const ACCESS_EXPIRED = 'The access token has expired. Authorize again.';
const CSRF_MISSING = 'This request needs a CSRF token. Reload the page to get a fresh one.';
const CSRF_INVALID = 'The CSRF token is not valid. Reload the page to get a fresh one.';
const CSRF_EXPIRED = 'The CSRF token has expired. Reload the page to get a fresh one.';

function expectError(response: JsonResponse, status: number, code: string, message: string) {
  expect(response.status).toBe(status);
  expect(response.body).toEqual({ status, code, message });
  expect(JSON.stringify(response.body)).not.toContain(cartToken);
}

function expectUnauthorized(response: JsonResponse, code: string, message: string) {
  expectError(response, 401, code, message);
  expect(response.headers['www-authenticate']).toBe('Bearer realm="checkout"');
}

const bearer = (token: string) => `Bearer ${token}`;

describe('the shopper API guard', () => {
  it('lets a request with both tokens through', async () => {
    const response = await getCart({
      authorization: bearer(session.accessToken),
      'csrf-token': session.csrfToken,
    });
    expect(response.status).toBe(200);
    expect(response.body.cart_token).toBe(cartToken);
  });

  it('accepts the token type in any letter case, as the page sends "<token_type> <access_token>"', async () => {
    const response = await getCart({
      authorization: `bearer ${session.accessToken}`,
      'csrf-token': session.csrfToken,
    });
    expect(response.status).toBe(200);
  });

  it('answers 401 without an access token, whatever the CSRF token', async () => {
    expectUnauthorized(
      await getCart({ 'csrf-token': session.csrfToken }),
      'access_token_missing',
      ACCESS_MISSING,
    );
    expectUnauthorized(await getCart({}), 'access_token_missing', ACCESS_MISSING);
    expectUnauthorized(
      await getCart({ authorization: 'Bearer', 'csrf-token': session.csrfToken }),
      'access_token_missing',
      ACCESS_MISSING,
    );
  });

  it('answers 401 for a malformed, forged or tampered access token', async () => {
    const [header, payload, signature] = session.accessToken.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as Record<string, unknown>;
    const otherOrg = Buffer.from(JSON.stringify({ ...claims, org: Number(claims.org) + 1 })).toString(
      'base64url',
    );
    for (const authorization of [
      'Bearer forged',
      `Basic ${session.accessToken}`,
      session.accessToken,
      `Bearer ${header}.${otherOrg}.${signature}`,
      `Bearer ${header}.${payload}.${randomBytes(32).toString('base64url')}`,
      `Bearer ${header}.${payload}.`,
      `Bearer ${session.accessToken} extra`,
    ]) {
      const response = await getCart({ authorization, 'csrf-token': session.csrfToken });
      expect(response.status, authorization).toBe(401);
      expectUnauthorized(response, 'access_token_invalid', ACCESS_INVALID);
    }
  });

  it('answers 401 for an expired access token (an hour), then the page authorizes again', async () => {
    const fresh = await shopperSession(t.app, store.org.publicId);
    t.clock.advance(3599_000);
    expect((await fresh.get(`carts/${cartToken}`)).status).toBe(200);
    t.clock.advance(1000);
    const csrf = await injectJson(t.app, { method: 'POST', url: '/checkout/api/csrf', payload: {} });
    expectUnauthorized(
      await getCart({ authorization: bearer(fresh.accessToken), 'csrf-token': csrf.body.csrfToken }),
      'access_token_expired',
      ACCESS_EXPIRED,
    );
    const again = await shopperSession(t.app, store.org.publicId);
    expect((await again.get(`carts/${cartToken}`)).status).toBe(200);
  });

  it('answers 401 for an access token signed with another secret, even for the right organization', async () => {
    // What another deployment (another TOKEN_SECRET) issues, with the same code.
    const other = createTokenService({ current: randomBytes(32).toString('hex') }, t.clock);
    const foreign = await other.issueAccessToken({
      organizationId: store.org.id,
      organizationPublicId: store.org.publicId,
    });
    expectUnauthorized(
      await getCart({ authorization: bearer(foreign.token), 'csrf-token': session.csrfToken }),
      'access_token_invalid',
      ACCESS_INVALID,
    );
  });

  it('answers 401 for a CSRF token presented as the access token (another audience)', async () => {
    expectUnauthorized(
      await getCart({ authorization: bearer(session.csrfToken), 'csrf-token': session.csrfToken }),
      'access_token_invalid',
      ACCESS_INVALID,
    );
  });

  it('refuses alg "none", HS512 and a wrong issuer even with valid claims, and accepts the same claims in HS256', async () => {
    const key = new TextEncoder().encode(t.tokenSecret);
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const claims = {
      iss: 'secure-checkout',
      aud: 'checkout-api',
      iat: now,
      exp: now + 600,
      jti: 'j',
      org: store.org.id,
      sub: store.org.publicId,
    };
    const unsigned = [
      Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url'),
      Buffer.from(JSON.stringify(claims)).toString('base64url'),
      '',
    ].join('.');
    const hs512 = await new SignJWT(claims).setProtectedHeader({ alg: 'HS512' }).sign(key);
    const otherIssuer = await new SignJWT({ ...claims, iss: 'evil' })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(key);
    const textOrg = await new SignJWT({ ...claims, org: String(store.org.id) })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(key);
    for (const token of [unsigned, hs512, otherIssuer, textOrg]) {
      expectUnauthorized(
        await getCart({ authorization: bearer(token), 'csrf-token': session.csrfToken }),
        'access_token_invalid',
        ACCESS_INVALID,
      );
    }
    const proper = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(key);
    expect((await getCart({ authorization: bearer(proper), 'csrf-token': session.csrfToken })).status).toBe(
      200,
    );
  });

  it('answers 403 without a CSRF token, or with a forged, expired, other-secret or access token in its place', async () => {
    const auth = { authorization: bearer(session.accessToken) };
    expectError(await getCart(auth), 403, 'csrf_token_missing', CSRF_MISSING);
    expectError(await getCart({ ...auth, 'csrf-token': ' ' }), 403, 'csrf_token_missing', CSRF_MISSING);
    expectError(await getCart({ ...auth, 'csrf-token': 'forged' }), 403, 'csrf_token_invalid', CSRF_INVALID);
    expectError(
      await getCart({ ...auth, 'csrf-token': session.accessToken }),
      403,
      'csrf_token_invalid',
      CSRF_INVALID,
    );
    const foreignCsrf = await createTokenService(
      { current: randomBytes(32).toString('hex') },
      t.clock,
    ).issueCsrfToken(3600);
    expectError(
      await getCart({ ...auth, 'csrf-token': foreignCsrf }),
      403,
      'csrf_token_invalid',
      CSRF_INVALID,
    );
    const short = (
      await injectJson(t.app, { method: 'POST', url: '/checkout/api/csrf', payload: { csrfTokenExpiry: 16 } })
    ).body.csrfToken as string;
    expect((await getCart({ ...auth, 'csrf-token': short })).status).toBe(200);
    t.clock.advance(16_000);
    const stillValidAccess = await shopperSession(t.app, store.org.publicId);
    expectError(
      await getCart({ authorization: bearer(stillValidAccess.accessToken), 'csrf-token': short }),
      403,
      'csrf_token_expired',
      CSRF_EXPIRED,
    );
  });
});

describe('signing secrets', () => {
  it('lets two instances built with the same secret accept each other’s tokens', async () => {
    const second = await anotherInstance(t);
    try {
      // Handshake on the first instance, shopper call on the second, and the other way round.
      const fromFirst = await shopperSession(t.app, store.org.publicId);
      const onSecond = await getCart(
        { authorization: bearer(fromFirst.accessToken), 'csrf-token': fromFirst.csrfToken },
        second,
      );
      expect(onSecond.status).toBe(200);
      expect(onSecond.body.cart_token).toBe(cartToken);
      const fromSecond = await shopperSession(second, store.org.publicId);
      const onFirst = await getCart({
        authorization: bearer(fromSecond.accessToken),
        'csrf-token': fromSecond.csrfToken,
      });
      expect(onFirst.status).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('accepts tokens of the previous secret during a rotation, and refuses them once it is dropped', async () => {
    const oldSecret = randomBytes(32).toString('hex');
    const newSecret = randomBytes(32).toString('hex');
    const before = await anotherInstance(t, { tokenSecret: oldSecret });
    const rotating = await anotherInstance(t, { tokenSecret: newSecret, previousSecret: oldSecret });
    const rotated = await anotherInstance(t, { tokenSecret: newSecret });
    try {
      const old = await shopperSession(before, store.org.publicId);
      const withOld = { authorization: bearer(old.accessToken), 'csrf-token': old.csrfToken };
      // During the rotation: the old secret's tokens still pass.
      expect((await getCart(withOld, rotating)).status).toBe(200);
      // New tokens are signed with the new secret only: an instance that knows only the old one refuses them.
      const fresh = await shopperSession(rotating, store.org.publicId);
      const withNew = { authorization: bearer(fresh.accessToken), 'csrf-token': fresh.csrfToken };
      expect((await getCart(withNew, rotating)).status).toBe(200);
      expectUnauthorized(await getCart(withNew, before), 'access_token_invalid', ACCESS_INVALID);
      // After it: the old secret is gone, its tokens are refused, the new ones pass.
      expectUnauthorized(await getCart(withOld, rotated), 'access_token_invalid', ACCESS_INVALID);
      expect((await getCart(withNew, rotated)).status).toBe(200);
    } finally {
      await before.close();
      await rotating.close();
      await rotated.close();
    }
  });
});

describe('organization isolation', () => {
  it("answers 404 for every route on another organization's cart and order lines, without their data", async () => {
    const other = await createStore(t.app, t.db);
    const foreignToken = await other.cart(
      [
        { offer_id: other.offers.mug.id, is_gift: true },
        { offer_id: other.offers.beans.id, quantity: 2 },
      ],
      { customer: { email: 'victim@example.com', ship_fname: 'Victim', ship_country: 'US' } },
    );
    const owner = await shopperSession(t.app, other.org.publicId);
    const ownView = await owner.get(`carts/${foreignToken}`);
    expect(ownView.status).toBe(200);
    const foreignLine = ownView.body.offers[0].order_offer_id as number;

    // The shopper of store A, with valid tokens for A, reaches for B's cart in every way.
    const attempts = [
      session.get(`carts/${foreignToken}`),
      session.get(`carts/${foreignToken}/preview`, { ship_country: 'US', version: '1' }),
      session.put(`carts/${foreignToken}/discount_code`, { discount_code: 'WELCOME10' }),
      session.put(`carts/${foreignToken}/quantity`, { id: foreignLine, quantity: 5 }),
      session.patch(`order_offers/${foreignLine}/gift`, {
        order_offer_id: foreignLine,
        cart_token: foreignToken,
        gift_name: 'Mallory',
        gift_email: 'mallory@example.com',
        gift_date: '2026-12-24',
        gift_message: 'Gotcha',
      }),
      session.patch(`order_offers/${foreignLine}/gift`, {
        order_offer_id: foreignLine,
        cart_token: cartToken,
        gift_name: 'Mallory',
        gift_email: 'mallory@example.com',
        gift_date: '2026-12-24',
        gift_message: 'Gotcha',
      }),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.status, JSON.stringify(response.body)).toBe(404);
      expect(Object.keys(response.body).sort()).toEqual(['code', 'message', 'status']);
      const text = JSON.stringify(response.body);
      for (const secret of ['victim', 'Victim', foreignToken, 'Stoneware'])
        expect(text).not.toContain(secret);
    }

    // Nothing changed on B's cart.
    const after = await owner.get(`carts/${foreignToken}`);
    expect(after.body).toEqual(ownView.body);
    // The same calls from B's own shopper succeed: the 404s above were about the organization, not the input.
    expect(
      (await owner.put(`carts/${foreignToken}/discount_code`, { discount_code: 'WELCOME10' })).status,
    ).toBe(200);
    const gift = await owner.patch(`order_offers/${foreignLine}/gift`, {
      order_offer_id: foreignLine,
      cart_token: foreignToken,
      gift_name: 'Grace',
      gift_email: 'grace@example.com',
      gift_date: '2026-12-24',
      gift_message: 'Enjoy',
    });
    expect(gift.status, JSON.stringify(gift.body)).toBe(200);
  });
});
