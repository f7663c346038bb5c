import type { Queryable } from '../db/database.js';
import { findCartLines, type CartLineRow, type CartRow } from '../repositories/carts-repository.js';
import {
  findAddresses,
  findCustomer,
  type AddressRow,
  type CustomerRow,
} from '../repositories/customers-repository.js';
import { findDiscountCode, type DiscountCodeRow } from '../repositories/discount-codes-repository.js';
import { findOrderByCart, type OrderRow } from '../repositories/orders-repository.js';
import type { OrganizationRow } from '../repositories/organizations-repository.js';

/** Everything the server knows about one cart, read once per request. */
export interface CartState {
  organization: OrganizationRow;
  cart: CartRow;
  lines: CartLineRow[];
  discountCode: DiscountCodeRow | null;
  customer: CustomerRow | null;
  addresses: AddressRow[];
  order: OrderRow | null;
}

export async function loadCartState(
  db: Queryable,
  organization: OrganizationRow,
  cart: CartRow,
): Promise<CartState> {
  // Sequential on purpose: inside a transaction these share one connection.
  const lines = await findCartLines(db, organization.id, cart.id);
  const discountCode =
    cart.discount_code_id === null
      ? null
      : await findDiscountCode(db, organization.id, cart.discount_code_id);
  const customer =
    cart.customer_id === null ? null : await findCustomer(db, organization.id, cart.customer_id);
  const addresses = customer === null ? [] : await findAddresses(db, organization.id, customer.id);
  const order = await findOrderByCart(db, organization.id, cart.id);
  return { organization, cart, lines, discountCode, customer, addresses, order };
}

export function isGiftClaimCart(state: Pick<CartState, 'cart'>): boolean {
  return state.cart.source === 'gift_claim';
}

/** A gift ships later, to its recipient; other lines ship with this order when their offer needs shipping. */
export function shipsWithOrder(line: Pick<CartLineRow, 'requires_shipping' | 'is_gift'>): boolean {
  return line.requires_shipping && !line.is_gift;
}

export function isShippingRequired(state: Pick<CartState, 'lines'>): boolean {
  return state.lines.some(shipsWithOrder);
}

export function isRecurringCart(state: Pick<CartState, 'lines'>): boolean {
  return state.lines.some((line) => line.is_recurring);
}
