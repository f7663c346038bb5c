// What the shopper is shown of an order's upsells: the offer priced as its linked order would be, and the orders
// accepted ones made (docs/api.md, "Upsells").
import type { BillingPlan } from '../../../domain/billing-plan.js';
import type { LinkedOrder, UpsellOffer, UpsellState } from '../../../contract/upsell.js';
import type { Queryable } from '../../platform/db/database.js';
import { major } from '../../platform/http/money-input.js';
import { priceCartState, type PricingAddress } from '../carts/cart-pricing.js';
import type { CartState } from '../carts/cart-state.js';
import { findOffer } from '../catalog/offers-repository.js';
import type { OrderRow } from '../orders/orders-repository.js';
import type { OrganizationRow } from '../organizations/organizations-repository.js';
import type { UpsellStepPlan } from './upsell-decisions.js';
import { findLinkedOrders, type UpsellStepRow } from './upsells-repository.js';

/** The first order, completed, of the shopper's cart, with what its upsells need. */
export interface Opened {
  organization: OrganizationRow;
  cart: CartState;
  order: OrderRow;
  plan: UpsellStepPlan[];
}

export function pricingAddressOf(order: OrderRow): PricingAddress {
  return {
    shipCountry: order.shipping_address?.country || null,
    shipState: order.shipping_address?.state || null,
    billCountry: order.billing_address?.country || null,
    billState: order.billing_address?.state || null,
  };
}

/** An offer as one line of a cart of the first order's customer, for pricing it before anything is written. */
async function priceOffer(tx: Queryable, opened: Opened, offerId: number, now: Date) {
  const offer = await findOffer(tx, opened.organization.id, offerId);
  if (!offer) throw new Error(`upsell offer ${offerId} vanished`);
  const {
    id: _id,
    organization_id: _org,
    active: _active,
    created_at: _c,
    updated_at: _u,
    ...columns
  } = offer;
  const state: CartState = {
    ...opened.cart,
    cart: { ...opened.cart.cart, gift_claim_id: null, discount_code_id: null },
    discountCode: null,
    giftFrom: null,
    order: null,
    lines: [
      {
        ...columns,
        id: 0,
        offer_id: offer.id,
        position: 1,
        quantity: 1,
        is_gift: false,
        is_bump: false,
        price_override: null,
        subscribed: false,
        once_unit_price: offer.price,
        gift_name: null,
        gift_email: null,
        gift_date: null,
        gift_message: null,
        gift_phone: null,
        order_offer_notes: null,
      },
    ],
  };
  delete state.places;
  const pricing = await priceCartState(tx, state, {
    address: pricingAddressOf(opened.order),
    requestedProfileId: opened.order.shipping_profile_id,
    now,
  });
  return { offer, pricing };
}

async function presentOffer(
  tx: Queryable,
  opened: Opened,
  step: UpsellStepRow,
  now: Date,
): Promise<UpsellOffer> {
  const { offer, pricing } = await priceOffer(tx, opened, step.offer_id, now);
  const money = (amount: number) => major(amount, opened.organization.currency);
  const result = pricing.result;
  const line = result.lines[0];
  return {
    step: step.step,
    is_downsell: step.is_downsell,
    offer_id: offer.id,
    name: offer.item_name,
    text: offer.offer_title,
    image: offer.item_image,
    subtotal: money(result.subtotal),
    shipping: money(result.totalOfferShipping + result.totalCampaignShipping),
    tax: money(result.totalTax),
    amount: money(result.total),
    recurring: laterCharge(offer, line, money),
    expires_at: step.expires_at.toISOString(),
    seconds_left: Math.max(0, Math.ceil((step.expires_at.getTime() - now.getTime()) / 1000)),
  };
}

export async function presentState(
  tx: Queryable,
  opened: Opened,
  current: UpsellStepRow | null,
  now: Date,
): Promise<UpsellState> {
  const { organization, order } = opened;
  const money = (amount: number) => major(amount, organization.currency);
  const linked = await findLinkedOrders(tx, organization.id, order.id);
  const linkedOrders: LinkedOrder[] = linked.map((row) => ({
    order_id: row.id,
    total: money(row.total),
    lines: row.lines.map((line) => ({
      item_name: line.item_name,
      quantity: line.quantity,
      total: money(line.total),
    })),
  }));
  return {
    order_id: order.id,
    currency: organization.currency,
    offer: current ? await presentOffer(tx, opened, current, now) : null,
    linked_orders: linkedOrders,
  };
}

/**
 * What an upsell offer charges after today: every interval; a prepaid plan's next whole period every period, or
 * nothing when it ends after its period (docs/subscriptions.md, "Prepaid plans").
 */
function laterCharge(
  offer: { is_recurring: boolean; billing_interval_days: number | null },
  line: { nextCycleTotal: number | null; billingPlan: BillingPlan | null } | undefined,
  money: (amount: number) => number,
): { amount: number; interval_days: number } | null {
  if (!offer.is_recurring || offer.billing_interval_days === null) return null;
  const prepaid = line?.billingPlan?.prepaid;
  if (prepaid) {
    if (!line || line.nextCycleTotal === null) return null;
    return { amount: money(line.nextCycleTotal), interval_days: prepaid.cycles * prepaid.intervalDays };
  }
  return { amount: money(line?.nextCycleTotal ?? 0), interval_days: offer.billing_interval_days };
}
