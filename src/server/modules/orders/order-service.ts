import type { CreateOrder, OrderResponse } from '../../../contract/order.js';
import { digitsOnly, getCardType } from '../../../domain/card.js';
import { expiryYear, type FieldProblems } from '../../../domain/checkout-fields.js';
import { isDiscountCodeUsedUp } from '../../../domain/discount-rules.js';
import { canChangeCartItems } from '../../../domain/editable-cart.js';
import { shouldDisplaySubscriptionTerms } from '../../../domain/subscription-terms.js';
import type { Queryable } from '../../platform/db/database.js';
import { AppError, notFound, validationError } from '../../platform/errors.js';
import { setLineQuantity } from '../carts/carts-repository.js';
import { saveCartCustomer } from '../carts/customers-repository.js';
import { insertExpressPayment } from '../express/express-payments-repository.js';
import { countPaymentAttempts } from './payment-attempts-repository.js';
import {
  insertOrder,
  lockOrder,
  replaceOrderLines,
  setOrderOutcome,
  updateOrder,
  type OrderRow,
} from './orders-repository.js';
import { lockGift } from './order-gifts-repository.js';
import { releaseDiscountUse, reserveDiscountUse } from './discount-uses-repository.js';
import { priceCartState, type PricingAddress } from '../carts/cart-pricing.js';
import { presentCompletedCart, reloadCartState, requireCartState } from '../carts/cart-service.js';
import { isGiftClaimCart, type CartState } from '../carts/cart-state.js';
import { expressReturnUrl } from '../express/express-service.js';
import { settingsOf } from '../organizations/organization-service.js';
import { newCartToken } from '../../platform/security/secrets.js';
import type { OrderDependencies, OrderRequest, Plan } from './order-plan.js';
import { attemptValues, completeOrder, completedCart, orderAlreadyPlaced } from './order-completion.js';
import { charge, checkExpressPayment, startExpress } from './order-payment.js';
import {
  addressesOf,
  checkOrder,
  customerOf,
  orderValues,
  placesAddressOf,
  requestedProfileId,
  withCustomer,
} from './order-request.js';

export type { OrderDependencies, OrderLimits, OrderRequest } from './order-plan.js';

/** How long the payer has to approve an express payment. */
const EXPRESS_LIFETIME_MS = 3 * 60 * 60 * 1000;

