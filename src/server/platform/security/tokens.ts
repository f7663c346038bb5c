import { createHmac, randomUUID } from 'node:crypto';
import { errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import type { Clock } from '../clock.js';

const ISSUER = 'secure-checkout';
const CSRF_AUDIENCE = 'checkout-csrf';
const ACCESS_AUDIENCE = 'checkout-api';
const SUBSCRIBER_AUDIENCE = 'subscriber-manage';
// The one algorithm accepted: a token claiming "none" or an asymmetric algorithm is refused before any key is used.
const ALGORITHMS = ['HS256'];

/** How long an access token from POST /checkout/api/authorize lives. The page re-authorizes on a 401. */
export const ACCESS_TOKEN_LIFETIME_SECONDS = 3600;

/** How many verified tokens are remembered (a few hundred bytes each), the oldest forgotten first. */
export const VERIFIED_TOKENS_KEPT = 5000;

export type TokenCheck<T> = { ok: true; value: T } | { ok: false; reason: 'missing' | 'invalid' | 'expired' };

export interface AccessTokenClaims {
  organizationId: number;
  organizationPublicId: string;
}

/** Whose subscription a subscriber's link opens (docs/subscriptions.md, "Self-service"). */
export interface SubscriberClaims {
  organizationId: number;
  subscriptionId: number;
}

export interface TokenService {
  issueCsrfToken(expirySeconds: number): Promise<string>;
  verifyCsrfToken(token: string | undefined): Promise<TokenCheck<{ expiresAt: Date }>>;
  issueAccessToken(claims: AccessTokenClaims): Promise<{ token: string; expiresIn: number }>;
  verifyAccessToken(token: string | undefined): Promise<TokenCheck<AccessTokenClaims>>;
  /** The signed, expiring token of a subscriber's self-service link; whoever holds it manages that subscription. */
  issueSubscriberToken(claims: SubscriberClaims, lifetimeSeconds: number): string;
  verifySubscriberToken(token: string | undefined): Promise<TokenCheck<SubscriberClaims>>;
}

/**
 * Stateless signed tokens (JWS, HS256): any server instance holding the secret accepts any other's tokens, with no
 * session table. During a rotation the previous secret still verifies, but only the current one signs.
 */
export function createTokenService(
  secrets: { current: string; previous?: string | null },
  clock: Clock,
): TokenService {
  const encoder = new TextEncoder();
  const signingKey = encoder.encode(secrets.current);
  const verifyKeys = [signingKey, ...(secrets.previous ? [encoder.encode(secrets.previous)] : [])];
  const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);
  // A shopper sends the same two tokens with every request: a signature that checked out once is not checked again
  // (the HMAC through WebCrypto was a sixth of a cart read's CPU). Expiry is still checked on every use.
  const verified = new Map<string, JWTPayload>();

  const remember = (cacheKey: string, payload: JWTPayload) => {
    if (verified.size >= VERIFIED_TOKENS_KEPT) verified.delete(verified.keys().next().value ?? '');
    verified.set(cacheKey, payload);
  };

  // A compact JWS (HS256) made with node:crypto's HMAC, in the same thread (through WebCrypto each signature was a
  // round trip to the thread pool). jose verifies it like any other. A token signed here is remembered as verified.
  const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
  function sign(payload: JWTPayload, audience: string, lifetimeSeconds: number): string {
    const iat = nowSeconds();
    const claims: JWTPayload = {
      ...payload,
      iss: ISSUER,
      aud: audience,
      iat,
      exp: iat + lifetimeSeconds,
      jti: randomUUID(),
    };
    const signingInput = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
    const token = `${signingInput}.${createHmac('sha256', signingKey).update(signingInput).digest('base64url')}`;
    remember(`${audience} ${token}`, claims);
    return token;
  }

  async function verify(token: string | undefined, audience: string): Promise<TokenCheck<JWTPayload>> {
    if (token === undefined || token.trim() === '') return { ok: false, reason: 'missing' };
    if (token.length > 4096) return { ok: false, reason: 'invalid' };
    const cacheKey = `${audience} ${token}`;
    const known = verified.get(cacheKey);
    if (known) {
      if ((known.exp ?? 0) > nowSeconds()) return { ok: true, value: known };
      verified.delete(cacheKey);
      return { ok: false, reason: 'expired' };
    }
    let expired = false;
    for (const key of verifyKeys) {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ALGORITHMS,
          issuer: ISSUER,
          audience,
          currentDate: clock.now(),
          clockTolerance: 0,
          requiredClaims: ['exp', 'iat', 'jti'],
        });
        remember(cacheKey, payload);
        return { ok: true, value: payload };
      } catch (error) {
        // Only a token whose signature checked out can be "expired"; anything else is simply invalid.
        if (error instanceof joseErrors.JWTExpired) expired = true;
      }
    }
    return { ok: false, reason: expired ? 'expired' : 'invalid' };
  }

  return {
    issueCsrfToken: async (expirySeconds) => sign({}, CSRF_AUDIENCE, expirySeconds),

    async verifyCsrfToken(token) {
      const result = await verify(token, CSRF_AUDIENCE);
      if (!result.ok) return result;
      return { ok: true, value: { expiresAt: new Date((result.value.exp ?? 0) * 1000) } };
    },

    async issueAccessToken(claims) {
      const token = sign(
        { org: claims.organizationId, sub: claims.organizationPublicId },
        ACCESS_AUDIENCE,
        ACCESS_TOKEN_LIFETIME_SECONDS,
      );
      return { token, expiresIn: ACCESS_TOKEN_LIFETIME_SECONDS };
    },

    async verifyAccessToken(token) {
      const result = await verify(token, ACCESS_AUDIENCE);
      if (!result.ok) return result;
      const { org, sub } = result.value;
      if (typeof org !== 'number' || !Number.isSafeInteger(org) || typeof sub !== 'string') {
        return { ok: false, reason: 'invalid' };
      }
      return { ok: true, value: { organizationId: org, organizationPublicId: sub } };
    },

    issueSubscriberToken: (claims, lifetimeSeconds) =>
      sign(
        { org: claims.organizationId, sub: String(claims.subscriptionId) },
        SUBSCRIBER_AUDIENCE,
        lifetimeSeconds,
      ),

    async verifySubscriberToken(token) {
      const result = await verify(token, SUBSCRIBER_AUDIENCE);
      if (!result.ok) return result;
      const { org, sub } = result.value;
      const subscriptionId = Number(sub);
      if (typeof org !== 'number' || !Number.isSafeInteger(org) || !Number.isSafeInteger(subscriptionId)) {
        return { ok: false, reason: 'invalid' };
      }
      return { ok: true, value: { organizationId: org, subscriptionId } };
    },
  };
}
