import { minor } from '../../domain/money.js';
import type { PricingResult } from '../../domain/pricing.js';
import type { Queryable } from '../db/database.js';
import { findOrderLinesAndProfile, type OrderRow } from '../repositories/orders-repository.js';
import type { CartPricing } from './cart-pricing.js';

/** A completed order's figures as charged, in the shape the cart presenter reads (prices may have changed since). */
export async function pricingOfOrder(db: Queryable, order: OrderRow): Promise<CartPricing> {
  // The lines as charged and the shipping profile chosen, in one statement.
  const { lines, profile: chosenProfile } = await findOrderLinesAndProfile(
    db,
    order.organization_id,
    order.id,
    order.shipping_profile_id,
  );
  const result: PricingResult = {
    lines: lines.map((line) => ({
      id: line.cart_offer_id,
      subtotal: minor(line.subtotal),
      discount: minor(line.discount),
      shipping: minor(line.shipping),
      tax: minor(line.tax),
      total: minor(line.total),
      nextCycleTotal: line.next_cycle_total === null ? null : minor(line.next_cycle_total),
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
    discountApplied: order.discount_code_id !== null,
    shippingOptions: [],
    chosenProfile,
    shippingNotice: null,
  };
}
