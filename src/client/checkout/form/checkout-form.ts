import { ADDRESS_FIELDS } from '../../../contract/address-fields.js';
import type { Cart } from '../../../contract/cart.js';
import type { FieldErrors } from '../../../domain/field-errors.js';
import { isoDate } from '../../../domain/gift-validation.js';
import { initialSameAddress } from '../../../domain/same-address.js';

export const GIFT_FIELDS = [
  'gift_name',
  'gift_email',
  'gift_date',
  'gift_message',
  'gift_phone',
  'order_offer_notes',
] as const;
export type GiftField = (typeof GIFT_FIELDS)[number];

export const giftFieldName = (field: GiftField, orderOfferId: number) => `${field}_${orderOfferId}`;

export interface CheckoutForm {
  /**
   * every text field by its form name: email, ship_zipcode, gift_name_12… Never a card's: those are typed into the
   * processor's frame, which the page cannot read (docs/payments.md).
   */
  text: Record<string, string>;
  sameAddress: boolean;
  /** messages shown under fields */
  errors: FieldErrors;
}

export type FormAction =
  | { type: 'set'; name: string; value: string }
  | { type: 'setMany'; values: Record<string, string> }
  | { type: 'setSameAddress'; value: boolean }
  /** replaces the errors of the named fields (those without an error are cleared) */
  | { type: 'setErrors'; names: readonly string[]; errors: FieldErrors }
  /** a field's check on blur, applied only while it still holds the value checked (it may arrive late) */
  | { type: 'setCheckedError'; name: string; value: string; error: string | undefined };

export function formReducer(form: CheckoutForm, action: FormAction): CheckoutForm {
  switch (action.type) {
    case 'set':
      if (form.text[action.name] === action.value) return form;
      return { ...form, text: { ...form.text, [action.name]: action.value } };
    case 'setMany':
      return { ...form, text: { ...form.text, ...action.values } };
    case 'setSameAddress':
      return { ...form, sameAddress: action.value };
    case 'setErrors': {
      const errors = { ...form.errors };
      for (const name of action.names) delete errors[name];
      for (const [name, message] of Object.entries(action.errors)) {
        if (action.names.includes(name)) errors[name] = message;
      }
      return { ...form, errors };
    }
    case 'setCheckedError': {
      if ((form.text[action.name] ?? '') !== action.value || form.errors[action.name] === action.error)
        return form;
      const errors = { ...form.errors };
      if (action.error) errors[action.name] = action.error;
      else delete errors[action.name];
      return { ...form, errors };
    }
  }
}

/** Where a shopper in a country is most likely to be, from the store's currency; "" lets them choose. */
export function defaultCountryFor(currency: string): string {
  const byCurrency: Record<string, string> = {
    USD: 'US',
    CAD: 'CA',
    GBP: 'GB',
    AUD: 'AU',
    NZD: 'NZ',
    MXN: 'MX',
  };
  return byCurrency[currency] ?? '';
}

export interface StoredForm {
  text: Record<string, string>;
  sameAddress: boolean;
}

/** What is kept in session storage: everything the shopper typed on the page (card data never is: it is the frame's). */
export function persistableForm(form: CheckoutForm): StoredForm {
  return { text: { ...form.text }, sameAddress: form.sameAddress };
}

/** The form for a cart: what the cart already knows, then what this tab stored. */
export function initialForm(cart: Cart, stored: StoredForm | null, now: Date): CheckoutForm {
  const customer = cart.customer;
  const country = defaultCountryFor(cart.currency_value);
  const text: Record<string, string> = { email: customer.email, phone: customer.phone };
  for (const field of ADDRESS_FIELDS) {
    text[`ship_${field}`] = customer[`ship_${field}`];
    text[`bill_${field}`] = customer[`bill_${field}`];
  }
  text.ship_country ||= country;
  text.bill_country ||= country;
  text.shipping_profile_id = cart.order.shipping_profile_id;
  for (const offer of cart.offers) {
    if (!offer.is_gift) continue;
    const id = offer.order_offer_id;
    text[giftFieldName('gift_name', id)] = offer.gift_name;
    text[giftFieldName('gift_email', id)] = offer.gift_email;
    text[giftFieldName('gift_date', id)] = offer.gift_date ?? isoDate(now);
    text[giftFieldName('gift_message', id)] = offer.gift_message;
    text[giftFieldName('gift_phone', id)] = offer.gift_phone;
    text[giftFieldName('order_offer_notes', id)] = offer.order_offer_notes;
  }
  const safeStored = stored ? persistableForm({ ...stored, errors: {} }) : null;
  return {
    text: { ...text, ...(safeStored?.text ?? {}) },
    sameAddress: safeStored?.sameAddress ?? initialSameAddress(customer),
    errors: {},
  };
}

const storageKey = (token: string) => `secure-checkout:${token}`;

export function readStoredForm(storage: Storage | null, token: string): StoredForm | null {
  try {
    const raw = storage?.getItem(storageKey(token));
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<StoredForm>;
    if (!value || typeof value !== 'object' || typeof value.text !== 'object' || value.text === null)
      return null;
    const text: Record<string, string> = {};
    for (const [name, item] of Object.entries(value.text)) if (typeof item === 'string') text[name] = item;
    return { text, sameAddress: value.sameAddress !== false };
  } catch {
    return null;
  }
}

export function writeStoredForm(storage: Storage | null, token: string, form: CheckoutForm): void {
  try {
    storage?.setItem(storageKey(token), JSON.stringify(persistableForm(form)));
  } catch {
    // Storage full or disabled (private mode): the form still works, it just is not kept across reloads.
  }
}

export function clearStoredForm(storage: Storage | null, token: string): void {
  try {
    storage?.removeItem(storageKey(token));
  } catch {
    // nothing to clear
  }
}

/** Session storage when the browser allows it. */
export function sessionStore(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}
