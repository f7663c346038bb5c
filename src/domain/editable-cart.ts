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

/** An order offer's quantity when none is given. */
export const DEFAULT_ORDER_OFFER_QUANTITY = 1;

/** Test cards come from the client options only when that list is non-empty. */
export function testCardsFrom(list: readonly string[] | null | undefined): readonly string[] {
  return list && list.length > 0 ? list : [];
}
