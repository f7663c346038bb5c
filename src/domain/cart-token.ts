/** Reserved cart-token prefixes: a merchant checkout link and a gift recipient's claim. */
export const CHECKOUT_LINK_TOKEN_PREFIX = '__c__';
export const GIFT_CLAIM_TOKEN_PREFIX = '__g__';

/** A token names one cart only if it is non-empty and not a reserved __c__/__g__ token (which create carts). */
export function isUniqueCartToken(token: string | null | undefined): boolean {
  if (!token) return false;
  return !token.startsWith(CHECKOUT_LINK_TOKEN_PREFIX) && !token.startsWith(GIFT_CLAIM_TOKEN_PREFIX);
}

export type ParsedCartToken =
  | { kind: 'cart'; token: string }
  | { kind: 'checkout_link'; linkId: string }
  | { kind: 'gift_claim'; claimCode: string }
  | { kind: 'invalid' };

/** What a cart token names; anything outside the token alphabet is invalid before it reaches a query. */
export function parseCartToken(token: string | null | undefined): ParsedCartToken {
  if (!token || token.length > 80) return { kind: 'invalid' };
  if (token.startsWith(CHECKOUT_LINK_TOKEN_PREFIX)) {
    const linkId = token.slice(CHECKOUT_LINK_TOKEN_PREFIX.length);
    return /^[A-Za-z0-9][A-Za-z0-9_-]{2,63}$/.test(linkId)
      ? { kind: 'checkout_link', linkId }
      : { kind: 'invalid' };
  }
  if (token.startsWith(GIFT_CLAIM_TOKEN_PREFIX)) {
    const claimCode = token.slice(GIFT_CLAIM_TOKEN_PREFIX.length);
    return /^[A-Za-z0-9]{20,64}$/.test(claimCode) ? { kind: 'gift_claim', claimCode } : { kind: 'invalid' };
  }
  return /^[A-Za-z0-9]{20,64}$/.test(token) ? { kind: 'cart', token } : { kind: 'invalid' };
}
