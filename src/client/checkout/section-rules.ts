import { ADDRESS_FIELDS, type AddressField } from '../../contract/address-fields.js';
import type { Cart } from '../../contract/cart.js';
import type { SectionType } from '../../contract/organization.js';
import { addressProblems, formatFromRecord } from '../../domain/address/address-format.js';
import { checkEmail, checkPhone, type AddressInput } from '../../domain/checkout-fields.js';
import {
  renameFieldErrors,
  sayFieldMessage,
  sayFieldMessages,
  type FieldErrors,
} from '../../domain/field-errors.js';
import { isoDate, validateGift } from '../../domain/gift-validation.js';
import type { CheckboxState } from '../../domain/process-order-state.js';
import type { Translate } from '../i18n/use-t.js';
import { GIFT_FIELDS, giftFieldName, type CheckoutForm } from './form/checkout-form.js';
import { loadedAddressData } from './shipping/address-data-chunk.js';

/** Address fields in the order the form shows them: country first (it decides states and postal format). */
export const ADDRESS_FIELD_ORDER = [
  'country',
  'fname',
  'lname',
  'address1',
  'address2',
  'city',
  'state',
  'zipcode',
] as const satisfies readonly AddressField[];

/**
 * The one field the page has for the processor's framed card fields: number, expiry and security code are the
 * frame's, out of the page's reach (docs/checkout-rules.md#card-fields).
 */
export const CARD_FIELD = 'card_details';

export interface SectionContext {
  form: CheckoutForm;
  cart: Cart;
  now: Date;
  expressPaymentTokenId: string | null;
  subscriptionTerms: CheckboxState;
  /** says the rules' messages in the page's language */
  t: Translate;
}

export function giftOffers(cart: Cart) {
  return cart.offers.filter((offer) => offer.is_gift);
}

/** The fields a section owns, in display order (error summaries list them in this order). */
export function sectionFields(component: SectionType, cart: Cart): string[] {
  switch (component) {
    case 'ContactInformation':
      return ['email', 'phone'];
    case 'ShippingAddress':
      return [...ADDRESS_FIELD_ORDER.map((field) => `ship_${field}`), 'shipping_profile_id'];
    case 'BillingAddress':
      return ADDRESS_FIELD_ORDER.map((field) => `bill_${field}`);
    case 'GiftInformation':
      return giftOffers(cart).flatMap((offer) =>
        GIFT_FIELDS.map((field) => giftFieldName(field, offer.order_offer_id)),
      );
    case 'PaymentInformation':
      return [CARD_FIELD, 'subscription_terms'];
  }
}

function addressOf(form: CheckoutForm, prefix: 'ship' | 'bill'): AddressInput {
  return Object.fromEntries(
    ADDRESS_FIELDS.map((field) => [field, form.text[`${prefix}_${field}`] ?? '']),
  ) as Record<AddressField, string>;
}

/**
 * An address's errors by its country's rules (src/domain/address, the server's own), keyed as the form names its
 * fields. Until the address data has loaded (the form loads it when it shows) only what every address needs is checked.
 */
function checkAddress(address: AddressInput, prefix: 'ship' | 'bill', context: SectionContext): FieldErrors {
  const data = loadedAddressData();
  const problems = data
    ? data.validateAddress(address)
    : addressProblems(address, formatFromRecord(address.country ?? '', {}, {}));
  if (!data && (address.country ?? '').trim() === '')
    problems.country = { key: 'address.error.country_required' };
  const errors: FieldErrors = {};
  for (const [field, message] of Object.entries(problems))
    errors[`${prefix}_${field}`] = context.t(message.key, message.values);
  return errors;
}

/**
 * Every error of a section's fields; empty when the section is complete. The rules are the server's own
 * (src/domain/checkout-fields.ts), so the page and the order answer say the same thing. The card fields are checked
 * by the payment step (payment-rules.ts) from what the processor's frame reports.
 */
