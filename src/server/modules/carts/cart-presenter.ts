import {
  PAYMENT_METHOD_IDS,
  type Cart,
  type CartOffer,
  type Customer,
  type StoredPreview,
} from '../../../contract/cart.js';
import { StoredPreviewSchema } from '../../../contract/cart.js';
import { canChangeCartItems } from '../../../domain/editable-cart.js';
import type { AddressRow } from './customers-repository.js';
import type { CartLineRow } from './carts-repository.js';
import { minor } from '../../../domain/money.js';
import { subscribedUnitPrice, subscribeTermsOf } from '../../../domain/subscribe-and-save.js';
import type { Language } from '../../../i18n/languages.js';
import { sayNotice, type CartPricing } from './cart-pricing.js';
import { isGiftClaimCart, isRecurringCart, isShippingRequired, type CartState } from './cart-state.js';
import { presentGiftFrom } from './gift-from.js';
import { presentBumps } from './cart-bumps.js';
import { iso, major, majorOrNull } from '../../platform/http/money-input.js';
import { settingsOf } from '../organizations/organization-service.js';
import { presentBillingPlan } from '../subscriptions/subscription-plan.js';
import { cartLanguageOf } from '../organizations/localized-settings.js';
import { wordsFor } from '../../i18n/translator.js';

export interface SubscriptionNotice {
  order_offer_id: number;
  item_name: string;
  amount: number;
  interval_days: number;
  next_charge_at: string;
}

export function storedPreviewOf(state: Pick<CartState, 'cart'>): StoredPreview | null {
  const parsed = StoredPreviewSchema.safeParse(state.cart.preview);
  return parsed.success ? parsed.data : null;
}

function presentCustomer(state: CartState): Customer {
  const address = (kind: AddressRow['kind']) => state.addresses.find((entry) => entry.kind === kind);
  const ship = address('shipping');
  const bill = address('billing');
  return {
    email: state.customer?.email ?? '',
    phone: state.customer?.phone ?? '',
    same_address: state.customer?.same_address ?? true,
    ship_fname: ship?.first_name ?? '',
    ship_lname: ship?.last_name ?? '',
    ship_address1: ship?.address1 ?? '',
    ship_address2: ship?.address2 ?? '',
    ship_city: ship?.city ?? '',
    ship_state: ship?.state ?? '',
    ship_zipcode: ship?.zipcode ?? '',
    ship_country: ship?.country ?? '',
    bill_fname: bill?.first_name ?? '',
    bill_lname: bill?.last_name ?? '',
    bill_address1: bill?.address1 ?? '',
    bill_address2: bill?.address2 ?? '',
    bill_city: bill?.city ?? '',
    bill_state: bill?.state ?? '',
    bill_zipcode: bill?.zipcode ?? '',
    bill_country: bill?.country ?? '',
  };
}

function presentSubscribeAndSave(line: CartLineRow, currency: string): CartOffer['subscribe_and_save'] {
  const terms = subscribeTermsOf(line);
  if (terms === null) return null;
  const once = minor(line.once_unit_price);
  return {
    interval_days: terms.intervalDays,
    percent_off: terms.percentOff,
    once_price: major(once, currency),
    subscribe_price: major(subscribedUnitPrice(once, terms.percentOff), currency),
  };
}