/** Applies the quantities a POST sends when they differ from the cart's (only where the cart may change). */
async function applyQuantities(
  tx: Queryable,
  state: CartState,
  body: CreateOrder,
  now: Date,
): Promise<boolean> {
  if (!body.offers) return false;
  const fields: FieldProblems = {};
  let changed = false;
  const editable = canChangeCartItems({
    editable: settingsOf(state.organization).clientOptions.cart.editable,
    isGiftClaim: isGiftClaimCart(state),
    orderStatus: state.order?.status ?? null,
  });
  for (const [index, wanted] of body.offers.entries()) {
    const line = state.lines.find((entry) => entry.id === wanted.order_offer_id);
    if (!line) {
      fields[`offers.${index}.order_offer_id`] = 'That item is not in this cart.';
      continue;
    }
    if (line.quantity === wanted.order_offer_quantity) continue;
    if (!editable) {
      fields[`offers.${index}.order_offer_quantity`] = "This item's quantity can't be changed.";
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

/** Validates, prices and saves the order under the cart's lock, and says what happens next. */
async function prepare(deps: OrderDependencies, request: OrderRequest): Promise<Plan> {
  const { shopper, now, body } = request;
  return deps.db.transaction(async (tx): Promise<Plan> => {
    // The shipping profiles and tax rates of the body's address come with the cart.
    let state = await requireCartState(tx, shopper, body.cart_token, now, {
      lock: true,
      places: placesAddressOf(body),
    });
    const { organization, cart } = state;
    const existing = state.order;
    if (request.kind === 'update' && (!existing || existing.id !== request.orderId)) {
      throw notFound('order_not_found', 'There is no such order for this cart.');
    }
    if (existing?.status === 'complete') throw orderAlreadyPlaced();
    if (existing?.payment_lease_until && existing.payment_lease_until > now) {
      throw new AppError(
        409,
        'payment_in_progress',
        'Your payment is being processed. Wait a moment before trying again.',
        {
          headers: { 'retry-after': '2' },
        },
      );
    }
    if (request.kind === 'create' && (await applyQuantities(tx, state, body as CreateOrder, now))) {
      state = await reloadCartState(tx, state);
    }
    if (isGiftClaimCart(state) && cart.gift_claim_id !== null) {
      const gift = await lockGift(tx, organization.id, cart.gift_claim_id);
      if (!gift || gift.claimed_at !== null)
        throw notFound('gift_already_claimed', 'This gift has already been claimed.');
    }

    const fields: FieldProblems = {};
    const settings = settingsOf(organization);
    const payment = body.payment;
    const method = payment?.method ?? null;
    const expressStart = payment?.method === 'paypal' && !payment.payment_token_id;
    const addresses = addressesOf(body, state);
    const { ship, billing } = addresses;
    const address: PricingAddress = {
      shipCountry: ship.country || null,
      shipState: ship.state || null,
      billCountry: billing.country || null,
      billState: billing.state || null,
    };
    const requested = requestedProfileId(body.shipping_profile_id, fields);
    const pricing = await priceCartState(tx, state, {
      address,
      requestedProfileId: requested ?? cart.shipping_profile_id,
      now,
    });
    const total = pricing.result.total;
    const paymentDue = total > 0 || pricing.result.isRecurring;
    const termsDisplayed = shouldDisplaySubscriptionTerms({
      optionDisplay: settings.clientOptions.subscriptionTermsCheckbox.display,
      isRecurring: pricing.result.isRecurring,
      offers: state.lines,
    });
    // A code that stopped applying since the shopper saw the cart would raise the price they last saw: say so first.
    if (pricing.discountNotice) {
      throw new AppError(
        422,
        pricing.discountNotice.code,
        `${pricing.discountNotice.message} Remove it to place your order.`,
      );
    }
    // Express start: the payer gives their details at the provider, so only the cart itself must be valid.
    if (!expressStart)
      checkOrder(
        body,
        addresses,
        state,
        pricing,
        { method, paymentDue, termsDisplayed, requested, now },
        fields,
      );
    if (Object.keys(fields).length > 0) throw validationError(fields);

    const express =
      payment?.method === 'paypal' && payment.payment_token_id
        ? await checkExpressPayment(tx, state, payment.payment_token_id, now)
        : null;
    const cardNumber = payment?.method === 'card' && paymentDue ? digitsOnly(payment.card_number) : null;
    const testCard = cardNumber !== null && settings.clientOptions.testCards.includes(cardNumber);
    const isTest = shopper.testMode || cart.is_test || testCard;
    // The payment method is kept for later cycles when a line recurs for this customer (a gift's recipient pays theirs).
    const storeForFuture = state.lines.some((line) => line.is_recurring && !line.is_gift);

    const customer = customerOf(state, body, addresses);
    const status: OrderRow['status'] = expressStart ? 'awaiting_payment' : (existing?.status ?? 'pending');
    const values = orderValues(state, pricing, body, addresses, {
      status,
      isTest,
      termsDisplayed,
      ip: shopper.clientIp,
      now,
    });
    const lines = state.lines.map((line) => {
      const priced = pricing.result.lines.find((entry) => entry.id === line.id);
      return {
        cart_offer_id: line.id,
        offer_id: line.offer_id,
        item_name: line.item_name,
        quantity: line.quantity,
        unit_price: line.price_override ?? line.price,
        subtotal: priced?.subtotal ?? 0,
        discount: priced?.discount ?? 0,
        shipping: priced?.shipping ?? 0,
        tax: priced?.tax ?? 0,
        total: priced?.total ?? 0,
        is_gift: line.is_gift,
        is_recurring: line.is_recurring,
        billing_interval_days: line.billing_interval_days,
        next_cycle_total: priced?.nextCycleTotal ?? null,
      };
    });
    const wantedCode = values.discount_code_id;
    const holdCodeUse = async () => {
      if (wantedCode === null) return;
      const hold = await reserveDiscountUse(tx, organization.id, wantedCode);
      if (hold.held) return;
      const name = values.discount_code ?? '';
      if (isDiscountCodeUsedUp(hold)) {
        throw new AppError(
          422,
          'discount_code_used_up',
          `The code ${name} has just been used up. Remove it to place your order at the full price.`,
        );
      }
      // Payments in flight hold its last uses, and a declined one gives its use back: not used up, not yet (docs/api.md).
      throw new AppError(
        409,
        'discount_code_held',
        `Payments being made right now hold the last uses of the code ${name}. Try again in a moment: a use comes free again if one of them does not go through.`,
        { headers: { 'retry-after': '2' } },
      );
    };
    const chargesNow = paymentDue && !expressStart;
    const paymentLeaseUntil = new Date(now.getTime() + deps.paymentLeaseMs);
    let orderId: number;
    let customerId: number;
    if (existing) {
      // The customer (updated) and its addresses: one statement.
      customerId = await saveCartCustomer(tx, organization.id, customer, now);
      orderId = existing.id;
      await updateOrder(tx, organization.id, orderId, { ...values, customer_id: customerId }, now);
      await replaceOrderLines(tx, organization.id, orderId, lines);
    } else {
      // A new order: one use of its code is held first (as below for an earlier order), so that the customer, the
      // order, its lines and, when it is paid now, its payment lease are written by one statement.
      if (!expressStart) await holdCodeUse();
      ({ id: orderId, customerId } = await insertOrder(
        tx,
        organization.id,
        customer,
        values,
        lines,
        chargesNow ? { discountReserved: wantedCode !== null, paymentLeaseUntil } : {},
        now,
      ));
    }
    const saved = withCustomer(state, customer, customerId);
    // The order as this transaction wrote it: the answer is made from it rather than read back.
    const written: OrderRow = existing
      ? { ...existing, ...values, customer_id: customerId, updated_at: now }
      : {
          ...values,
          customer_id: customerId,
          id: orderId,
          organization_id: organization.id,
          cart_id: cart.id,
          created_at: now,
          updated_at: now,
          completed_at: null,
          payment_lease_until: chargesNow ? paymentLeaseUntil : null,
          discount_reserved: chargesNow && wantedCode !== null,
          express_payment_id: null,
          payment_method_id: null,
          cart_token: cart.token,
        };

    if (expressStart) {
      const publicId = `pt_${newCartToken()}`;
      const expressId = await insertExpressPayment(
        tx,
        organization.id,
        {
          publicId,
          cartId: cart.id,
          orderId,
          provider: deps.gateways.express.name,
          amount: total,
          currency: organization.currency,
          isTest,
          expiresAt: new Date(now.getTime() + EXPRESS_LIFETIME_MS),
        },
        now,
      );
      await setOrderOutcome(
        tx,
        organization.id,
        orderId,
        { status: 'awaiting_payment', expressPaymentId: expressId },
        now,
      );
      return {
        kind: 'express_start',
        organization,
        cartId: cart.id,
        express: { id: expressId, publicId },
        amount: total,
        returnUrl: expressReturnUrl(deps.publicUrl, {
          cart_token: cart.token,
          public_id: publicId,
          is_test: isTest,
        }),
        storeForFuture,
        after: {
          ...saved,
          order: {
            ...written,
            status: 'awaiting_payment',
            express_payment_id: expressId,
            payment_lease_until: null,
          },
        },
      };
    }

    // One use of the code is held before any money moves; a code used up meanwhile stops the order here.
    // An order inserted just now is as this transaction wrote it (its code use held above); an earlier one is read
    // again, under its row lock.
    let reserved: boolean;
    let order: OrderRow;
    if (existing) {
      const locked = (await lockOrder(tx, organization.id, orderId)) as OrderRow;
      // An earlier attempt whose lease ran out may have completed the order since the cart was read: this
      // transaction (and the lines it rewrote) is undone rather than the order being charged a second time.
      if (locked.status === 'complete') throw orderAlreadyPlaced();
      // A use is still held only if an earlier attempt died mid-payment; it belongs to the code that attempt used.
      const heldCode = locked.discount_reserved ? existing.discount_code_id : null;
      reserved = heldCode !== null && heldCode === wantedCode;
      if (heldCode !== null && heldCode !== wantedCode)
        await releaseDiscountUse(tx, organization.id, heldCode);
      if (wantedCode !== null && !reserved) {
        await holdCodeUse();
        reserved = true;
      }
      order = locked;
    } else {
      reserved = wantedCode !== null;
      order = written;
    }

    if (!paymentDue) {
      const completed = await completeOrder(tx, organization, order, {
        attempt: attemptValues({
          orderId,
          cartId: cart.id,
          method: 'none',
          gateway: 'none',
          status: 'approved',
          amount: 0,
          currency: organization.currency,
          isTest,
          ip: shopper.clientIp,
        }),
        paymentMethodId: null,
        giftClaimId: cart.gift_claim_id,
        discountReserved: reserved,
        now,
      });
      const answer = presentCompletedCart(completedCart(saved, order, 'none', now), order, {
        ...completed,
        profile: pricing.chosenProfile,
      });
      await request.answers.keep(tx, { status: 200, body: answer });
      return { kind: 'completed', organization, cartId: cart.id, answer };
    }

    // The abuse limits, here when their store is this database: the attempt counts only if this transaction commits,
    // and a refused attempt is saved as charge() leaves one refused by a store elsewhere (no lease, no code use held).
    if (deps.limits.beforeOrderAttemptInTransaction) {
      try {
        await deps.limits.beforeOrderAttemptInTransaction(tx, {
          organizationId: organization.id,
          cartId: cart.id,
          ip: shopper.clientIp,
        });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        if (reserved && wantedCode !== null) await releaseDiscountUse(tx, organization.id, wantedCode);
        await setOrderOutcome(tx, organization.id, orderId, { status, discountReserved: false }, now);
        return { kind: 'refused', organization, error };
      }
    }

    // The payment lease: no lease was running (checked above) and this transaction now holds the order row (a new
    // order was written with it).
    if (existing) {
      await setOrderOutcome(
        tx,
        organization.id,
        orderId,
        { status, discountReserved: reserved, paymentLeaseUntil },
        now,
      );
    }
    // A new order has no attempts yet.
    const attempt = existing ? (await countPaymentAttempts(tx, organization.id, orderId)) + 1 : 1;
    const base = {
      kind: 'charge' as const,
      organization,
      cartId: cart.id,
      giftClaimId: cart.gift_claim_id,
      orderId,
      customerId,
      attempt,
      amount: total,
      storeForFuture,
      isTest,
      discountCodeId: reserved ? wantedCode : null,
      paymentLeaseUntil,
      completesAlone:
        // (a recurring line is also what makes the payment method stored)
        express === null &&
        cart.gift_claim_id === null &&
        !lines.some((line) => line.is_gift || line.is_recurring),
      saved,
      order: { ...order, cart_token: cart.token },
      lines,
      chosenProfile: pricing.chosenProfile,
    };
    if (express) return { ...base, payment: { method: 'paypal', express } };
    if (payment?.method !== 'card')
      throw new Error('unreachable: a due payment is a card or an express payment here');
    const type = getCardType(payment.card_number, settings.clientOptions.testCards);
    const expMonth = Number(payment.card_exp_month);
    const expYear = expiryYear(payment.card_exp_year) ?? 0;
    return {
      ...base,
      payment: {
        method: 'card',
        card: { number: digitsOnly(payment.card_number), cvv: payment.card_cvv.trim(), expMonth, expYear },
        summary: {
          brand: type?.brand ?? 'visa',
          typeId: type?.typeId ?? 2,
          last4: digitsOnly(payment.card_number).slice(-4),
          expMonth,
          expYear,
        },
        testCard,
      },
    };
  });
}

/**
 * POST orders / PUT orders/{order_id}: validate and price on the server, then complete, start an express payment, or
 * charge. Answers the cart (order.status complete) or, for an express start, the cart with a redirect action.
 * A decline is a 402 with the gateway's words; the order stays for a retry through PUT orders/{order_id}. Every answer
 * that changes money state is stored under the request's Idempotency-Key by the transaction that makes it true.
 */
export async function submitOrder(deps: OrderDependencies, request: OrderRequest): Promise<OrderResponse> {
  const plan = await prepare(deps, request);
  if (plan.kind === 'refused') throw plan.error;
  if (plan.kind === 'completed') return plan.answer;
  if (plan.kind === 'express_start') return startExpress(deps, plan, request);
  return charge(deps, plan, request);
}
