import { currencyDigits } from '../../../domain/money.js';

/** Currencies PayPal takes in whole units only, although ISO 4217 (and so our minor units) gives them decimals. */
const WHOLE_UNITS_ONLY = new Set(['HUF', 'TWD']);

/**
 * Minor units → the decimal string PayPal's `amount.value` wants ("49.99" USD, "1500" JPY), built from the integer so
 * no floating point can round it; null when PayPal cannot express the amount (a fraction of a whole-unit currency).
 */
export function toPaypalAmount(amount: number, currency: string): string | null {
  if (!Number.isSafeInteger(amount) || amount < 0) return null;
  const digits = currencyDigits(currency);
  if (WHOLE_UNITS_ONLY.has(currency) && digits > 0) {
    const scale = 10 ** digits;
    return amount % scale === 0 ? String(amount / scale) : null;
  }
  if (digits === 0) return String(amount);
  const padded = String(amount).padStart(digits + 1, '0');
  return `${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
}
