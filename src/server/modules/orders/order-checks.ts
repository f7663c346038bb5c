// The first steps of placing an order, under its cart's lock: the cart that may take an order now, and the request
// priced and checked against it.
import type { CreateOrder } from '../../../contract/order.js';
import { discountRefusalMessage } from '../../../domain/discount-rules.js';
import type { FieldMessages } from '../../../domain/field-errors.js';
import { canChangeCartItems } from '../../../domain/editable-cart.js';
import { shouldDisplaySubscriptionTerms } from '../../../domain/subscription-terms.js';
import type { Queryable } from '../../platform/db/database.js';
import { notFound, refusal, validationError } from '../../platform/errors.js';
import { setLineQuantity } from '../carts/carts-repository.js';
import { priceCartState } from '../carts/cart-pricing.js';
import { reloadCartState, requireCartState } from '../carts/cart-service.js';
import { isGiftClaimCart, type CartState } from '../carts/cart-state.js';
import { settingsOf } from '../organizations/organization-service.js';
import { lockGift } from './order-gifts-repository.js';
import { orderAlreadyPlaced } from './order-completion.js';
import { cardPaymentProblem, chargeKey, isExpressStart, isPaymentDue } from './order-decisions.js';
import { countPaymentAttempts, findAwaitingAuthentication } from './payment-attempts-repository.js';
import { checkExpressPayment } from './order-express.js';
import type { OrderRequest, PricedOrder } from './order-plan.js';
import { addressesOf, checkOrder, placesAddressOf, requestedProfileId } from './order-request.js';

/**
 * The cart, locked for this transaction, once it may take this order: its order (on a PUT, the one named) not
 * complete and not being paid, the quantities a POST sends applied, the gift a claim cart claims still unclaimed.
 */
export async function openCartForOrder(tx: Queryable, request: OrderRequest): Promise<CartState> {
  const { shopper, now, body } = request;
  // The shipping profiles and tax rates of the body's address come with the cart.
  const state = await requireCartState(tx, shopper, body.cart_token, now, {
    lock: true,
    places: placesAddressOf(body),
  });
  const existing = state.order;
  if (request.kind === 'update' && (!existing || existing.id !== request.orderId)) {
    throw notFound('order_not_found', { key: 'errors.order_not_found' });
  }
  if (existing?.status === 'complete') throw orderAlreadyPlaced();
  if (existing?.payment_lease_until && existing.payment_lease_until > now) {
    throw refusal(
      409,
      'payment_in_progress',
      { key: 'errors.payment_in_progress' },
      {
        headers: { 'retry-after': '2' },
      },
    );
  }
  const changed = request.kind === 'create' && (await applyQuantities(tx, state, body as CreateOrder, now));
  const cart = changed ? await reloadCartState(tx, state) : state;
  if (isGiftClaimCart(cart) && cart.cart.gift_claim_id !== null) {
    const gift = await lockGift(tx, cart.organization.id, cart.cart.gift_claim_id);
    if (!gift || gift.claimed_at !== null)
      throw notFound('gift_already_claimed', { key: 'errors.gift_already_claimed' });
  }
  return cart;
}

/** Applies the quantities a POST sends when they differ from the cart's (only where the cart may change). */
async function applyQuantities(
  tx: Queryable,
  state: CartState,
  body: CreateOrder,
  now: Date,
): Promise<boolean> {
  if (!body.offers) return false;
  const fields: FieldMessages = {};
  let changed = false;
  const editable = canChangeCartItems({
    editable: settingsOf(state.organization).clientOptions.cart.editable,
    isGiftClaim: isGiftClaimCart(state),
    orderStatus: state.order?.status ?? null,
  });
  for (const [index, wanted] of body.offers.entries()) {
    const line = state.lines.find((entry) => entry.id === wanted.order_offer_id);
    if (!line) {
      fields[`offers.${index}.order_offer_id`] = { key: 'errors.order_offer_not_found' };
      continue;
    }
    if (line.quantity === wanted.order_offer_quantity) continue;
    if (!editable) {
      fields[`offers.${index}.order_offer_quantity`] = { key: 'fields.quantity_fixed' };
      continue;
    }
    await setLineQuantity(
      tx,
      state.organization.id,
      state.cart.id,
      line.id,
      wanted.order_offer_quantity,
      now,
    );
    changed = true;
  }
  if (Object.keys(fields).length > 0) throw validationError(fields);
  return changed;
}

/**
 * The order priced on the server for the body's addresses and checked: everything wrong with it answered at once,
 * and the express payment it completes with, if any, still good for this cart.
 */
export async function priceAndCheck(
  tx: Queryable,
  state: CartState,
  request: OrderRequest,
): Promise<PricedOrder> {
  const { body, now } = request;
  const fields: FieldMessages = {};
  const payment = body.payment;
  const addresses = addressesOf(body, state);
  const { ship, billing } = addresses;
  const requested = requestedProfileId(body.shipping_profile_id, fields);
  const pricing = await priceCartState(tx, state, {
    address: {
      shipCountry: ship.country || null,
      shipState: ship.state || null,
      billCountry: billing.country || null,
      billState: billing.state || null,
    },
    requestedProfileId: requested ?? state.cart.shipping_profile_id,
    now,
  });
  const paymentDue = isPaymentDue(pricing.result);
  const termsDisplayed = shouldDisplaySubscriptionTerms({
    optionDisplay: settingsOf(state.organization).clientOptions.subscriptionTermsCheckbox.display,
    isRecurring: pricing.result.isRecurring,
    offers: state.lines,
  });
  // A code that stopped applying since the shopper saw the cart would raise the price they last saw: say so first.
  const discountRefusal = pricing.discountRefusal;
  if (discountRefusal) {
    throw refusal(422, discountRefusal.code, (language) =>
      discountRefusalMessage(discountRefusal, language, 'order'),
    );
  }
  // A card the bank asked the shopper to authenticate pays this order only if it is this order's pending payment.
  const reference = payment?.method === 'card' ? payment.authenticated_payment?.trim() : undefined;
  const authenticated =
    reference && state.order
      ? await findAwaitingAuthentication(tx, state.organization.id, state.order.id, reference)
      : null;
  // A used token may be this order's own attempt again, retried after its answer was lost: the key it would charge with.
  const retriedKey =
    request.card?.description.status === 'unusable' && request.card.description.usedBy && state.order
      ? chargeKey(
          state.organization.id,
          state.order.id,
          (await countPaymentAttempts(tx, state.organization.id, state.order.id)) + 1,
        )
      : null;
  // Express start: the payer gives their details at the provider, so only the cart itself must be valid.
  if (!isExpressStart(payment)) {
    const method = payment?.method ?? null;
    const cardProblem =
      payment?.method === 'card'
        ? cardPaymentProblem({
            payment,
            card: request.card,
            authenticated,
            amount: pricing.result.total,
            retriedKey,
          })
        : null;
    checkOrder(
      body,
      addresses,
      state,
      pricing,
      { method, paymentDue, termsDisplayed, requested, now, cardProblem, language: request.shopper.language },
      fields,
    );
  }
  if (Object.keys(fields).length > 0) throw validationError(fields);
  const express =
    payment?.method === 'paypal' && payment.payment_token_id
      ? await checkExpressPayment(tx, state, payment.payment_token_id, now)
      : null;
  return { state, addresses, pricing, termsDisplayed, express, authenticated };
}
