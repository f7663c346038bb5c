import type {
  Cart,
  CartOffer,
  GiftRequest,
  PreviewQuery,
  PreviewResponse,
  StoredPreview,
} from '../../contract/cart.js';
import { parseCartToken } from '../../domain/cart-token.js';
import { earliestTodayAnywhere, validateGift } from '../../domain/gift-validation.js';
import { GIFT_ALREADY_CLAIMED_CODE, GIFT_ALREADY_CLAIMED_MESSAGE } from '../../domain/link-errors.js';
import { isCountryCode } from '../../domain/countries.js';
import {
  MAX_LINE_QUANTITY,
  canChangeCartItems,
  canRemoveCartLine,
  isCartEditable,
  isLineQuantityAllowed,
} from '../../domain/editable-cart.js';
import type { Database, Queryable } from '../db/database.js';
import type { AbuseLimits } from '../security/abuse-limits.js';
import { AppError, notFound, validationError } from '../errors.js';
import type { ShopperContext } from '../http/request-context.js';
import { loadCartSnapshot } from '../repositories/cart-snapshot-repository.js';
import {
  findGiftByClaimCode,
  findOpenClaimCart,
  insertCart,
  setCartDiscountCode,
  setCartPreview,
  removeLine,
  restoreLine,
  setLineQuantity,
  upsertGiftDetails,
  type CartRow,
} from '../repositories/carts-repository.js';
import { findCheckoutLinkByPublicId } from '../repositories/checkout-links-repository.js';
import { findDiscountCodeByCode } from '../repositories/discount-codes-repository.js';
import { findOffers } from '../repositories/offers-repository.js';
import { findOrderLinesAndProfile, lockGift } from '../repositories/orders-repository.js';
import { settingsOf } from './organization-service.js';
import {
  addressFromPreview,
  checkCartDiscount,
  priceCartState,
  type PricingAddress,
} from './cart-pricing.js';
import { presentCart, presentOffers, storedPreviewOf } from './cart-presenter.js';
import { figuresOfOrder, type OrderFigures, type OrderLineFigures } from './order-figures.js';
import { major } from './money-input.js';
import {
  findOrderSubscriptionNotices,
  type OrderSubscriptionNotice,
} from '../repositories/subscriptions-repository.js';
import type { ShippingProfileRow } from '../repositories/shipping-profiles-repository.js';
import { isGiftClaimCart, type CartState } from './cart-state.js';
import { CART_LIFETIME_MS } from './merchant-cart-service.js';
import { LINK_NO_LONGER_VALID } from './page-service.js';
import { newCartToken } from './secrets.js';
import { CART_VIEW_CHANNEL, type CartViewCache } from './cart-view-cache.js';

export const CART_NOT_FOUND_MESSAGE = LINK_NO_LONGER_VALID;

function cartNotFound(): AppError {
  return notFound('cart_not_found', CART_NOT_FOUND_MESSAGE);
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
  // Whoever locks a cart is about to change it: this instance drops its kept view of it once that commits, before it
  // answers (the database's notice of the change reaches every instance too, a moment later).
  if (options.lock) db.announce(CART_VIEW_CHANNEL, `c:${state.cart.id}`);
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
      lines.map((line) => ({
        offer_id: line.offer_id,
        quantity: line.quantity,
        is_gift: line.is_gift && (offers.get(line.offer_id)?.is_giftable ?? false),
      })),
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
      throw notFound(GIFT_ALREADY_CLAIMED_CODE, GIFT_ALREADY_CLAIMED_MESSAGE);
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
  return presentCart(state, pricing, { subscriptions, paymentMethod: state.lastPaymentMethod });
}

/**
 * The cart as the shopper API answers it: a completed order shows the amounts it was charged (frozen when it
 * completed) and the subscriptions it started; anything else is priced now for its stored preview.
 */
export async function viewCartState(db: Queryable, state: CartState, now: Date): Promise<Cart> {
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
      ? await findOrderSubscriptionNotices(db, state.organization.id, order.id)
      : [];
    return presentCompletedCart(state, order, { lines, profile, subscriptions });
  }
  const pricing = await priceCartState(db, state, {
    address: addressFromPreview(storedPreviewOf(state)),
    requestedProfileId: state.cart.shipping_profile_id,
    now,
  });
  return presentCart(state, pricing, { subscriptions: [], paymentMethod });
}

