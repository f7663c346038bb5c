// Saving an order as decided, in its cart's transaction: its customer, row and lines, read back as written, and the
// use of its discount code held before any money moves (docs/api.md, "Discount code uses").
import type { Queryable } from '../../platform/db/database.js';
import { refusal } from '../../platform/errors.js';
import { isDiscountCodeUsedUp } from '../../../domain/discount-rules.js';
import { saveCartCustomer } from '../carts/customers-repository.js';
import { scheduleAbandonedCheckoutReminder } from '../emails/abandoned-checkout-enqueue.js';
import { settingsOf } from '../organizations/organization-service.js';
import { releaseDiscountUse, reserveDiscountUse } from './discount-uses-repository.js';
import { orderAlreadyPlaced } from './order-completion.js';
import { codeUseOnRetry } from './order-decisions.js';
import type { OrderDecision, OrderRequest, PricedOrder, SavedOrder } from './order-plan.js';
import { withCustomer } from './order-request.js';
import { insertOrder, replaceOrderLines, updateOrder } from './orders-repository.js';

/**
 * Writes the order as decided and answers it as the database holds it. A new order is written with its customer
 * and lines by one statement, its code use held first and, when it is charged now, with its payment lease (a
 * retry's lease is taken later, once its code use is settled).
 */
export async function saveOrder(
  tx: Queryable,
  priced: PricedOrder,
  decided: OrderDecision,
  request: Pick<OrderRequest, 'now'>,
  paymentLeaseUntil: Date,
): Promise<SavedOrder> {
  const { now } = request;
  const { state } = priced;
  const organizationId = state.organization.id;
  const existing = state.order;
  if (existing) {
    const customerId = await saveCartCustomer(tx, organizationId, decided.customer, now);
    const order = await updateOrder(
      tx,
      organizationId,
      existing.id,
      { ...decided.values, customer_id: customerId },
      now,
    );
    // An earlier attempt whose lease ran out may have completed the order since the cart was read: this transaction
    // (and the customer it saved) is undone rather than the order being charged a second time.
    if (!order) throw orderAlreadyPlaced();
    await replaceOrderLines(tx, organizationId, order.id, decided.lines);
    await scheduleReminder(tx, priced, decided, now);
    return { order, customerId, cart: { ...withCustomer(state, decided.customer, customerId), order } };
  }
  const wantedCode = decided.values.discount_code_id;
  if (decided.step !== 'express_start') await holdCodeUse(tx, organizationId, decided.values);
  const order = await insertOrder(
    tx,
    organizationId,
    decided.customer,
    decided.values,
    decided.lines,
    decided.step === 'charge' ? { discountReserved: wantedCode !== null, paymentLeaseUntil } : {},
    now,
  );
  const customerId = order.customer_id;
  await scheduleReminder(tx, priced, decided, now);
  return { order, customerId, cart: { ...withCustomer(state, decided.customer, customerId), order } };
}

/**
 * The cart's abandoned-checkout reminder, scheduled with the contact and consent this attempt saves: it is sent only
 * if the order is still not placed when it is due (docs/emails.md, "Abandoned checkout").
 */
async function scheduleReminder(tx: Queryable, priced: PricedOrder, decided: OrderDecision, now: Date) {
  const { organization, cart } = priced.state;
  await scheduleAbandonedCheckoutReminder(
    tx,
    {
      organizationId: organization.id,
      setting: settingsOf(organization).abandonedCheckout,
      cartId: cart.id,
      email: decided.customer.values.email,
      emailOptIn: decided.customer.values.email_opt_in,
    },
    now,
  );
}

/**
 * A retry's code use, settled before any money moves: a use an earlier attempt still holds is kept or given back,
 * and a use of this attempt's code held (a code used up meanwhile stops the order here). A new order's was held as
 * it was saved.
 */
export async function settleCodeUse(
  tx: Queryable,
  priced: PricedOrder,
  saved: SavedOrder,
  decided: OrderDecision,
): Promise<void> {
  const previous = priced.state.order;
  if (!previous) return;
  const organizationId = priced.state.organization.id;
  const use = codeUseOnRetry({
    reserved: saved.order.discount_reserved,
    previousCode: previous.discount_code_id,
    wantedCode: decided.values.discount_code_id,
  });
  if (use.release !== null) await releaseDiscountUse(tx, organizationId, use.release);
  if (use.hold) await holdCodeUse(tx, organizationId, decided.values);
}

/** Holds one use of the order's code, if it has one; a code whose uses are all taken or held refuses the order. */
async function holdCodeUse(
  tx: Queryable,
  organizationId: number,
  values: Pick<OrderDecision['values'], 'discount_code_id' | 'discount_code'>,
): Promise<void> {
  if (values.discount_code_id === null) return;
  const hold = await reserveDiscountUse(tx, organizationId, values.discount_code_id);
  if (hold.held) return;
  const name = values.discount_code ?? '';
  if (isDiscountCodeUsedUp(hold)) {
    throw refusal(422, 'discount_code_used_up', {
      key: 'errors.discount_code_just_used_up',
      values: { code: name },
    });
  }
  // Payments in flight hold its last uses, and a declined one gives its use back: not used up, not yet (docs/api.md).
  throw refusal(
    409,
    'discount_code_held',
    { key: 'errors.discount_code_held', values: { code: name } },
    { headers: { 'retry-after': '2' } },
  );
}
