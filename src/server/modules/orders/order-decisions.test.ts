import { describe, expect, it } from 'vitest';
import type { DescribedCardToken } from './order-plan.js';
import type { PaymentAttemptRow } from './payment-attempts-repository.js';
import { minor } from '../../../domain/money.js';
import type { PricedLine, PricingResult } from '../../../domain/pricing.js';
import {
  billedAddress,
  cardPaymentProblem,
  unusableCardMessage,
  cardToCharge,
  chargeKey,
  isRetryOfUse,
  codeUseOnRetry,
  completesAlone,
  isExpressStart,
  isPaymentDue,
  isTestCard,
  isTestOrder,
  nextStep,
  orderAmounts,
  orderLines,
  savedStatus,
  statusAfterFailedPayment,
  storedAddresses,
  storesPaymentMethod,
  termsAcceptance,
} from './order-decisions.js';
import type { OrderAddress } from './orders-repository.js';
import { translatorFor } from '../../i18n/translator.js';

const visaSummary = { brand: 'visa', typeId: 2, last4: '1111', expMonth: 7, expYear: 2029 } as const;
const visa: DescribedCardToken = {
  token: 'tok_test_visa',
  description: { status: 'usable', summary: visaSummary, testCard: false },
};
const testCard: DescribedCardToken = {
  token: 'tok_test_testcard',
  description: {
    status: 'usable',
    summary: { ...visaSummary, brand: 'testcard', last4: '0000' },
    testCard: true,
  },
};
const used: DescribedCardToken = {
  token: 'tok_test_used',
  description: {
    status: 'unusable',
    reason: 'entry_used',
    message: 'This card entry was already used or has expired.',
  },
};
const pending = {
  gateway_reference: 'ch_test_pending',
  amount: 2500,
  card_brand: 'mastercard',
  card_type_id: 1,
  card_last4: '4444',
  card_exp_month: 3,
  card_exp_year: 2031,
} as PaymentAttemptRow;

function address(country: string, fname = 'Ada'): OrderAddress {
  return {
    fname,
    lname: 'Lovelace',
    address1: country ? '1 Main St' : '',
    address2: '',
    city: country ? 'Austin' : '',
    state: country === 'US' ? 'TX' : '',
    zipcode: country === 'US' ? '73301' : '',
    country,
    phone: '',
  };
}

describe('isPaymentDue', () => {
  it('is due for a total above zero', () => {
    expect(isPaymentDue({ total: minor(1), isRecurring: false })).toBe(true);
  });
  it('is due for a free first cycle of a recurring order (its card pays the later ones)', () => {
    expect(isPaymentDue({ total: minor(0), isRecurring: true })).toBe(true);
  });
  it('is not due for a free one-off order', () => {
    expect(isPaymentDue({ total: minor(0), isRecurring: false })).toBe(false);
  });
});

describe('isExpressStart and nextStep', () => {
  it('starts an express payment for PayPal without a payment token only', () => {
    expect(isExpressStart({ method: 'paypal' })).toBe(true);
    expect(isExpressStart({ method: 'paypal', payment_token_id: '' })).toBe(true);
    expect(isExpressStart({ method: 'paypal', payment_token_id: 'pt_1' })).toBe(false);
    expect(isExpressStart({ method: 'card', card_token: 'tok_test_visa' })).toBe(false);
    expect(isExpressStart({ method: 'none' })).toBe(false);
    expect(isExpressStart(undefined)).toBe(false);
  });
  it('sends an express start to the provider even when nothing is due', () => {
    expect(nextStep({ expressStart: true, paymentDue: true })).toBe('express_start');
    expect(nextStep({ expressStart: true, paymentDue: false })).toBe('express_start');
  });
  it('charges a due payment and completes a free order without a charge', () => {
    expect(nextStep({ expressStart: false, paymentDue: true })).toBe('charge');
    expect(nextStep({ expressStart: false, paymentDue: false })).toBe('complete');
  });
});

