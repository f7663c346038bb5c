/** The client option cart.editable: its override, when set, wins over its value. */
export function isCartEditable(option: { value: boolean; override: boolean | null }): boolean {
  return option.override ?? option.value;
}