/** The longest a kept view is served without a change notice (a safety net: notices are not expected to go missing). */
const CART_VIEW_MAX_AGE_MS = 60_000;

/** The rows a cart's view is made of, named as the change notices name them (migration 0004). */
function cartViewTags(state: CartState): string[] {
  const tags = [`c:${state.cart.id}`, `o:${state.organization.id}`];
  if (state.cart.customer_id !== null) tags.push(`u:${state.cart.customer_id}`);
  if (state.discountCode) tags.push(`d:${state.discountCode.id}`);
  for (const line of state.lines) tags.push(`f:${line.offer_id}`, `l:${line.id}`);
  // A claim cart shows the giver's message, kept on the gift's line in the giver's cart.
  if (state.giftFrom) tags.push(`l:${state.giftFrom.line_id}`);
  return tags;
}

/** When the clock alone changes a cart's view: it expires, its code's window opens or closes. */
function cartViewValidUntil(state: CartState, now: Date): number {
  const at = now.getTime();
  const moments = [at + CART_VIEW_MAX_AGE_MS, state.cart.expires_at?.getTime()];
  const code = state.discountCode;
  if (code) moments.push(code.starts_at?.getTime(), code.ends_at?.getTime());
  return Math.min(...moments.filter((moment): moment is number => moment !== undefined && moment > at));
}

/**
 * GET carts/{token} as the JSON text it answers: this instance's kept view when it holds one, else read from the
 * database and kept for the next read if the cart is a plain cart token with no order yet (after an order the view
 * comes from rows whose every change would have to be announced; it is read once or twice, not worth it).
 */
export async function readCartJson(
  db: Database,
  cache: CartViewCache | null,
  shopper: ShopperContext,
  token: string,
  now: Date,
  checkNewCartFromLink: NewCartFromLinkCheck,
): Promise<string> {
  const kept = cache?.get(shopper.organizationId, token, now.getTime());
  if (kept) return kept;
  const ticket = cache?.ticket() ?? 0;
  const state = await openCart(db, shopper, token, now, checkNewCartFromLink);
  const json = JSON.stringify(await viewCartState(db, state, now));
  // Changes to an ordered cart send no notice (migration 0004): only a cart with neither is kept.
  if (cache && state.order === null && state.cart.ordered_at === null && state.cart.token === token) {
    cache.keep(ticket, shopper.organizationId, token, {
      json,
      tags: cartViewTags(state),
      validUntil: cartViewValidUntil(state, now),
    });
  }
  return json;
}

/** A cart by id, as the shopper API answers it. */
export async function viewCart(
  db: Queryable,
  organizationId: number,
  cartId: number,
  now: Date,
): Promise<Cart> {
  const state = await loadCartSnapshot(db, organizationId, { id: cartId });
  if (!state) throw cartNotFound();
  return viewCartState(db, state, now);
}

function refuseIfComplete(state: CartState): void {
  if (state.order?.status === 'complete') {
    throw new AppError(
      409,
      'cart_ordered',
      'This order has already been placed. Nothing more can change in it.',
    );
  }
}

/** Applies a code (case-insensitively) or removes it (empty string); every refusal has its own code and words. */
export async function applyDiscountCode(
  db: Database,
  shopper: ShopperContext,
  token: string,
  input: string,
  now: Date,
): Promise<Cart> {
  return db.transaction(async (tx) => {
    const state = await requireCartState(tx, shopper, token, now, { lock: true });
    const { organization, cart } = state;
    refuseIfComplete(state);
    if (isGiftClaimCart(state)) {
      throw new AppError(409, 'gift_claim_fixed', 'A gift is already paid for: codes cannot be used on it.');
    }
    const text = input.trim();
    if (text === '') {
      await setCartDiscountCode(tx, organization.id, cart.id, null, now);
    } else {
      const code = await findDiscountCodeByCode(tx, organization.id, text);
      const unknown = () =>
        notFound(
          'discount_code_not_found',
          `We don't recognize the code ${text.toUpperCase()}. Check it and try again.`,
        );
      if (!code) throw unknown();
      const check = checkCartDiscount(state, code, now);
      if (!check.ok) {
        if (check.status === 404) throw unknown();
        throw new AppError(check.status, check.code, check.message);
      }
      await setCartDiscountCode(tx, organization.id, cart.id, code.id, now);
    }
    return viewCartState(tx, await reloadCartState(tx, state), now);
  });
}

