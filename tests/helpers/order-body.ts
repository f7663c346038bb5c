/** A shopper in Austin, Texas, paying by Visa: the details a complete order sends. */
export const AUSTIN = {
  email: 'ada@example.com',
  phone: '+1 555 010 0199',
  ship_fname: 'Ada',
  ship_lname: 'Lovelace',
  ship_address1: '1 Congress Ave',
  ship_address2: '',
  ship_city: 'Austin',
  ship_state: 'TX',
  ship_zipcode: '73301',
  ship_country: 'US',
  same_address: true,
} as const;

export const CARDS = {
  visa: '4111111111111111',
  mastercard: '5555555555554444',
  discover: '6011111111111117',
  amex: '378282246310005',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  gatewayError: '4000000000000119',
} as const;

export function card(number: string, overrides: Record<string, unknown> = {}) {
  return {
    method: 'card' as const,
    card_number: number,
    card_cvv: number.startsWith('37') ? '1234' : '123',
    card_exp_month: 12,
    card_exp_year: 2030,
    ...overrides,
  };
}

export function orderBody(cartToken: string, overrides: Record<string, unknown> = {}) {
  return { cart_token: cartToken, ...AUSTIN, payment: card(CARDS.visa), email_opt_in: false, ...overrides };
}

/** A billing address of its own (same_address false), as the page sends when nothing ships or the shopper says so. */
export const LONDON_BILLING = {
  same_address: false,
  bill_fname: 'Ada',
  bill_lname: 'Lovelace',
  bill_address1: '10 Downing St',
  bill_address2: '',
  bill_city: 'London',
  bill_state: '',
  bill_zipcode: 'SW1A 2AA',
  bill_country: 'GB',
} as const;

/** A gift line's recipient, as the page sends it. */
export const GIFT_RECIPIENT = {
  gift_name: 'Grace Hopper',
  gift_email: 'grace@example.com',
  gift_date: '2026-12-24',
  gift_message: 'Happy holidays!',
  gift_phone: '',
  order_offer_notes: '',
} as const;

/** What the payer fills in on the test gateway's express approval page. */
export const EXPRESS_PAYER_FORM = {
  email: 'pat@example.com',
  fname: 'Pat',
  lname: 'Payer',
  ship_address1: '500 Congress Ave',
  ship_address2: '',
  ship_city: 'Austin',
  ship_state: 'TX',
  ship_zipcode: '78701',
  ship_country: 'US',
} as const;
