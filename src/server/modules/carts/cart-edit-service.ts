// A shopper's changes to a cart before its order completes: the discount code, quantities and lines, gift details.
import type { Cart, CartOffer, GiftRequest } from '../../../contract/cart.js';
import { earliestTodayAnywhere, validateGift } from '../../../domain/gift-validation.js';
import {
  MAX_LINE_QUANTITY,
  canChangeCartItems,
  canRemoveCartLine,
  isCartEditable,
  isLineQuantityAllowed,
} from '../../../domain/editable-cart.js';
import type { Database } from '../../platform/db/database.js';
import { notFound, refusal, validationError } from '../../platform/errors.js';
import type { Message } from '../../../i18n/message-keys.js';
import { discountRefusalMessage } from '../../../domain/discount-rules.js';
import type { ShopperContext } from '../organizations/request-context.js';
import {
  findBumpLine,
  insertBumpLine,
  setCartDiscountCode,
  removeLine,
  restoreLine,
  setLineQuantity,
  setLineSubscribed,
  upsertGiftDetails,
} from './carts-repository.js';
import { subscribeTermsOf, subscriptionChoiceRefusal } from '../../../domain/subscribe-and-save.js';
import { findDiscountCodeByCode } from '../catalog/discount-codes-repository.js';
import { settingsOf } from '../organizations/organization-service.js';
import { addressFromPreview, checkCartDiscount, priceCartState } from './cart-pricing.js';
import { presentOffers, storedPreviewOf } from './cart-presenter.js';
import { isGiftClaimCart, type CartState } from './cart-state.js';
import { bumpsOfCart } from './cart-bumps.js';
import { bumpChange } from '../../../domain/order-bumps.js';
import { refuseIfComplete, reloadCartState, requireCartState, viewCartState } from './cart-service.js';

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
      throw refusal(409, 'gift_claim_fixed', { key: 'errors.gift_claim_no_code' });
    }
    const text = input.trim();
    if (text === '') {
      await setCartDiscountCode(tx, organization.id, cart.id, null, now);
    } else {
      const code = await findDiscountCodeByCode(tx, organization.id, text);
      const unknown = () =>
        notFound('discount_code_not_found', {
          key: 'errors.discount_code_unknown',
          values: { code: text.toUpperCase() },
        });
      if (!code) throw unknown();
      const check = checkCartDiscount(state, code, now);
      if (!check.ok) {
        if (check.status === 404) throw unknown();
        throw refusal(check.status, check.code, (language) => discountRefusalMessage(check, language));
      }
      await setCartDiscountCode(tx, organization.id, cart.id, code.id, now);
    }
    return viewCartState(tx, await reloadCartState(tx, state), now, shopper.language);
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
    const message: Message = { key: 'errors.quantity_out_of_range', values: { max: MAX_LINE_QUANTITY } };
    throw validationError({ quantity: message }, message);
  }
  return db.transaction(async (tx) => {
    const state = await requireCartState(tx, shopper, token, now, { lock: true });
    const { organization, cart, order } = state;
    const editable = settingsOf(organization).clientOptions.cart.editable;
    if (!isCartEditable(editable) || isGiftClaimCart(state)) {
      throw refusal(409, 'cart_not_editable', { key: 'errors.cart_not_editable' });
    }
    if (!canChangeCartItems({ editable, isGiftClaim: false, orderStatus: order?.status ?? null })) {
      throw refusal(409, 'cart_ordered', {
        key: order?.status === 'complete' ? 'errors.items_order_placed' : 'errors.items_paypal_started',
      });
    }
    refuseIfPaymentInProgress(state, now);
    const line = state.lines.find((entry) => entry.id === input.id);
    const lineNotFound = () => notFound('order_offer_not_found', { key: 'errors.order_offer_not_found' });
    if (input.quantity === 0) {
      if (!line) throw lineNotFound();
      if (!canRemoveCartLine(state.lines.length)) {
        throw refusal(409, 'last_line', { key: 'errors.last_line' });
      }
      await removeLine(tx, organization.id, cart.id, line.id, now);
    } else if (line) {
      await setLineQuantity(tx, organization.id, cart.id, line.id, input.quantity, now);
    } else if (!(await restoreLine(tx, organization.id, cart.id, input.id, input.quantity, now))) {
      throw lineNotFound();
    }
    return viewCartState(tx, await reloadCartState(tx, state), now, shopper.language);
  });
}

const CHOICE_REFUSALS = {
  gift_claim: ['gift_claim_fixed', 'errors.gift_claim_no_subscription'],
  ordered: ['cart_ordered', 'errors.choice_order_placed'],
  express_started: ['cart_ordered', 'errors.items_paypal_started'],
  payment_in_progress: ['payment_in_progress', 'errors.items_payment_in_progress'],
} as const;