describe('savedStatus', () => {
  it('waits for the payer of an express start', () => {
    expect(savedStatus({ expressStart: true, previous: 'declined' })).toBe('awaiting_payment');
  });
  it('keeps an earlier status, and starts a new order pending', () => {
    expect(savedStatus({ expressStart: false, previous: 'declined' })).toBe('declined');
    expect(savedStatus({ expressStart: false, previous: null })).toBe('pending');
  });
});

describe('isTestCard and isTestOrder', () => {
  it('knows a due card payment by the token the processor made from one of the test cards', () => {
    expect(isTestCard(testCard, true)).toBe(true);
    expect(isTestCard(visa, true)).toBe(false);
  });
  it('takes no card as a test card when nothing is due, there is no token, or the token cannot be used', () => {
    expect(isTestCard(testCard, false)).toBe(false);
    expect(isTestCard(null, true)).toBe(false);
    expect(isTestCard(used, true)).toBe(false);
  });
  it('is a test order in test mode, for a test cart, or with a test card', () => {
    expect(isTestOrder({ testMode: true, testCart: false, testCard: false })).toBe(true);
    expect(isTestOrder({ testMode: false, testCart: true, testCard: false })).toBe(true);
    expect(isTestOrder({ testMode: false, testCart: false, testCard: true })).toBe(true);
    expect(isTestOrder({ testMode: false, testCart: false, testCard: false })).toBe(false);
  });
});

describe('storesPaymentMethod', () => {
  it('stores the payment method when a line recurs for this customer', () => {
    expect(
      storesPaymentMethod([
        { is_recurring: false, is_gift: false },
        { is_recurring: true, is_gift: false },
      ]),
    ).toBe(true);
  });
  it('stores nothing for a recurring gift (its recipient pays) or one-off lines', () => {
    expect(storesPaymentMethod([{ is_recurring: true, is_gift: true }])).toBe(false);
    expect(storesPaymentMethod([{ is_recurring: false, is_gift: false }])).toBe(false);
    expect(storesPaymentMethod([])).toBe(false);
  });
});

describe('completesAlone', () => {
  const plain = { is_gift: false, is_recurring: false };
  it('completes a plain card order alone', () => {
    expect(completesAlone({ express: false, giftClaim: false, lines: [plain] })).toBe(true);
  });
  it('does not for an express payment, a gift claim, a gift or a recurring line', () => {
    expect(completesAlone({ express: true, giftClaim: false, lines: [plain] })).toBe(false);
    expect(completesAlone({ express: false, giftClaim: true, lines: [plain] })).toBe(false);
    expect(
      completesAlone({ express: false, giftClaim: false, lines: [plain, { ...plain, is_gift: true }] }),
    ).toBe(false);
    expect(
      completesAlone({ express: false, giftClaim: false, lines: [{ ...plain, is_recurring: true }] }),
    ).toBe(false);
  });
});

describe('billedAddress and storedAddresses', () => {
  const ship = address('US', 'Ship');
  const bill = address('CA', 'Bill');
  it('bills the shipping address when the same address is kept and something ships', () => {
    expect(billedAddress({ shipping: true, sameAddress: true, ship, bill })).toEqual({
      billingIsShipping: true,
      billing: ship,
    });
  });
  it('bills the billing address given otherwise', () => {
    expect(billedAddress({ shipping: true, sameAddress: false, ship, bill })).toEqual({
      billingIsShipping: false,
      billing: bill,
    });
    expect(billedAddress({ shipping: false, sameAddress: true, ship, bill })).toEqual({
      billingIsShipping: false,
      billing: bill,
    });
  });
  it('keeps the shipping address for both when it stands for the billing one', () => {
    expect(storedAddresses({ shipping: true, billingIsShipping: true, ship, bill })).toEqual({
      shipping_address: ship,
      billing_address: ship,
    });
  });
  it('keeps each address given by its country, and the shipping one whenever something ships', () => {
    const none = address('');
    expect(storedAddresses({ shipping: true, billingIsShipping: false, ship: none, bill })).toEqual({
      shipping_address: none,
      billing_address: bill,
    });
    expect(storedAddresses({ shipping: false, billingIsShipping: false, ship, bill: none })).toEqual({
      shipping_address: ship,
      billing_address: null,
    });
    expect(storedAddresses({ shipping: false, billingIsShipping: false, ship: none, bill: none })).toEqual({
      shipping_address: null,
      billing_address: null,
    });
  });
});

