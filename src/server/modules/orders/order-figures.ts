import { parseStoredPlan } from '../../../domain/billing-plan.js';
import { minor } from '../../../domain/money.js';
import type { PricingResult } from '../../../domain/pricing.js';
import type { OrderLineRow, OrderRow } from './orders-repository.js';
import type { ShippingProfileRow } from '../catalog/shipping-profiles-repository.js';
import type { CartPricing } from '../carts/cart-pricing.js';

/** What a completed order's figures are made of: its amounts as charged, and whether it shipped. */
export type OrderFigures = Pick<
  OrderRow,
  | 'subtotal'
  | 'total_discount'
  | 'total_offer_shipping'
  | 'total_campaign_shipping'
  | 'total_tax'
  | 'total_gift_cards'
  | 'total'
  | 'discount_code_id'
  | 'shipping_address'
>;

/** What an order line's figures are made of. */
export type OrderLineFigures = Pick<
  OrderLineRow,
  | 'cart_offer_id'
  | 'quantity'
  | 'subtotal'
  | 'discount'
  | 'shipping'
  | 'tax'
  | 'total'
  | 'next_cycle_total'
  | 'billing_plan'
  | 'is_recurring'
>;

/**
 * A completed order's figures as charged, in the shape the cart presenter reads, from the order, its lines and the
 * shipping profile it chose: the same whether they were read back or are still held by the request that wrote them.
 */
export function figuresOfOrder(
  order: OrderFigures,
  lines: readonly OrderLineFigures[],
  chosenProfile: ShippingProfileRow | null,
): CartPricing {
  const result: PricingResult = {
    lines: lines.map((line) => ({
      id: line.cart_offer_id,
      subtotal: minor(line.subtotal),
      discount: minor(line.discount),
      shipping: minor(line.shipping),
      tax: minor(line.tax),
      total: minor(line.total),
      nextCycleTotal: line.next_cycle_total === null ? null : minor(line.next_cycle_total),
      billingPlan: parseStoredPlan(line.billing_plan),
    })),
    subtotal: minor(order.subtotal),
    totalDiscount: minor(order.total_discount),
    subtotalItems: minor(order.subtotal - order.total_discount),
    totalItems: lines.reduce((sum, line) => sum + line.quantity, 0),
    totalOfferShipping: minor(order.total_offer_shipping),
    totalCampaignShipping: minor(order.total_campaign_shipping),
    totalTax: minor(order.total_tax),
    totalGiftCards: minor(order.total_gift_cards),
    total: minor(order.total),
    isRecurring: lines.some((line) => line.is_recurring),
    shipsAnything: order.shipping_address !== null,
  };
  return {
    result,
    discountNotice: null,
    discountRefusal: null,
    discountApplied: order.discount_code_id !== null,
    shippingOptions: [],
    chosenProfile,
    shippingNotice: null,
  };
}
