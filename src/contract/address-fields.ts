// Apart from the schemas (no zod here), so the page can use the list without loading them.
export const ADDRESS_FIELDS = [
  'fname',
  'lname',
  'address1',
  'address2',
  'city',
  'state',
  'zipcode',
  'country',
] as const;
export type AddressField = (typeof ADDRESS_FIELDS)[number];