describe('orderLines', () => {
  const line = {
    id: 11,
    offer_id: 3,
    item_name: 'Beans',
    quantity: 2,
    price: 1500,
    price_override: null,
    is_gift: false,
    is_bump: false,
    is_recurring: true,
    billing_interval_days: 30,
    subscribed: false,
    subscribe_percent_off: null,
    once_unit_price: 1500,
  };
  const priced: PricedLine = {
    id: 11,
    subtotal: minor(3000),
    discount: minor(300),
    shipping: minor(500),
    tax: minor(223),
    total: minor(3423),
    nextCycleTotal: minor(3223),
    billingPlan: null,
  };
  it('writes each cart line with its share of the priced amounts', () => {
    expect(orderLines([line], [priced])).toEqual([
      {
        cart_offer_id: 11,
        offer_id: 3,
        item_name: 'Beans',
        quantity: 2,
        unit_price: 1500,
        subtotal: 3000,
        discount: 300,
        shipping: 500,
        tax: 223,
        total: 3423,
        is_gift: false,
        is_bump: false,
        is_recurring: true,
        billing_interval_days: 30,
        next_cycle_total: 3223,
        billing_plan: null,
        subscribe_and_save_percent: null,
        subscribe_and_save_once_price: null,
      },
    ]);
  });
  it('marks a line the shopper subscribed to with its percent off', () => {
    const [written] = orderLines([{ ...line, subscribed: true, subscribe_percent_off: 10 }], [priced]);
    expect(written?.subscribe_and_save_percent).toBe(10);
    expect(written?.subscribe_and_save_once_price).toBe(1500);
  });
  it('records that a line came from an order bump', () => {
    const [written] = orderLines([{ ...line, is_bump: true }], [priced]);
    expect(written).toMatchObject({ cart_offer_id: 11, is_bump: true, total: 3423 });
  });
  it('charges an overridden price (a gift claim at 0), and zero for a line pricing left out', () => {
    const [written] = orderLines([{ ...line, id: 12, price_override: 0, is_recurring: false }], [priced]);
    expect(written).toMatchObject({
      cart_offer_id: 12,
      unit_price: 0,
      subtotal: 0,
      discount: 0,
      shipping: 0,
      tax: 0,
      total: 0,
      next_cycle_total: null,
    });
  });
});

describe('orderAmounts', () => {
  const result: PricingResult = {
    lines: [],
    subtotal: minor(3000),
    totalDiscount: minor(300),
    subtotalItems: minor(2700),
    totalItems: 2,
    totalOfferShipping: minor(500),
    totalCampaignShipping: minor(700),
    totalTax: minor(223),
    totalGiftCards: minor(0),
    total: minor(4123),
    isRecurring: false,
    shipsAnything: true,
  };
  const code = { id: 9, code: 'SAVE10' };
  it('takes the priced totals, the code that applied and the shipping chosen', () => {
    expect(orderAmounts({ result, discountApplied: true, chosenProfile: { id: 4 } }, code)).toEqual({
      subtotal: 3000,
      total_discount: 300,
      total_offer_shipping: 500,
      total_campaign_shipping: 700,
      total_tax: 223,
      total_gift_cards: 0,
      total: 4123,
      discount_code_id: 9,
      discount_code: 'SAVE10',
      shipping_profile_id: 4,
    });
  });
  it('names no code that did not apply, and no shipping when none was chosen', () => {
    expect(orderAmounts({ result, discountApplied: false, chosenProfile: null }, code)).toMatchObject({
      discount_code_id: null,
      discount_code: null,
      shipping_profile_id: null,
    });
    expect(orderAmounts({ result, discountApplied: true, chosenProfile: null }, null)).toMatchObject({
      discount_code_id: null,
      discount_code: null,
    });
  });
});

