import { nextChargeNotice } from '../subscriptions/subscription-plan.js';
import type { Cart } from '../../../contract/cart.js';
import { DEFAULT_LANGUAGE, type Language } from '../../../i18n/languages.js';
import { parseCartToken } from '../../../domain/cart-token.js';
import { GIFT_ALREADY_CLAIMED, GIFT_ALREADY_CLAIMED_CODE } from '../../../domain/link-errors.js';
import type { Database, Queryable } from '../../platform/db/database.js';
import type { AbuseLimits } from '../../platform/security/abuse-limits.js';
import { notFound, refusal, type AppError } from '../../platform/errors.js';
import type { ShopperContext } from '../organizations/request-context.js';
import { loadCartSnapshot } from './cart-snapshot-repository.js';
import { findGiftByClaimCode, findOpenClaimCart, insertCart, type CartRow } from './carts-repository.js';
import { findCheckoutLinkByPublicId } from '../catalog/checkout-links-repository.js';
import { findDiscountCodeByCode } from '../catalog/discount-codes-repository.js';
import { findOffers, type OfferRow } from '../catalog/offers-repository.js';
import { mayStartSubscribed } from './cart-lines.js';
import { findOrderLinesAndProfile } from '../orders/orders-repository.js';
import { lockGift } from '../orders/order-gifts-repository.js';
import { addressFromPreview, priceCartState, type PricingAddress } from './cart-pricing.js';
import { presentCart, storedPreviewOf } from './cart-presenter.js';
import { figuresOfOrder, type OrderFigures, type OrderLineFigures } from '../orders/order-figures.js';
import { major } from '../../platform/http/money-input.js';
import {
  findOrderSubscriptionNotices,
  type OrderSubscriptionNotice,
} from '../subscriptions/subscriptions-repository.js';
import type { ShippingProfileRow } from '../catalog/shipping-profiles-repository.js';
import { type CartState } from './cart-state.js';
import { CART_LIFETIME_MS } from './merchant-cart-service.js';
import { LINK_NO_LONGER_VALID } from '../page/page-service.js';
import { newCartToken } from '../../platform/security/secrets.js';

export const CART_NOT_FOUND_MESSAGE = LINK_NO_LONGER_VALID;

export function cartNotFound(): AppError {
  return notFound('cart_not_found', { key: 'common.link_no_longer_valid' });
}

function isExpired(cart: CartRow, now: Date): boolean {
  return cart.expires_at !== null && cart.expires_at <= now;
}

/**
 * The state of a plain cart token of this organization that can still be checked out, in one statement (with the
 * places of `places`, the address the caller will price it for); with lock, the cart row is locked for the caller's
 * transaction. Anything else (a reserved or malformed token, another organization's cart, an expired one) is
 * "not found".
 */
export async function requireCartState(
  db: Queryable,
  shopper: ShopperContext,
  token: string,
  now: Date,
  options: { lock?: boolean; places?: PricingAddress | undefined } = {},
): Promise<CartState> {
  const parsed = parseCartToken(token);
  if (parsed.kind !== 'cart') throw cartNotFound();
  const state = await loadCartSnapshot(db, shopper.organizationId, { token: parsed.token }, options);
  if (!state || isExpired(state.cart, now)) throw cartNotFound();
  return state;
}

/** The same cart read again after a change in this transaction (the places read with it are kept). */
export async function reloadCartState(db: Queryable, state: CartState): Promise<CartState> {
  const fresh = await loadCartSnapshot(db, state.organization.id, { id: state.cart.id });
  if (!fresh) throw cartNotFound();
  return state.places ? { ...fresh, places: state.places } : fresh;
}

