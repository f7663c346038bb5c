import { CartOfferSchema, CartSchema, type Cart, type CartOffer } from '../../contract/cart.js';
import { DEFAULT_SECTIONS } from '../../contract/organization.js';
import { PageConfigSchema, type PageConfig } from '../../contract/page-config.js';

/** Test data for component tests, parsed by the contract's schemas so it stays true to the API. */

export function pageConfigFixture(overrides: Partial<PageConfig> = {}): PageConfig {
  return PageConfigSchema.parse({
    organization: 'demo',
    organization_name: 'Northwind Coffee Roasters',
    logo_url: null,
    currency: 'USD',
    money_format: null,
    client_options: {
      cart: { editable: { value: true, override: null } },
      testCards: ['4242424242424242'],
      subscriptionTermsCheckbox: { display: true, autoChecked: false },
      emailOptInCheckbox: { display: true, autoChecked: false },
    },
    sections: DEFAULT_SECTIONS,
    subscription_terms: { text: 'I agree to be charged every cycle until I cancel.', version: '2026-11-01' },
    legal: { terms_url: 'https://example.com/terms', privacy_url: null, refund_policy_url: null },
    api_base: '/checkout/api',
    test_mode: false,
    error_reporting_dsn: null,
    card_processor: { name: 'test', origin: 'https://cards.example.test' },
    language: 'en',
    languages: ['en'],
    ...overrides,
  });
}

let nextLineId = 100;

export function offerFixture(overrides: Partial<CartOffer> = {}): CartOffer {
  const id = overrides.id ?? overrides.order_offer_id ?? nextLineId++;
  const base = {
    id,
    order_offer_id: id,
    offer_id: 1,
    offer_name: 'Single-origin beans',
    offer_title: 'Ethiopia Yirgacheffe',
    item_id: 'BEANS-ETH-340',
    item_name: 'Ethiopia Yirgacheffe coffee beans',
    item_image: '/checkout/images/coffee-beans.svg',
    item_category: 'Coffee',
    items_option_variation_name: '',
    order_offer_item_options: [
      { name: 'Size', value: '340 g' },
      { name: 'Grind', value: 'Whole bean' },
    ],
    override_initial_item_id: null,
    override_initial_item_name: null,
    order_offer_quantity: 1,
    item_price: 18,
    order_offer_price: 18,
    subtotal_offer: 18,
    discount: 0,
    discount_code: null,
    shipping: 0,
    tax: 0,
    total: 18,
    is_taxable: true,
    is_giftable: false,
    is_gift: false,
    is_bump: false,
    gift_name: '',
    gift_email: '',
    gift_date: null,
    gift_message: '',
    gift_phone: '',
    order_offer_notes: '',
    is_recurring: false,
    billing_interval_days: null,
    next_price: null,
    next_cycle_total: null,
    billing_plan: null,
    subscribe_and_save: null,
    subscribed: false,
  };
  return CartOfferSchema.parse({ ...base, ...overrides });
}

export function subscriptionOfferFixture(overrides: Partial<CartOffer> = {}): CartOffer {
  return offerFixture({
    offer_id: 2,
    offer_name: 'Coffee club',
    offer_title: 'Two bags every month',
    item_id: 'CLUB-2',
    item_name: 'Coffee club subscription',
    item_image: '/checkout/images/coffee-club.svg',
    order_offer_item_options: [{ name: 'Bags', value: '2 × 340 g' }],
    override_initial_item_name: 'Coffee club starter kit',
    item_price: 29,
    order_offer_price: 29,
    subtotal_offer: 29,
    total: 29,
    is_recurring: true,
    billing_interval_days: 30,
    next_price: 25,
    next_cycle_total: 25,
    billing_plan: {
      phases: [
        { cycles: 1, amount: 29, interval_days: 30 },
        { cycles: null, amount: 25, interval_days: 30 },
      ],
      total_cycles: null,
      has_special_cycles: false,
      description: '$29.00 today, then $25.00 every 30 days',
      prepaid: null,
    },
    is_giftable: true,
    ...overrides,
  });
}

/** A customer the store knows nothing about: every field empty, the same-address box at its default. */
export const EMPTY_CUSTOMER: Cart['customer'] = {
  email: '',
  phone: '',
  same_address: true,
  ship_fname: '',
  ship_lname: '',
  ship_address1: '',
  ship_address2: '',
  ship_city: '',
  ship_state: '',
  ship_zipcode: '',
  ship_country: '',
  bill_fname: '',
  bill_lname: '',
  bill_address1: '',
  bill_address2: '',
  bill_city: '',
  bill_state: '',
  bill_zipcode: '',
  bill_country: '',
};

export function cartFixture(
  overrides: Partial<Omit<Cart, 'order'>> & { order?: Partial<Cart['order']> } = {},
): Cart {
  const offers = overrides.offers ?? [offerFixture({ id: 11 })];
  const subtotal = offers.reduce((sum, offer) => sum + offer.subtotal_offer, 0);
  const { order, ...rest } = overrides;
  return CartSchema.parse({
    cart_token: 'Ab3dEf6hIj9kLm2nOp5qRs8t',
    order: {
      order_id: null,
      status: 'open',
      shipping_profile_id: '',
      shipping_profiles: [],
      is_recurring: offers.some((offer) => offer.is_recurring),
      shipping_information_required: true,
      is_test: false,
      is_gift_claim: false,
      gift_from: null,
      completed_at: null,
      subscriptions: [],
      ...order,
    },
    offers,
    customer: EMPTY_CUSTOMER,
    discount_code: null,
    subtotal,
    subtotal_items: subtotal,
    total: subtotal,
    total_discount: 0,
    total_gift_cards: 0,
    total_items: offers.reduce((sum, offer) => sum + offer.order_offer_quantity, 0),
    total_tax: 0,
    total_campaign_shipping: 0,
    total_offer_shipping: 0,
    currency_value: 'USD',
    payment_method_id: null,
    preview: null,
    editable: true,
    bumps: [],
    ...rest,
  });
}

export const US_PROFILES: Cart['order']['shipping_profiles'] = [
  { shipping_profile_id: '1', name: 'Standard (3-5 days)', price: 5, free_over: 50 },
  { shipping_profile_id: '2', name: 'Express (1-2 days)', price: 15, free_over: null },
];

export const FILLED_CUSTOMER: Cart['customer'] = {
  ...EMPTY_CUSTOMER,
  email: 'ada@example.com',
  ship_fname: 'Ada',
  ship_lname: 'Lovelace',
  ship_address1: '1 Main St',
  ship_city: 'Austin',
  ship_state: 'TX',
  ship_zipcode: '73301',
  ship_country: 'US',
};
