// What the order's screen offers to refund and how it asks (docs/api.md, "Refunds"): the server decides, these only
// say what is left, what the confirmation names and which Idempotency-Key a send carries. Unit tested beside.
import type { OrderDetail } from '../../../contract/merchant.js';

/** The currency's decimals (2 for USD, 0 for JPY), to add amounts in whole minor units. */
export function currencyDigits(currency: string): number {
  return (
    new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ??
    2
  );
}

type Refundable = Pick<OrderDetail, 'currency' | 'payment_attempts' | 'refunds' | 'amount_refunded'>;

/** The payment refunds go back through: the first approved attempt that charged something at a processor. */
export function paidAttempt(order: Pick<OrderDetail, 'payment_attempts'>) {
  return (
    order.payment_attempts.find(
      (attempt) => attempt.status === 'approved' && attempt.gateway_reference !== null && attempt.amount > 0,
    ) ?? null
  );
}

/**
 * What is left to refund, in major units: the payment less what was refunded or is being refunded (a pending refund
 * holds its amount until it ends), as the server counts it.
 */
export function leftToRefund(order: Refundable): number {
  const paid = paidAttempt(order);
  if (!paid) return 0;
  const scale = 10 ** currencyDigits(order.currency);
  const minor = (amount: number) => Math.round(amount * scale);
  const held = order.refunds
    .filter((refund) => refund.status !== 'failed')
    .reduce((sum, refund) => sum + minor(refund.amount), 0);
  return Math.max(0, minor(paid.amount) - Math.max(held, minor(order.amount_refunded))) / scale;
}

/** An amount as a person types it ("25", "25.50", "$1,250.00"), or null when it is not one. */
export function parseAmount(text: string): number | null {
  const cleaned = text.trim().replace(/^\$/, '').replace(/,/g, '');
  if (!/^\d+(\.\d+)?$/.test(cleaned) && !/^\.\d+$/.test(cleaned)) return null;
  return Number(cleaned);
}

const BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  jcb: 'JCB',
  diners: 'Diners Club',
  unionpay: 'UnionPay',
};

/** "Visa", "Mastercard": a card brand as the API names it, in words. */
export function brandName(brand: string | null): string {
  if (!brand) return 'Card';
  return BRANDS[brand.toLowerCase()] ?? brand.charAt(0).toUpperCase() + brand.slice(1);
}

/** Where a refund goes back to: "Visa ending 4242", "the PayPal account", or "the card" when no detail is known. */
export function refundDestination(order: Pick<OrderDetail, 'payment_attempts'>): string {
  const paid = paidAttempt(order);
  if (!paid) return 'the payment';
  if (paid.method === 'paypal') return 'the PayPal account';
  if (paid.card_last4) return `${brandName(paid.card_brand)} ending ${paid.card_last4}`;
  return 'the card';
}

export interface SentRefund {
  /** the body as sent, to tell the same submit from another */
  body: string;
  key: string;
}

/**
 * The Idempotency-Key of a confirmed refund: the one of the previous send when this is the same refund sent again
 * after no answer came (a lost connection, or a 5xx such as 503 refund_unconfirmed: the processor's answer is not
 * known yet), so it is never made twice; a new one otherwise. 502 refund_failed is an answer (the processor refused):
 * trying again is a new refund.
 */
export function refundKeyFor(
  previous: (SentRefund & { failedStatus: number | null }) | null,
  body: string,
  newKey: () => string,
): string {
  const status = previous?.failedStatus ?? null;
  const unanswered = status !== null && (status === 0 || (status >= 500 && status !== 502));
  return unanswered && previous?.body === body ? previous.key : newKey();
}

/**
 * A new Idempotency-Key: crypto.randomUUID, which browsers give only to secure pages; a dashboard served over plain
 * http on a private network gets the same kind of key from getRandomValues.
 */
export function newRefundKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