describe('termsAcceptance', () => {
  const now = new Date('2030-01-02T03:04:05Z');
  it('records the displayed terms accepted: when, from where and which version', () => {
    expect(
      termsAcceptance({
        displayed: true,
        accepted: true,
        version: 'v2',
        language: 'es',
        ip: '198.51.100.7',
        now,
      }),
    ).toEqual({
      subscription_terms_accepted: true,
      subscription_terms_accepted_at: now,
      subscription_terms_ip: '198.51.100.7',
      subscription_terms_version: 'v2',
      subscription_terms_language: 'es',
    });
  });
  it('records nothing for terms not displayed, or not accepted', () => {
    const none = {
      subscription_terms_accepted: false,
      subscription_terms_accepted_at: null,
      subscription_terms_ip: null,
      subscription_terms_version: null,
      subscription_terms_language: null,
    };
    expect(
      termsAcceptance({ displayed: false, accepted: true, version: 'v2', language: 'es', ip: null, now }),
    ).toEqual(none);
    expect(
      termsAcceptance({ displayed: true, accepted: undefined, version: 'v2', language: 'es', ip: null, now }),
    ).toEqual(none);
  });
});

describe('codeUseOnRetry', () => {
  it('keeps the use an earlier attempt still holds for the same code', () => {
    expect(codeUseOnRetry({ reserved: true, previousCode: 5, wantedCode: 5 })).toEqual({
      release: null,
      hold: false,
    });
  });
  it("gives back the earlier code's use and holds one of the new code", () => {
    expect(codeUseOnRetry({ reserved: true, previousCode: 5, wantedCode: 6 })).toEqual({
      release: 5,
      hold: true,
    });
    expect(codeUseOnRetry({ reserved: true, previousCode: 5, wantedCode: null })).toEqual({
      release: 5,
      hold: false,
    });
  });
  it('holds a use of the wanted code when the order holds none', () => {
    expect(codeUseOnRetry({ reserved: false, previousCode: 5, wantedCode: 5 })).toEqual({
      release: null,
      hold: true,
    });
    expect(codeUseOnRetry({ reserved: false, previousCode: null, wantedCode: null })).toEqual({
      release: null,
      hold: false,
    });
  });
});

describe('statusAfterFailedPayment', () => {
  it('declines the order on a decline and leaves it as it was on a gateway error', () => {
    expect(statusAfterFailedPayment('declined', 'pending')).toBe('declined');
    expect(statusAfterFailedPayment('error', 'pending')).toBe('pending');
    expect(statusAfterFailedPayment('error', 'declined')).toBe('declined');
  });
});