/** A fresh cart from a merchant checkout link (`__c__<id>`): the link's offers, quantities and code. */
async function cartFromLink(
  db: Database,
  shopper: ShopperContext,
  linkId: string,
  now: Date,
): Promise<CartRow> {
  return db.transaction(async (tx) => {
    const link = await findCheckoutLinkByPublicId(tx, linkId);
    if (!link || link.organization_id !== shopper.organizationId || !link.active) throw cartNotFound();
    if (link.expires_at !== null && new Date(link.expires_at) <= now) throw cartNotFound();
    const offers = new Map(
      (
        await findOffers(
          tx,
          shopper.organizationId,
          link.offers.map((line) => line.offer_id),
        )
      ).map((o) => [o.id, o]),
    );
    // Offers retired since the link was made are left out; a link with nothing left is no longer valid.
    const lines = link.offers.filter((line) => offers.get(line.offer_id)?.active);
    if (lines.length === 0) throw cartNotFound();
    const code = link.discount_code
      ? await findDiscountCodeByCode(tx, shopper.organizationId, link.discount_code)
      : null;
    return insertCart(
      tx,
      shopper.organizationId,
      {
        token: newCartToken(),
        source: 'link',
        checkoutLinkId: link.id,
        discountCodeId: code?.id ?? null,
        isTest: shopper.testMode,
        expiresAt: new Date(now.getTime() + CART_LIFETIME_MS),
        now,
      },
      lines.map((line) => {
        const offer = offers.get(line.offer_id) as OfferRow;
        const isGift = line.is_gift && offer.is_giftable;
        return {
          offer_id: line.offer_id,
          quantity: line.quantity,
          is_gift: isGift,
          // Preset by the link (docs/api.md, "Subscribe and save"), while the offer still allows it.
          subscribed: line.subscribe && mayStartSubscribed(offer, isGift),
        };
      }),
    );
  });
}

/**
 * A gift recipient's claim cart (`__g__<code>`): the gifted offer at 0, shipping to the recipient. Reopening the
 * link answers the same open claim cart; a claimed gift is gone (404).
 */
async function cartFromGiftClaim(
  db: Database,
  shopper: ShopperContext,
  claimCode: string,
  now: Date,
): Promise<CartRow> {
  return db.transaction(async (tx) => {
    const gift = await findGiftByClaimCode(tx, shopper.organizationId, claimCode);
    if (!gift || gift.claim_issued_at === null) throw cartNotFound();
    if (gift.claimed_at !== null) {
      throw notFound(GIFT_ALREADY_CLAIMED_CODE, GIFT_ALREADY_CLAIMED);
    }
    // Serialise two tabs opening the same claim link.
    await lockGift(tx, shopper.organizationId, gift.id);
    const open = await findOpenClaimCart(tx, shopper.organizationId, gift.id);
    if (open && !isExpired(open, now)) return open;
    return insertCart(
      tx,
      shopper.organizationId,
      {
        token: newCartToken(),
        source: 'gift_claim',
        giftClaimId: gift.id,
        isTest: shopper.testMode,
        expiresAt: new Date(now.getTime() + CART_LIFETIME_MS),
        now,
      },
      [{ offer_id: gift.offer_id, quantity: gift.quantity, is_gift: false, price_override: 0 }],
    );
  });
}

/** What opening a checkout link must pass before it makes a cart (the per-IP limit, docs/security.md). */
export type NewCartFromLinkCheck = AbuseLimits['newCartFromLink'];

/** The cart a token opens: a plain cart, or a new one from a checkout link or a gift claim. */
async function openCart(
  db: Database,
  shopper: ShopperContext,
  token: string,
  now: Date,
  checkNewCartFromLink: NewCartFromLinkCheck,
): Promise<CartState> {
  const parsed = parseCartToken(token);
  if (parsed.kind === 'cart') return requireCartState(db, shopper, token, now);
  if (parsed.kind === 'checkout_link') {
    // Every visit of a link makes a cart: counted per address before the cart is made (unknown links count too).
    await checkNewCartFromLink({ ip: shopper.clientIp, organizationId: shopper.organizationId });
  }
  const created =
    parsed.kind === 'checkout_link'
      ? await cartFromLink(db, shopper, parsed.linkId, now)
      : parsed.kind === 'gift_claim'
        ? await cartFromGiftClaim(db, shopper, parsed.claimCode, now)
        : null;
  const state = created && (await loadCartSnapshot(db, shopper.organizationId, { id: created.id }));
  if (!state) throw cartNotFound();
  return state;
}

