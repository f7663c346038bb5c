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
  authenticate: '4000002760003184',
} as const;

/** What the shopper types into the test processor's framed fields (POST /v1/tokens at its origin). */
export interface TypedCard {
  number: string;
  cvv: string;
  exp_month: number;
  exp_year: number;
  test_cards: string[];
}

const TYPED = Symbol('typed into the processor frame');

/**
 * A card payment as the page sends it once the processor's frame has made a token of what the shopper typed there: the
 * shopper helpers (shopper.ts) make the token at the test processor, once per card, and send only
 * { method: 'card', card_token }. Sent any other way it carries no card at all.
 */
export function card(number: string, overrides: Partial<TypedCard> = {}) {
  const typed: TypedCard = {
    number,
    cvv: number.startsWith('37') ? '1234' : '123',
    exp_month: 12,
    exp_year: 2030,
    test_cards: [],
    ...overrides,
  };
  return { method: 'card' as const, [TYPED]: { typed, token: null as Promise<string> | null } };
}

/** The body with its typed card (card() above) replaced by the token the processor made of it. */
export async function withCardToken(
  body: unknown,
  tokenize: (typed: TypedCard) => Promise<string>,
): Promise<unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const payment = (body as { payment?: unknown }).payment as
    { [TYPED]?: { typed: TypedCard; token: Promise<string> | null } } | undefined;
  const entry = payment?.[TYPED];
  if (!entry) return body;
  // One token per card typed: the same body sent again (an Idempotency-Key replay) is the same request.
  entry.token ??= tokenize(entry.typed);
  return { ...body, payment: { method: 'card', card_token: await entry.token } };
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
