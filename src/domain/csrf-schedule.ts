/** When to fetch a fresh CSRF token (docs/checkout-rules.md#csrf-token-timing). */
export const CSRF_DEFAULT_EXPIRY_SECONDS = 3600;
export const CSRF_DEFAULT_REGENERATION_SECONDS = 3480;
export const CSRF_MIN_EXPIRY_SECONDS = 16;

/** Is this a CSRF expiry the checkout accepts: a number of at least 16 seconds. */
export function isValidCsrfExpiry(expiry: unknown): expiry is number {
  return typeof expiry === 'number' && Number.isFinite(expiry) && expiry >= CSRF_MIN_EXPIRY_SECONDS;
}

/**
 * Seconds until regeneration: expiry − 9 s for short-lived tokens (below 180 s), else expiry − 120 s; the default
 * (3480 s) when the expiry is not a valid one.
 */
export function csrfRegenerationSeconds(expiry: unknown): number {
  if (!isValidCsrfExpiry(expiry)) return CSRF_DEFAULT_REGENERATION_SECONDS;
  return expiry < 180 ? expiry - 9 : expiry - 120;
}
