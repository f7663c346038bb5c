import type { Language } from '../i18n/languages.js';
import type { Message, MessageKey, MessageValues } from '../i18n/message-keys.js';
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

/**
 * A refusal's facts: the message is made in the reader's language, dates and amounts written as that language writes
 * them (docs/languages.md).
 */
export type DiscountRefusal =
  | { reason: 'not_found' | 'used_up' | 'not_applicable' }
  | { reason: 'not_started' | 'expired'; date: Date }
  | { reason: 'minimum_not_met'; minimum: Minor; missing: Minor; currency: string };

export type DiscountCheck =
  | { ok: true }
  | { ok: false; status: 404 | 422; code: DiscountRefusalCode; codeName: string; refusal: DiscountRefusal };

function day(date: Date, language: Language): string {
  return new Intl.DateTimeFormat(language, {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(date);
}

const REFUSAL_KEYS = {
  not_found: ['errors.discount_code_not_found', 'errors.order_discount_code_not_found'],
  not_started: ['errors.discount_code_not_started', 'errors.order_discount_code_not_started'],
  expired: ['errors.discount_code_expired', 'errors.order_discount_code_expired'],
  used_up: ['errors.discount_code_used_up', 'errors.order_discount_code_used_up'],
  not_applicable: ['errors.discount_code_not_applicable', 'errors.order_discount_code_not_applicable'],
  minimum_not_met: ['errors.discount_code_minimum_not_met', 'errors.order_discount_code_minimum_not_met'],
} as const satisfies Record<DiscountRefusal['reason'], readonly [MessageKey, MessageKey]>;

/**
 * Why a code does not apply, in `language`: on the cart, or when an order is placed with it (which also says to
 * remove the code, the one way on).
 */
export function discountRefusalMessage(
  check: Extract<DiscountCheck, { ok: false }>,
  language: Language,
  when: 'cart' | 'order' = 'cart',
): Message {
  const { refusal } = check;
  const key = REFUSAL_KEYS[refusal.reason][when === 'cart' ? 0 : 1];
  const values: MessageValues = { code: check.codeName };
  if ('date' in refusal) values.date = day(refusal.date, language);
  if ('minimum' in refusal) {
    values.minimum = formatMoney(refusal.minimum, refusal.currency, language);
    values.missing = formatMoney(refusal.missing, refusal.currency, language);
  }
  return { key, values };
}

/**
 * Whether completed orders have taken every use the code allows. Uses held by payments in flight do not count: a
 * declined payment gives its use back.
 */
export function isDiscountCodeUsedUp(code: Pick<DiscountCodeFacts, 'usageLimit' | 'usageCount'>): boolean {
  return code.usageLimit !== null && code.usageCount >= code.usageLimit;
}

/**
 * Whether a code may discount this cart now, and if not, why (discountRefusalMessage says it in words the shopper
 * can act on). The usage count is
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
      codeName: code.code,
      refusal: { reason: 'not_found' },
    };
  }
  if (code.startsAt && cart.now < code.startsAt) {
    return {
      ok: false,
      status: 422,
      code: 'discount_code_not_started',
      codeName: code.code,
      refusal: { reason: 'not_started', date: code.startsAt },
    };
  }
  if (code.endsAt && cart.now >= code.endsAt) {
    return {
      ok: false,
      status: 422,
      code: 'discount_code_expired',
      codeName: code.code,
      refusal: { reason: 'expired', date: code.endsAt },
    };
  }
  if (isDiscountCodeUsedUp(code)) {
    return {
      ok: false,
      status: 422,
      code: 'discount_code_used_up',
      codeName: code.code,
      refusal: { reason: 'used_up' },
    };
  }
  if (code.offerIds.length > 0 && !cart.offerIds.some((id) => code.offerIds.includes(id))) {
    return {
      ok: false,
      status: 422,
      code: 'discount_code_not_applicable',
      codeName: code.code,
      refusal: { reason: 'not_applicable' },
    };
  }
  if (cart.subtotal < code.minSubtotal) {
    return {
      ok: false,
      status: 422,
      code: 'discount_code_minimum_not_met',
      codeName: code.code,
      refusal: {
        reason: 'minimum_not_met',
        minimum: code.minSubtotal,
        missing: minor(code.minSubtotal - cart.subtotal),
        currency: cart.currency,
      },
    };
  }
  return { ok: true };
}
