// The order an accepted upsell makes: a cart of its own with the offer's line, priced and written as any order.
import { termsShownFor } from '../organizations/localized-settings.js';
import type { Queryable } from '../../platform/db/database.js';
import { newCartToken } from '../../platform/security/secrets.js';
import { priceCartState } from '../carts/cart-pricing.js';
import { insertCart } from '../carts/carts-repository.js';
import { loadCartSnapshot } from '../carts/cart-snapshot-repository.js';
import { orderAmounts, orderLines, termsAcceptance } from '../orders/order-decisions.js';
import { insertOrder, type OrderRow } from '../orders/orders-repository.js';
import { findPaymentAttempts } from '../orders/payment-attempts-repository.js';
import type { ShopperContext } from '../organizations/request-context.js';
import { pricingAddressOf, type Opened } from './upsell-presenter.js';
import {
  linkUpsellOrder,
  setParentOrder,
  type StoredMethodRow,
  type UpsellStepRow,
} from './upsells-repository.js';

/** The step's order: a cart of its own with the offer's line, priced as any order, for the first order's customer. */
export async function createLinkedOrder(
  tx: Queryable,
  opened: Opened,
  step: UpsellStepRow,
  request: { shopper: ShopperContext; now: Date },
  leaseUntil: Date,
): Promise<OrderRow> {
  const { organization, order } = opened;
  const { now, shopper } = request;
  const customer = opened.cart.customer;
  if (order.customer_id === null || !customer) throw new Error(`order ${order.id} has no customer`);
  const cart = await insertCart(
    tx,
    organization.id,
    { token: newCartToken(), source: 'upsell', customerId: order.customer_id, isTest: order.is_test, now },
    [{ offer_id: step.offer_id, quantity: 1, is_gift: false }],
  );
  const state = await loadCartSnapshot(tx, organization.id, { id: cart.id });
  if (!state) throw new Error(`upsell cart ${cart.id} vanished`);
  const pricing = await priceCartState(tx, state, {
    address: pricingAddressOf(order),
    requestedProfileId: order.shipping_profile_id,
    now,
  });
  const recurring = state.lines.some((line) => line.is_recurring);
  const linked = await insertOrder(
    tx,
    organization.id,
    {
      cartId: cart.id,
      customerId: order.customer_id,
      values: {
        email: customer.email,
        phone: customer.phone,
        first_name: customer.first_name,
        last_name: customer.last_name,
        same_address: customer.same_address,
        email_opt_in: customer.email_opt_in,
      },
      addresses: [],
    },
    {
      status: 'pending',
      is_test: order.is_test,
      currency: organization.currency,
      ...orderAmounts(pricing, null),
      email: order.email,
      phone: order.phone,
      same_address: order.same_address,
      shipping_address: order.shipping_address,
      billing_address: order.billing_address,
      // The offer's page shows a recurring offer's later charges beside its "Yes": the yes accepts them.
      ...termsAcceptance({
        displayed: recurring,
        accepted: recurring,
        ...termsShownFor(state),
        ip: shopper.clientIp,
        now,
      }),
      email_opt_in: order.email_opt_in,
      ip_address: shopper.clientIp,
    },
    orderLines(state.lines, pricing.result.lines),
    { paymentLeaseUntil: leaseUntil },
    now,
  );
  await setParentOrder(tx, organization.id, linked.id, order.id);
  await linkUpsellOrder(tx, organization.id, step.id, linked.id);
  return { ...linked, parent_order_id: order.id };
}

/**
 * The processor's reference of the payment a step's linked order waits on the bank for, or null when there is none to
 * ask about (its last attempt ended, or it was made with another processor than the card's).
 */
export async function waitingPayment(
  tx: Queryable,
  organizationId: number,
  linkedOrderId: number,
  method: StoredMethodRow,
): Promise<string | null> {
  const last = (await findPaymentAttempts(tx, organizationId, linkedOrderId)).at(-1);
  if (last?.status !== 'requires_action' || !last.gateway_reference) return null;
  return last.gateway === method.gateway ? last.gateway_reference : null;
}