export function validateSection(component: SectionType, context: SectionContext): FieldErrors {
  const { form, cart, t } = context;
  const text = (name: string) => form.text[name] ?? '';
  switch (component) {
    case 'ContactInformation': {
      const errors: FieldErrors = {};
      const email = checkEmail(text('email'));
      if (email) errors.email = sayFieldMessage(email, t);
      const phone = checkPhone(text('phone'));
      if (phone) errors.phone = sayFieldMessage(phone, t);
      return errors;
    }
    case 'ShippingAddress': {
      const errors = checkAddress(addressOf(form, 'ship'), 'ship', context);
      const profiles = cart.order.shipping_profiles;
      if (
        profiles.length > 0 &&
        !profiles.some((p) => p.shipping_profile_id === text('shipping_profile_id'))
      ) {
        errors.shipping_profile_id = t('fields.shipping_method_required');
      }
      return errors;
    }
    case 'BillingAddress':
      return checkAddress(addressOf(form, 'bill'), 'bill', context);
    case 'GiftInformation': {
      const today = isoDate(context.now);
      const errors: FieldErrors = {};
      for (const offer of giftOffers(cart)) {
        const id = offer.order_offer_id;
        const values = Object.fromEntries(
          GIFT_FIELDS.map((field) => [field, text(giftFieldName(field, id))]),
        );
        Object.assign(
          errors,
          renameFieldErrors(
            sayFieldMessages(validateGift(values as Record<(typeof GIFT_FIELDS)[number], string>, today), t),
            (name) => giftFieldName(name as (typeof GIFT_FIELDS)[number], id),
          ),
        );
      }
      return errors;
    }
    case 'PaymentInformation': {
      const errors: FieldErrors = {};
      if (context.subscriptionTerms.display && !context.subscriptionTerms.value) {
        errors.subscription_terms = t('fields.subscription_terms_required');
      }
      return errors;
    }
  }
}

/** Orders the errors of a section as its fields appear. */
export function orderedErrors(component: SectionType, cart: Cart, errors: FieldErrors): [string, string][] {
  const order = sectionFields(component, cart);
  return Object.entries(errors)
    .filter(([name]) => order.includes(name))
    .sort(([a], [b]) => order.indexOf(a) - order.indexOf(b));
}

/** The form field a 422 answer's body path points at (payment.card_token → the card fields). */
export function formFieldOfOrderPath(path: string): string {
  if (path === 'payment' || path.startsWith('payment.card') || path === 'payment.authenticated_payment') {
    return CARD_FIELD;
  }
  if (path === 'subscription_terms_accepted') return 'subscription_terms';
  return path;
}

/** Which section shows a field. */
export function sectionOfField(name: string): SectionType | null {
  if (name === 'email' || name === 'phone') return 'ContactInformation';
  if (name.startsWith('ship_') || name === 'shipping_profile_id') return 'ShippingAddress';
  if (name.startsWith('bill_')) return 'BillingAddress';
  if (/^(gift_(name|email|date|message|phone)|order_offer_notes)_\d+$/.test(name)) return 'GiftInformation';
  if (name.startsWith('card_') || name === 'subscription_terms' || name.startsWith('payment')) {
    return 'PaymentInformation';
  }
  return null;
}

/** Whether the cart already holds the gift details the form shows (nothing to save). */
export function giftsMatchCart(cart: Cart, text: Record<string, string>): boolean {
  return giftOffers(cart).every((offer) => {
    const id = offer.order_offer_id;
    const value = (field: (typeof GIFT_FIELDS)[number]) => (text[giftFieldName(field, id)] ?? '').trim();
    return (
      value('gift_name') === offer.gift_name &&
      value('gift_email') === offer.gift_email &&
      value('gift_date') === (offer.gift_date ?? '') &&
      value('gift_message') === offer.gift_message &&
      value('gift_phone') === offer.gift_phone &&
      value('order_offer_notes') === offer.order_offer_notes
    );
  });
}