describe('isRetryOfUse and chargeKey', () => {
  const usedBy = (idempotencyKey: string | null): DescribedCardToken => ({
    token: 'tok_test_used',
    description: {
      status: 'unusable',
      reason: 'entry_used',
      message: 'This card entry was already used or has expired.',
      usedBy: { idempotencyKey, summary: visaSummary, testCard: false },
    },
  });
  it("sends a used token again only as the same attempt's charge, whose answer was lost", () => {
    const key = chargeKey(3, 41, 2);
    expect(key).toBe('order_3_41_attempt_2');
    expect(isRetryOfUse(usedBy(key), key)).toBe(true);
    expect(isRetryOfUse(usedBy('order_3_40_attempt_1'), key)).toBe(false);
    // A processor that cannot say which charge used it lets its own idempotency decide, on an attempted order only.
    expect(isRetryOfUse(usedBy(null), key)).toBe(true);
    expect(isRetryOfUse(usedBy(null), null)).toBe(false);
    expect(isRetryOfUse(used, key)).toBe(false);
    expect(isRetryOfUse(visa, key)).toBe(false);
  });
  it('lets the retried charge through the checks, with the card the processor described', () => {
    const payment = { method: 'card' as const, card_token: 'tok_test_used' };
    const key = chargeKey(3, 41, 2);
    expect(
      cardPaymentProblem({ payment, card: usedBy(key), authenticated: null, amount: 1, retriedKey: key }),
    ).toBe(null);
    expect(
      cardPaymentProblem({
        payment,
        card: usedBy('order_9_9_attempt_1'),
        authenticated: null,
        amount: 1,
        retriedKey: key,
      }),
    ).toEqual({ key: 'payment.card_entry_used' });
    expect(cardToCharge(usedBy(key), null).summary).toEqual(visaSummary);
  });
});

describe('cardPaymentProblem', () => {
  const token = (card_token: string) => ({ method: 'card' as const, card_token });
  it('takes a usable token the processor described', () => {
    expect(
      cardPaymentProblem({ payment: token('tok_test_visa'), card: visa, authenticated: null, amount: 2500 }),
    ).toBe(null);
  });
  it('asks for the card when the payment names neither a token nor an authenticated payment, or both', () => {
    const none = { method: 'card' as const };
    const both = {
      method: 'card' as const,
      card_token: 'tok_test_visa',
      authenticated_payment: 'ch_test_pending',
    };
    for (const payment of [none, both, token('  ')]) {
      expect(cardPaymentProblem({ payment, card: visa, authenticated: pending, amount: 2500 })).toEqual({
        key: 'payment.card_details_missing',
      });
    }
  });
  it("tells the shopper why a token cannot be used in their words, never the processor's", () => {
    expect(
      cardPaymentProblem({ payment: token('tok_test_used'), card: used, authenticated: null, amount: 1 }),
    ).toEqual({ key: 'payment.card_entry_used' });
    expect(unusableCardMessage('cards_not_taken')).toEqual({ key: 'payment.cards_not_taken' });
    expect(translatorFor('fr')(unusableCardMessage('brand_not_accepted').key)).toBe(
      'Nous acceptons Visa, Mastercard, Discover et American Express. Utilisez l’une de ces cartes.',
    );
  });
  it("takes an authenticated payment only when it is this order's pending one for the same total", () => {
    const payment = { method: 'card' as const, authenticated_payment: 'ch_test_pending' };
    expect(cardPaymentProblem({ payment, card: null, authenticated: pending, amount: 2500 })).toBe(null);
    expect(cardPaymentProblem({ payment, card: null, authenticated: null, amount: 2500 })).toEqual({
      key: 'payment.confirmation_not_this_order',
    });
    expect(cardPaymentProblem({ payment, card: null, authenticated: pending, amount: 2600 })).toEqual({
      key: 'payment.order_changed_after_confirmation',
    });
  });
});

describe('cardToCharge', () => {
  it('charges the token and records only what the processor said of the card', () => {
    expect(cardToCharge(visa, null)).toEqual({
      method: 'card',
      source: { kind: 'card_token', token: 'tok_test_visa' },
      summary: visaSummary,
    });
  });
  it('charges an authenticated payment by its reference, with the card its attempt recorded', () => {
    expect(cardToCharge(null, pending)).toEqual({
      method: 'card',
      source: { kind: 'authenticated', reference: 'ch_test_pending' },
      summary: { brand: 'mastercard', typeId: 1, last4: '4444', expMonth: 3, expYear: 2031 },
    });
  });
  it('refuses to charge a token that was not found usable', () => {
    expect(() => cardToCharge(used, null)).toThrow(/usable/);
  });
});