/**
 * Changes a line's quantity, removes it (quantity 0; kept for Undo) or brings a removed line back (a quantity for
 * it), when the lines may change (canChangeCartItems: the organization lets shoppers edit, its override winning, and
 * no order was paid). The last line stays: a cart is never empty. Answers the cart with totals computed again.
 */
export async function changeQuantity(
  db: Database,
  shopper: ShopperContext,
  token: string,
  input: { id: number; quantity: number },
  now: Date,
): Promise<Cart> {
  if (!isLineQuantityAllowed(input.quantity)) {
    const message = `Choose a quantity from 1 to ${MAX_LINE_QUANTITY}, or 0 to remove the item.`;
    throw validationError({ quantity: message }, message);
  }
  return db.transaction(async (tx) => {
    const state = await requireCartState(tx, shopper, token, now, { lock: true });
    const { organization, cart, order } = state;
    const editable = settingsOf(organization).clientOptions.cart.editable;
    if (!isCartEditable(editable) || isGiftClaimCart(state)) {
      throw new AppError(409, 'cart_not_editable', "The items in this cart can't be changed.");
    }
    if (!canChangeCartItems({ editable, isGiftClaim: false, orderStatus: order?.status ?? null })) {
      throw new AppError(
        409,
        'cart_ordered',
        order?.status === 'complete'
          ? 'This order has already been placed: its items cannot change any more.'
          : 'A PayPal payment was started for this order: its items cannot change now.',
      );
    }
    if (order?.payment_lease_until && order.payment_lease_until > now) {
      throw new AppError(
        409,
        'payment_in_progress',
        'Your payment is being processed. Wait a moment before changing your items.',
        { headers: { 'retry-after': '2' } },
      );
    }
    const line = state.lines.find((entry) => entry.id === input.id);
    const lineNotFound = () => notFound('order_offer_not_found', 'That item is not in this cart.');
    if (input.quantity === 0) {
      if (!line) throw lineNotFound();
      if (!canRemoveCartLine(state.lines.length)) {
        throw new AppError(
          409,
          'last_line',
          'This is the only item in your cart, so it cannot be removed. Change its quantity instead.',
        );
      }
      await removeLine(tx, organization.id, cart.id, line.id, now);
    } else if (line) {
      await setLineQuantity(tx, organization.id, cart.id, line.id, input.quantity, now);
    } else if (!(await restoreLine(tx, organization.id, cart.id, input.id, input.quantity, now))) {
      throw lineNotFound();
    }
    return viewCartState(tx, await reloadCartState(tx, state), now);
  });
}

function previewAddress(query: PreviewQuery): PricingAddress {
  const sameAddress = query.same_address !== 'false';
  const shipCountry = query.ship_country ?? null;
  return {
    shipCountry,
    shipState: query.ship_state ?? null,
    billCountry: query.bill_country ?? (sameAddress ? shipCountry : null),
    billState: query.bill_state ?? (sameAddress ? (query.ship_state ?? null) : null),
  };
}

/**
 * Tax and shipping for an address and shipping profile. With ship_country the preview is stored on the cart;
 * without it the profiles are emptied, the chosen one cleared and the stored preview dropped. Echoes version.
 */
