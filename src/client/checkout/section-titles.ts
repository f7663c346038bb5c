import type { SectionType } from '../../contract/organization.js';

export const SECTION_TITLES: Record<SectionType, string> = {
  ContactInformation: 'Contact',
  ShippingAddress: 'Shipping address',
  BillingAddress: 'Billing address',
  GiftInformation: 'Gift details',
  PaymentInformation: 'Payment',
};

/** What "Continue to …" says for the section that comes next. */
export const CONTINUE_TARGETS: Record<SectionType, string> = {
  ContactInformation: 'contact',
  ShippingAddress: 'shipping',
  BillingAddress: 'billing',
  GiftInformation: 'gift details',
  PaymentInformation: 'payment',
};
