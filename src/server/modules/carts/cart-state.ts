import type { CartLineRow } from './carts-repository.js';
import type { CartSnapshot } from './cart-snapshot-repository.js';

/** Everything the server knows about one cart, read in one statement per request (loadCartSnapshot). */
export type CartState = CartSnapshot;

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
