import { createHash, randomBytes, randomInt } from 'node:crypto';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Uniformly random letters and digits (no "_" so a token can never look like a __c__/__g__ reserved one). */
export function randomAlphanumeric(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return out;
}

/** 24 characters ≈ 143 bits: not guessable, not derived from anything else. */
export function newCartToken(): string {
  return randomAlphanumeric(24);
}

/** 32 characters ≈ 190 bits: a gift claim code is a bearer secret like a gift card number. */
export function newGiftClaimCode(): string {
  return randomAlphanumeric(32);
}

export function newCheckoutLinkId(): string {
  return randomAlphanumeric(12);
}

export function newMerchantApiKey(): string {
  return `sk_${randomBytes(24).toString('base64url')}`;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function apiKeyPrefix(key: string): string {
  return key.slice(0, 7);
}