export function presentOffers(state: CartState, pricing: CartPricing): CartOffer[] {
  const currency = state.organization.currency;
  const money = (amount: number) => major(amount, currency);
  // A gift claim's line is paid for already: its recipient is not offered to subscribe to it.
  const claim = isGiftClaimCart(state);
  // The plans in the cart's language, as its lines' merchant text is (cart-snapshot-repository.ts): the page's.
  const words = wordsFor(cartLanguageOf(state.cart, settingsOf(state.organization)));
  return state.lines.map((line) => {
    const priced = pricing.result.lines.find((entry) => entry.id === line.id);
    const unit = line.price_override ?? line.price;
    const discount = priced?.discount ?? 0;
    return {
      id: line.id,
      order_offer_id: line.id,
      offer_id: line.offer_id,
      offer_name: line.offer_name,
      offer_title: line.offer_title,
      item_id: line.item_id,
      item_name: line.item_name,
      item_image: line.item_image,
      item_category: line.item_category,
      items_option_variation_name: line.item_options.map((option) => option.value).join(' / '),
      order_offer_item_options: line.item_options,
      override_initial_item_id: line.override_initial_item_id,
      override_initial_item_name: line.override_initial_item_name,
      order_offer_quantity: line.quantity,
      item_price: money(line.price),
      order_offer_price: money(unit),
      subtotal_offer: money(priced?.subtotal ?? unit * line.quantity),
      discount: money(discount),
      discount_code: discount > 0 ? (state.discountCode?.code ?? null) : null,
      shipping: money(priced?.shipping ?? 0),
      tax: money(priced?.tax ?? 0),
      total: money(priced?.total ?? 0),
      is_taxable: line.is_taxable,
      is_giftable: line.is_giftable,
      is_gift: line.is_gift,
      is_bump: line.is_bump,
      gift_name: line.gift_name ?? '',
      gift_email: line.gift_email ?? '',
      gift_date: line.gift_date,
      gift_message: line.gift_message ?? '',
      gift_phone: line.gift_phone ?? '',
      order_offer_notes: line.order_offer_notes ?? '',
      is_recurring: line.is_recurring,
      billing_interval_days: line.billing_interval_days,
      next_price: line.is_recurring ? money(line.next_price ?? line.price) : null,
      next_cycle_total: majorOrNull(priced?.nextCycleTotal ?? null, currency),
      billing_plan: priced?.billingPlan ? presentBillingPlan(priced.billingPlan, currency, words) : null,
      subscribe_and_save: claim ? null : presentSubscribeAndSave(line, currency),
      subscribed: line.subscribed && line.is_recurring,
    };
  });
}

/** The cart as the shopper API answers it: every amount computed on the server, in major units. */
export function presentCart(
  state: CartState,
  pricing: CartPricing,
  extras: {
    subscriptions: SubscriptionNotice[];
    paymentMethod: 'card' | 'paypal' | 'none' | null;
    /** what its notices are said in: the request's */
    language: Language;
  },
): Cart {
  const currency = state.organization.currency;
  const money = (amount: number) => major(amount, currency);
  const result = pricing.result;
  const claim = isGiftClaimCart(state);
  return {
    cart_token: state.cart.token,
    order: {
      order_id: state.order?.id ?? null,
      status: state.order?.status ?? 'open',
      shipping_profile_id: pricing.chosenProfile ? String(pricing.chosenProfile.id) : '',
      shipping_profiles: pricing.shippingOptions.map((option) => ({
        shipping_profile_id: String(option.profile.id),
        name: option.profile.name,
        price: money(option.price),
        free_over: majorOrNull(option.profile.free_over, currency),
      })),
      is_recurring: isRecurringCart(state),
      shipping_information_required: isShippingRequired(state),
      is_test: state.cart.is_test || (state.order?.is_test ?? false),
      is_gift_claim: claim,
      gift_from: presentGiftFrom(state.giftFrom),
      completed_at: iso(state.order?.completed_at ?? null),
      subscriptions: extras.subscriptions,
      // One-click offers follow a card order of a link with upsells (docs/api.md, "Upsells").
      has_upsells:
        state.hasUpsells === true &&
        state.order?.status === 'complete' &&
        state.order.payment_method_id !== null &&
        !state.order.parent_order_id,
    },
    offers: presentOffers(state, pricing),
    customer: presentCustomer(state),
    discount_code: state.discountCode?.code ?? null,
    discount_notice: pricing.discountNotice && sayNotice(pricing.discountNotice, extras.language),
    subtotal: money(result.subtotal),
    subtotal_items: money(result.subtotalItems),
    total: money(result.total),
    total_discount: money(result.totalDiscount),
    total_gift_cards: money(result.totalGiftCards),
    total_items: result.totalItems,
    total_tax: money(result.totalTax),
    total_campaign_shipping: money(result.totalCampaignShipping),
    total_offer_shipping: money(result.totalOfferShipping),
    currency_value: currency,
    payment_method_id:
      extras.paymentMethod === 'card'
        ? PAYMENT_METHOD_IDS.card
        : extras.paymentMethod === 'paypal'
          ? PAYMENT_METHOD_IDS.paypal
          : null,
    preview: storedPreviewOf(state),
    editable: canChangeCartItems({
      editable: settingsOf(state.organization).clientOptions.cart.editable,
      isGiftClaim: claim,
      orderStatus: state.order?.status ?? null,
    }),
    bumps: presentBumps(state),
  };
}
