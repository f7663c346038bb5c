import { formatMoney, minor, type Minor } from './money.js';

/** A discount code as the rules need it (minor units, dates as instants). */
export interface DiscountCodeFacts {
  code: string;
  active: boolean;
  startsAt: Date | null;
  endsAt: Date | null;
  usageLimit: number | null;
  usageCount: number;
  minSubtotal: Minor;
  /** empty = the whole order */
  offerIds: readonly number[];
}

export type DiscountRefusalCode =
  | 'discount_code_not_found'
  | 'discount_code_not_started'
  | 'discount_code_expired'
  | 'discount_code_used_up'
  | 'discount_code_minimum_not_met'
  | 'discount_code_not_applicable';

export type DiscountCheck =
  { ok: true } | { ok: false; status: 404 | 422; code: DiscountRefusalCode; message: string };

function day(date: Date): string {
  return new Intl.DateTimeFormat('en-US', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(date);
}

/**
 * Whether completed orders have taken every use the code allows. Uses held by payments in flight do not count: a
 * declined payment gives its use back.
 */
export function isDiscountCodeUsedUp(code: Pick<DiscountCodeFacts, 'usageLimit' | 'usageCount'>): boolean {
  return code.usageLimit !== null && code.usageCount >= code.usageLimit;
}

/**
 * Whether a code may discount this cart now, and if not, why in words the shopper can act on. The usage count is
 * only read here: it grows when an order completes (a conditional update keeps it within the limit).
 */
export function checkDiscountCode(
  code: DiscountCodeFacts,
  cart: { now: Date; subtotal: Minor; offerIds: readonly number[]; currency: string },
): DiscountCheck {
  if (!code.active) {
    return {
      ok: false,
      status: 404,
      code: 'discount_code_not_found',
      message: `We don't recognize the code ${code.code}.`,
    };
  }
  if (code.startsAt && cart.now < code.startsAt) {
    return {
      ok: false,
      status: 422,
      code: 'discount_code_not_started',
      message: `The code ${code.code} can be used from ${day(code.startsAt)}.`,
    };
  }
  if (code.endsAt && cart.now >= code.endsAt) {
    return {
      ok: false,
      status: 422,
      code: 'discount_code_expired',
      message: `The code ${code.code} expired on ${day(code.endsAt)}.`,
    };
  }
  if (isDiscountCodeUsedUp(code)) {
    return {
      ok: false,
      status: 422,
      code: 'discount_code_used_up',
      message: `The code ${code.code} has been used as many times as it allows.`,
    };
  }
  if (code.offerIds.length > 0 && !cart.offerIds.some((id) => code.offerIds.includes(id))) {
    return {
      ok: false,
      status: 422,
      code: 'discount_code_not_applicable',
      message: `The code ${code.code} is not valid for the items in your cart.`,
    };
  }
  if (cart.subtotal < code.minSubtotal) {
    const missing = minor(code.minSubtotal - cart.subtotal);
    return {
      ok: false,
      status: 422,
      code: 'discount_code_minimum_not_met',
      message: `The code ${code.code} needs an order of ${formatMoney(code.minSubtotal, cart.currency)} or more. Add ${formatMoney(missing, cart.currency)} to use it.`,
    };
  }
  return { ok: true };
}