export async function previewCart(
  db: Database,
  shopper: ShopperContext,
  token: string,
  query: PreviewQuery,
  now: Date,
): Promise<PreviewResponse> {
  const fields: Record<string, string> = {};
  for (const key of ['ship_country', 'bill_country'] as const) {
    const value = query[key];
    if (value !== undefined && !isCountryCode(value))
      fields[key] = 'Use a two-letter ISO country code such as US.';
  }
  if (query.shipping_profile_id !== undefined && !/^\d{1,15}$/.test(query.shipping_profile_id)) {
    fields.shipping_profile_id = 'Choose one of the shipping options offered.';
  }
  if (query.same_address !== undefined && !['true', 'false'].includes(query.same_address)) {
    fields.same_address = 'Use true or false.';
  }
  if (Object.keys(fields).length > 0) throw validationError(fields);

  const address = previewAddress(query);
  return db.transaction(async (tx) => {
    // The shipping profiles and tax rates of the address come with the cart.
    const state = await requireCartState(tx, shopper, token, now, { lock: true, places: address });
    const { organization, cart } = state;
    refuseIfComplete(state);
    const requested =
      query.shipping_profile_id === undefined ? cart.shipping_profile_id : Number(query.shipping_profile_id);
    const pricing = await priceCartState(tx, state, { address, requestedProfileId: requested, now });
    const chosenId = pricing.chosenProfile?.id ?? null;
    const figures = presentCart(state, pricing, { subscriptions: [], paymentMethod: null });

    let stored: StoredPreview | null = null;
    if (address.shipCountry) {
      stored = {
        ship_country: address.shipCountry,
        ship_state: query.ship_state ?? '',
        ship_zipcode: query.ship_zipcode ?? '',
        ship_city: query.ship_city ?? '',
        bill_country: query.bill_country ?? '',
        bill_state: query.bill_state ?? '',
        bill_zipcode: query.bill_zipcode ?? '',
        same_address: query.same_address !== 'false',
        shipping_profile_id: chosenId === null ? '' : String(chosenId),
        subtotal: figures.subtotal,
        total_tax: figures.total_tax,
        total_campaign_shipping: figures.total_campaign_shipping,
        total_offer_shipping: figures.total_offer_shipping,
        total: figures.total,
        computed_at: now.toISOString(),
      };
    }
    await setCartPreview(tx, organization.id, cart.id, stored, stored ? chosenId : null, now);
    const view = { ...figures, preview: stored };
    return {
      version: query.version ?? null,
      order: view.order,
      customer: view.customer,
      offers: view.offers,
      subtotal: view.subtotal,
      subtotal_items: view.subtotal_items,
      total_discount: view.total_discount,
      total_tax: view.total_tax,
      total_campaign_shipping: view.total_campaign_shipping,
      total_offer_shipping: view.total_offer_shipping,
      total_gift_cards: view.total_gift_cards,
      total: view.total,
      preview: stored,
      notice: pricing.shippingNotice,
    };
  });
}

/**
 * Checks a gift's recipient details with the page's own rule (src/domain/gift-validation.ts): every problem at once,
 * keyed by the request's field names; "today" is the earliest calendar date anywhere on earth. (A card number in any
 * of them was refused with the request: src/server/http/router.ts.)
 */
function checkGift(input: GiftRequest, now: Date): Record<string, string> {
  const values = {
    gift_name: input.gift_name,
    gift_email: input.gift_email,
    gift_date: input.gift_date,
    gift_message: input.gift_message,
    gift_phone: input.gift_phone ?? '',
    order_offer_notes: input.order_offer_notes ?? '',
  };
  return validateGift(values, earliestTodayAnywhere(now));
}

/** Stores a gift line's recipient details (a giftable line of that cart, before the order completes). */
export async function saveGift(
  db: Database,
  shopper: ShopperContext,
  orderOfferId: number,
  input: GiftRequest,
  now: Date,
): Promise<{ offer: CartOffer }> {
  if (input.order_offer_id !== orderOfferId) {
    throw validationError({ order_offer_id: 'order_offer_id must match the address of the request.' });
  }
  return db.transaction(async (tx) => {
    const state = await requireCartState(tx, shopper, input.cart_token, now, { lock: true });
    const { organization } = state;
    const line = state.lines.find((entry) => entry.id === orderOfferId);
    if (!line) throw notFound('order_offer_not_found', 'That item is not in this cart.');
    if (!line.is_gift) {
      throw new AppError(422, 'not_a_gift', 'This item is not a gift, so it has no recipient details.');
    }
    refuseIfComplete(state);
    const fields = checkGift(input, now);
    if (Object.keys(fields).length > 0) throw validationError(fields);
    await upsertGiftDetails(
      tx,
      organization.id,
      line.id,
      {
        gift_name: input.gift_name.trim(),
        gift_email: input.gift_email.trim(),
        gift_date: input.gift_date,
        gift_message: input.gift_message,
        gift_phone: input.gift_phone?.trim() ?? '',
        order_offer_notes: input.order_offer_notes ?? '',
      },
      now,
    );
    const refreshed = await reloadCartState(tx, state);
    const pricing = await priceCartState(tx, refreshed, {
      address: addressFromPreview(storedPreviewOf(refreshed)),
      requestedProfileId: refreshed.cart.shipping_profile_id,
      now,
    });
    const offer = presentOffers(refreshed, pricing).find((entry) => entry.id === line.id);
    if (!offer) throw notFound('order_offer_not_found', 'That item is not in this cart.');
    return { offer };
  });
}