/**
 * Buy once or subscribe and save (docs/subscriptions.md): sets whether the shopper subscribes to a line whose offer
 * allows it, before the order is paid. Setting the choice it already has changes nothing. Answers the cart priced
 * again: a subscribed line is a recurring line from then on (its terms box, its stored card).
 */
export async function chooseSubscription(
  db: Database,
  shopper: ShopperContext,
  token: string,
  input: { id: number; subscribe: boolean },
  now: Date,
): Promise<Cart> {
  return db.transaction(async (tx) => {
    const state = await requireCartState(tx, shopper, token, now, { lock: true });
    const { organization, cart, order } = state;
    const choiceRefusal = subscriptionChoiceRefusal({
      isGiftClaim: isGiftClaimCart(state),
      orderStatus: order?.status ?? null,
      paymentInProgress: Boolean(order?.payment_lease_until && order.payment_lease_until > now),
    });
    if (choiceRefusal !== null) {
      const [code, key] = CHOICE_REFUSALS[choiceRefusal];
      throw refusal(
        409,
        code,
        { key },
        choiceRefusal === 'payment_in_progress' ? { headers: { 'retry-after': '2' } } : undefined,
      );
    }
    const line = state.lines.find((entry) => entry.id === input.id);
    if (!line) throw notFound('order_offer_not_found', { key: 'errors.order_offer_not_found' });
    if (subscribeTermsOf(line) === null) {
      const message: Message = {
        key: line.is_gift ? 'errors.gift_not_subscription' : 'errors.subscribe_not_offered',
      };
      throw refusal(422, 'subscribe_not_offered', message, { fields: { subscribe: message } });
    }
    if (line.subscribed !== input.subscribe) {
      await setLineSubscribed(tx, organization.id, cart.id, line.id, input.subscribe, now);
    }
    return viewCartState(tx, await reloadCartState(tx, state), now, shopper.language);
  });
}

/**
 * Refuses a change of the cart's lines while a payment is in flight (the order attempt holds a lease on it): the
 * amount being charged must stay the amount shown.
 */
function refuseIfPaymentInProgress(state: CartState, now: Date): void {
  const lease = state.order?.payment_lease_until;
  if (lease && lease > now) {
    throw refusal(
      409,
      'payment_in_progress',
      { key: 'errors.items_payment_in_progress' },
      {
        headers: { 'retry-after': '2' },
      },
    );
  }
}

/**
 * Ticks (selected) or unticks an order-bump box (docs/checkout-rules.md, "Order bumps"): ticking adds its offer as a
 * line flagged is_bump (once: ticking again changes nothing), unticking removes that line (kept, marked, for an order
 * attempt's lines may point at it; ticking again brings it back). Refused once the order is complete, handed to
 * PayPal, or while a payment is in flight. Answers the cart with totals computed again.
 */
export async function setBump(
  db: Database,
  shopper: ShopperContext,
  token: string,
  input: { offer_id: number; selected: boolean },
  now: Date,
): Promise<Cart> {
  return db.transaction(async (tx) => {
    const state = await requireCartState(tx, shopper, token, now, { lock: true });
    const { organization, cart, order } = state;
    refuseIfComplete(state);
    if (order?.status === 'awaiting_payment') {
      throw refusal(409, 'cart_ordered', { key: 'errors.items_paypal_started' });
    }
    refuseIfPaymentInProgress(state, now);
    const isCartBump = bumpsOfCart(state).some((bump) => bump.offer.id === input.offer_id);
    const line = await findBumpLine(tx, organization.id, cart.id, input.offer_id);
    const change = bumpChange({ selected: input.selected, isCartBump, line });
    if (change === 'not_a_bump') {
      const message: Message = { key: 'errors.not_a_bump', values: { offer: String(input.offer_id) } };
      throw refusal(422, 'not_a_bump', message, { fields: { offer_id: message } });
    }
    if (change === 'none') return viewCartState(tx, state, now, shopper.language);
    if (change === 'add') await insertBumpLine(tx, organization.id, cart.id, input.offer_id, now);
    else if (change === 'restore' && line) {
      await restoreLine(tx, organization.id, cart.id, line.id, 1, now);
    } else if (change === 'remove' && line) await removeLine(tx, organization.id, cart.id, line.id, now);
    return viewCartState(tx, await reloadCartState(tx, state), now, shopper.language);
  });
}

/**
 * Checks a gift's recipient details with the page's own rule (src/domain/gift-validation.ts): every problem at once,
 * keyed by the request's field names; "today" is the earliest calendar date anywhere on earth. (A card number in any
 * of them was refused with the request: src/server/platform/http/router.ts.)
 */
function checkGift(input: GiftRequest, now: Date): Record<string, Message> {
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
    if (!line) throw notFound('order_offer_not_found', { key: 'errors.order_offer_not_found' });
    if (!line.is_gift) {
      throw refusal(422, 'not_a_gift', { key: 'errors.not_a_gift' });
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
    if (!offer) throw notFound('order_offer_not_found', { key: 'errors.order_offer_not_found' });
    return { offer };
  });
}