/**
 * A completed order's cart as the shopper API answers it: the amounts it was charged (frozen when it completed), the
 * shipping profile it chose and the subscriptions it started, whether read back or held by the request that wrote them.
 */
export function presentCompletedCart(
  state: CartState,
  order: OrderFigures,
  completed: {
    lines: readonly OrderLineFigures[];
    profile: ShippingProfileRow | null;
    subscriptions: readonly OrderSubscriptionNotice[];
  },
): Cart {
  const pricing = figuresOfOrder(order, completed.lines, completed.profile);
  const subscriptions = completed.subscriptions.map((notice) => ({
    order_offer_id: notice.order_offer_id,
    item_name: notice.item_name,
    amount: major(notice.cycle_amount, state.organization.currency),
    interval_days: notice.interval_days,
    next_charge_at: notice.next_charge_at.toISOString(),
  }));
  // A completed order's figures carry no notice to say.
  return presentCart(state, pricing, {
    subscriptions,
    paymentMethod: state.lastPaymentMethod,
    language: DEFAULT_LANGUAGE,
  });
}

/**
 * The cart as the shopper API answers it: a completed order shows the amounts it was charged (frozen when it
 * completed) and the subscriptions it started; anything else is priced now for its stored preview.
 */
export async function viewCartState(
  db: Queryable,
  state: CartState,
  now: Date,
  language: Language,
): Promise<Cart> {
  const paymentMethod = state.lastPaymentMethod;
  if (state.order?.status === 'complete') {
    const order = state.order;
    // The lines as charged and the shipping profile chosen, in one statement.
    const { lines, profile } = await findOrderLinesAndProfile(
      db,
      state.organization.id,
      order.id,
      order.shipping_profile_id,
    );
    // Subscriptions start from recurring lines only: an order without one has none to look up.
    const subscriptions = lines.some((line) => line.is_recurring)
      ? (await findOrderSubscriptionNotices(db, state.organization.id, order.id)).flatMap(
          ({ billing_plan, prepaid_shipped_cycle, ...notice }) =>
            nextChargeNotice(notice, { billing_plan, prepaid_shipped_cycle }) ?? [],
        )
      : [];
    return presentCompletedCart(state, order, { lines, profile, subscriptions });
  }
  const pricing = await priceCartState(db, state, {
    address: addressFromPreview(storedPreviewOf(state)),
    requestedProfileId: state.cart.shipping_profile_id,
    now,
  });
  return presentCart(state, pricing, { subscriptions: [], paymentMethod, language });
}

/** GET carts/{token} as the JSON text it answers, read from the database. */
export async function readCartJson(
  db: Database,
  shopper: ShopperContext,
  token: string,
  now: Date,
  checkNewCartFromLink: NewCartFromLinkCheck,
): Promise<string> {
  const state = await openCart(db, shopper, token, now, checkNewCartFromLink);
  return JSON.stringify(await viewCartState(db, state, now, shopper.language));
}

/** A cart by id, as the shopper API answers it. */
export async function viewCart(
  db: Queryable,
  organizationId: number,
  cartId: number,
  now: Date,
  language: Language,
): Promise<Cart> {
  const state = await loadCartSnapshot(db, organizationId, { id: cartId });
  if (!state) throw cartNotFound();
  return viewCartState(db, state, now, language);
}

/** Refuses a change to a cart whose order is complete: nothing in it can change any more. */
export function refuseIfComplete(state: CartState): void {
  if (state.order?.status === 'complete') {
    throw refusal(409, 'cart_ordered', { key: 'errors.order_placed' });
  }
}
