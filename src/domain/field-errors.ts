/** Field name → what the shopper should do to fix it. Empty when every field is fine. */
export type FieldErrors = Record<string, string>;

export function hasFieldErrors(errors: FieldErrors): boolean {
  return Object.keys(errors).length > 0;
}

/** Keys a group of errors like the form names its fields: "ship_" + "zipcode", "gift_name" + "_7". */
export function renameFieldErrors(errors: FieldErrors, rename: (name: string) => string): FieldErrors {
  const out: FieldErrors = {};
  for (const [name, message] of Object.entries(errors)) out[rename(name)] = message;
  return out;
}
