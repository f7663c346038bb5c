import type { SectionType } from '../../contract/organization.js';
import type { MessageKey } from '../../i18n/message-keys.js';

/**
 * Each section's heading on the checkout page, in the page's language (docs/languages.md); the dashboard's section
 * order names the sections by the same keys, in English.
 */
export const SECTION_TITLE_KEYS = {
  ContactInformation: 'checkout.section.contact',
  ShippingAddress: 'checkout.section.shipping',
  BillingAddress: 'checkout.section.billing',
  GiftInformation: 'checkout.section.gifts',
  PaymentInformation: 'checkout.section.payment',
} as const satisfies Record<SectionType, MessageKey>;

/** "Continue to …" for the section that comes next: one whole message per target, nothing joined. */
export const CONTINUE_KEYS = {
  ContactInformation: 'checkout.continue.contact',
  ShippingAddress: 'checkout.continue.shipping',
  BillingAddress: 'checkout.continue.billing',
  GiftInformation: 'checkout.continue.gifts',
  PaymentInformation: 'checkout.continue.payment',
} as const satisfies Record<SectionType, MessageKey>;

/** "Change …" on a finished section. */
export const CHANGE_KEYS = {
  ContactInformation: 'checkout.change.contact',
  ShippingAddress: 'checkout.change.shipping',
  BillingAddress: 'checkout.change.billing',
  GiftInformation: 'checkout.change.gifts',
  PaymentInformation: 'checkout.change.payment',
} as const satisfies Record<SectionType, MessageKey>;

/** "Back to …" on the open section, naming the one before it. */
export const BACK_KEYS = {
  ContactInformation: 'checkout.back.contact',
  ShippingAddress: 'checkout.back.shipping',
  BillingAddress: 'checkout.back.billing',
  GiftInformation: 'checkout.back.gifts',
  PaymentInformation: 'checkout.back.payment',
} as const satisfies Record<SectionType, MessageKey>;
