/**
 * The "billing address is the same as shipping" box: true by default, or the customer's saved value. Enabling
 * data the express payer can edit (PayPal's own address) sets it to false: billing then comes from the provider.
 */
export function initialSameAddress(customer: { same_address?: boolean | null } | null | undefined): boolean {
  return customer?.same_address ?? true;
}

export function sameAddressWithExpressPayer(): false {
  return false;
}

/** What the order and the preview send: the box only means something when an address ships. */
export function effectiveSameAddress(sameAddress: boolean, shippingInformationRequired: boolean): boolean {
  return sameAddress && shippingInformationRequired;
}
