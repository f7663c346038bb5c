// A prepaid plan's later cycles (docs/subscriptions.md, "Prepaid plans"): each is a $0 fulfilment order of its own,
// completed through the same completion path as any order so the merchant's systems hear order.completed.
import type { Queryable } from '../../platform/db/database.js';
import { newCartToken } from '../../platform/security/secrets.js';
import { insertCart } from '../carts/carts-repository.js';
import { loadCartSnapshot } from '../carts/cart-snapshot-repository.js';
import { findCustomer } from '../carts/customers-repository.js';
import { attemptValues, completeOrder } from '../orders/order-completion.js';
import {
  findOrder,
  findOrderLines,
  insertOrder,
  markFulfilmentOrder,
  type OrderRow,
} from '../orders/orders-repository.js';
import { findOrganizationById } from '../organizations/organizations-repository.js';
import { advancePrepaidCycle, type DueSubscriptionRow } from './subscriptions-repository.js';

/**
 * Fulfils `cycle` of a claimed prepaid subscription in the caller's transaction: moves it past that cycle (only if
 * nobody did: the unique (subscription, cycle) of fulfilment orders backs this up), then makes and completes the $0
 * order. Null when another run had fulfilled it already.
 */
export async function fulfilPrepaidCycle(
  tx: Queryable,
  subscription: DueSubscriptionRow,
  step: { cycle: number; endsPlan: boolean },
  schedule: { nextChargeAt: Date; now: Date },
): Promise<OrderRow | null> {
  const { organization_id: organizationId, now } = { ...subscription, ...schedule };
  const moved = await advancePrepaidCycle(tx, {
    organizationId,
    subscriptionId: subscription.id,
    cycle: step.cycle,
    nextChargeAt: schedule.nextChargeAt,
    ends: step.endsPlan,
    now,
  });
  if (!moved) return null;
  // One after the other: a transaction's client runs one query at a time.
  const organization = await findOrganizationById(tx, organizationId);
  const first = await findOrder(tx, organizationId, subscription.order_id);
  const customer = await findCustomer(tx, organizationId, subscription.customer_id);
  const lines = await findOrderLines(tx, organizationId, subscription.order_id);
  const paidLine = lines.find((line) => line.id === subscription.order_line_id);
  if (!organization || !first || !customer || !paidLine) {
    throw new Error(`subscription ${subscription.id} lost its first order`);
  }
  // The line at price 0, as a gift claim's is: the period was paid with the first order (or its renewal).
  const cart = await insertCart(
    tx,
    organizationId,
    {
      token: newCartToken(),
      source: 'prepaid_fulfilment',
      customerId: customer.id,
      isTest: first.is_test,
      now,
    },
    [{ offer_id: subscription.offer_id, quantity: subscription.quantity, is_gift: false, price_override: 0 }],
  );
  const state = await loadCartSnapshot(tx, organizationId, { id: cart.id });
  const cartLine = state?.lines[0];
  if (!cartLine) throw new Error(`fulfilment cart ${cart.id} vanished`);
  const customerValues = {
    email: customer.email,
    phone: customer.phone,
    first_name: customer.first_name,
    last_name: customer.last_name,
    same_address: customer.same_address,
    email_opt_in: customer.email_opt_in,
  };
  const order = await insertOrder(
    tx,
    organizationId,
    { cartId: cart.id, customerId: customer.id, values: customerValues, addresses: [] },
    {
      status: 'pending',
      is_test: first.is_test,
      currency: first.currency,
      subtotal: 0,
      total_discount: 0,
      total_offer_shipping: 0,
      total_campaign_shipping: 0,
      total_tax: 0,
      total_gift_cards: 0,
      total: 0,
      discount_code_id: null,
      discount_code: null,
      shipping_profile_id: first.shipping_profile_id,
      email: first.email,
      phone: first.phone,
      same_address: first.same_address,
      shipping_address: first.shipping_address,
      billing_address: first.billing_address,
      subscription_terms_accepted: false,
      subscription_terms_accepted_at: null,
      subscription_terms_ip: null,
      subscription_terms_version: null,
      subscription_terms_language: null,
      email_opt_in: first.email_opt_in,
      ip_address: null,
    },
    [
      {
        cart_offer_id: cartLine.id,
        offer_id: subscription.offer_id,
        item_name: paidLine.item_name,
        quantity: subscription.quantity,
        unit_price: 0,
        subtotal: 0,
        discount: 0,
        shipping: 0,
        tax: 0,
        total: 0,
        is_gift: false,
        is_bump: false,
        // A fulfilment starts no subscription of its own.
        is_recurring: false,
        billing_interval_days: null,
        next_cycle_total: null,
        billing_plan: null,
        subscribe_and_save_percent: null,
        subscribe_and_save_once_price: null,
      },
    ],
    {},
    now,
  );
  const of = { subscriptionId: subscription.id, orderId: first.id, cycle: step.cycle };
  await markFulfilmentOrder(tx, organizationId, order.id, of);
  const completed = await completeOrder(tx, organization, order, {
    attempt: attemptValues({
      orderId: order.id,
      cartId: cart.id,
      method: 'none',
      gateway: 'none',
      status: 'approved',
      amount: 0,
      currency: first.currency,
      isTest: first.is_test,
      ip: null,
    }),
    paymentMethodId: null,
    giftClaimId: null,
    now,
  });
  return completed.order;
}
