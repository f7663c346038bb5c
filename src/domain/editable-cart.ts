/** cart.editable client option: the override, when set, wins over the value. */
export interface EditableOption {
  value: boolean;
  override: boolean | null;
}

/** Whether the shopper may change quantities; false until the option is known. */
export function isCartEditable(option: EditableOption | null | undefined): boolean {
  if (!option) return false;
  return option.override ?? option.value;
}

/** What decides whether a cart's lines may change now. */
export interface CartItemFacts {
  editable: EditableOption | null | undefined;
  isGiftClaim: boolean;
  /** the cart's order, null before the first attempt */
  orderStatus: 'pending' | 'declined' | 'awaiting_payment' | 'complete' | null;
}

/**
 * Whether the shopper may change the cart's lines (quantities, removal): the store allows it, the cart is not a gift
 * claim, and its order is not paid nor handed to an express payment. An attempt that was declined or failed leaves
 * the order open: the next attempt prices the lines as they are then (docs/api.md, Orders).
 */
export function canChangeCartItems(facts: CartItemFacts): boolean {
  if (!isCartEditable(facts.editable) || facts.isGiftClaim) return false;
  return facts.orderStatus === null || facts.orderStatus === 'pending' || facts.orderStatus === 'declined';
}

/** A line may be removed only while another one stays: a cart never becomes empty. */
export function canRemoveCartLine(lineCount: number): boolean {
  return lineCount > 1;
}

/** The most of one line a cart holds. */
export const MAX_LINE_QUANTITY = 99;

/** A quantity the quantity route takes: 1-99, or 0 to remove the line. */
export function isLineQuantityAllowed(quantity: number): boolean {
  return Number.isInteger(quantity) && quantity >= 0 && quantity <= MAX_LINE_QUANTITY;
}

/** An order offer's quantity when none is given. */
export const DEFAULT_ORDER_OFFER_QUANTITY = 1;

/** Test cards come from the client options only when that list is non-empty. */
export function testCardsFrom(list: readonly string[] | null | undefined): readonly string[] {
  return list && list.length > 0 ? list : [];
}
