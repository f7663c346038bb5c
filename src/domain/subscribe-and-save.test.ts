import { describe, expect, it } from 'vitest';
import { minor } from './money.js';
import { priceCart } from './pricing.js';
import {
  describeSaving,
  pricedAsChosen,
  savingOf,
  subscribedUnitPrice,
  subscribeTermsOf,
  subscriptionChoiceRefusal,
  type SubscribableLine,
} from './subscribe-and-save.js';

const oneOff: SubscribableLine = {
  price: 2000,
  price_override: null,
  is_recurring: false,
  billing_interval_days: null,
  next_price: null,
  is_gift: false,
  subscribed: false,
  subscribe_interval_days: 30,
  subscribe_percent_off: 10,
};

describe('subscribedUnitPrice', () => {
  it('takes the percent off in minor units', () => {
    expect(subscribedUnitPrice(minor(2000), 10)).toBe(1800);
    expect(subscribedUnitPrice(minor(2999), 15)).toBe(2549); // saving 449.85 → 450
  });

  it('rounds the saving half up to the minor unit', () => {
    expect(subscribedUnitPrice(minor(1995), 10)).toBe(1795); // saving 199.5 → 200
    expect(subscribedUnitPrice(minor(1994), 10)).toBe(1795); // saving 199.4 → 199
    expect(subscribedUnitPrice(minor(1), 50)).toBe(0); // saving 0.5 → 1
    expect(subscribedUnitPrice(minor(0), 10)).toBe(0);
  });

  it('works on currencies without minor digits (amounts are already in their minor unit)', () => {
    expect(subscribedUnitPrice(minor(1234), 15)).toBe(1049); // ¥1,234 less 185.1 → 185
  });
});

describe('subscribeTermsOf', () => {
  it('answers the terms of a one-off line whose offer allows it', () => {
    expect(subscribeTermsOf(oneOff)).toEqual({ intervalDays: 30, percentOff: 10 });
  });

  it('still answers them once the choice made the line recurring', () => {
    expect(subscribeTermsOf(pricedAsChosen({ ...oneOff, subscribed: true }))).toEqual({
      intervalDays: 30,
      percentOff: 10,
    });
  });

  it('answers none for a recurring line, a gift or an offer without terms', () => {
    expect(subscribeTermsOf({ ...oneOff, is_recurring: true, billing_interval_days: 30 })).toBeNull();
    expect(subscribeTermsOf({ ...oneOff, is_gift: true })).toBeNull();
    expect(
      subscribeTermsOf({ ...oneOff, subscribe_interval_days: null, subscribe_percent_off: null }),
    ).toBeNull();
  });
});

describe('pricedAsChosen', () => {
  it('leaves a line bought once as it is', () => {
    expect(pricedAsChosen(oneOff)).toBe(oneOff);
  });

  it('prices a subscribed line as a recurring line at the discounted price every interval', () => {
    expect(pricedAsChosen({ ...oneOff, subscribed: true })).toEqual({
      ...oneOff,
      subscribed: true,
      price: 1800,
      is_recurring: true,
      billing_interval_days: 30,
      next_price: 1800,
    });
  });

  it('discounts a merchant price override, and its later cycles too', () => {
    const line = pricedAsChosen({ ...oneOff, price_override: 1500, subscribed: true });
    expect(line.price_override).toBe(1350);
    expect(line.next_price).toBe(1350);
    expect(line.price).toBe(1800);
  });

  it('ignores a stale choice on a line that can no longer subscribe', () => {
    const gift = { ...oneOff, is_gift: true, subscribed: true };
    expect(pricedAsChosen(gift)).toBe(gift);
  });
});

describe('subscriptionChoiceRefusal', () => {
  const open = { isGiftClaim: false, orderStatus: null, paymentInProgress: false } as const;

  it('lets the shopper choose before the order is paid, after a decline too', () => {
    expect(subscriptionChoiceRefusal(open)).toBeNull();
    expect(subscriptionChoiceRefusal({ ...open, orderStatus: 'declined' })).toBeNull();
    expect(subscriptionChoiceRefusal({ ...open, orderStatus: 'pending' })).toBeNull();
  });

  it('refuses on a gift claim, after completion, once PayPal started and while a payment holds the order', () => {
    expect(subscriptionChoiceRefusal({ ...open, isGiftClaim: true })).toBe('gift_claim');
    expect(subscriptionChoiceRefusal({ ...open, orderStatus: 'complete' })).toBe('ordered');
    expect(subscriptionChoiceRefusal({ ...open, orderStatus: 'awaiting_payment' })).toBe('express_started');
    expect(subscriptionChoiceRefusal({ ...open, paymentInProgress: true })).toBe('payment_in_progress');
  });
});

describe('a subscribed line through priceCart', () => {
  it('is charged at the discounted price today and every later cycle, the code on the first order only', () => {
    const line = pricedAsChosen({ ...oneOff, price: 1995, subscribed: true });
    const result = priceCart({
      lines: [
        {
          id: 1,
          offerId: 7,
          unitPrice: minor(line.price_override ?? line.price),
          quantity: 2,
          taxable: true,
          shippingPerUnit: minor(0),
          shipsWithOrder: true,
          recurring: {
            intervalDays: line.billing_interval_days ?? 0,
            nextUnitPrice: minor(line.next_price ?? 0),
          },
        },
      ],
      discount: { kind: 'percent', percentOffBp: 1000, amountOff: null, offerIds: [] },
      shipping: null,
      taxRatePpm: 82_500,
      giftCards: minor(0),
    });
    expect(result.isRecurring).toBe(true);
    expect(result.subtotal).toBe(3590); // 2 × 17.95
    expect(result.totalDiscount).toBe(359);
    expect(result.totalTax).toBe(267); // 8.25 % of 32.31 = 2.665575
    expect(result.total).toBe(3590 - 359 + 267);
    expect(result.lines[0]?.nextCycleTotal).toBe(3590 + 296); // no code later; 8.25 % of 35.90 = 2.96175
  });
});

describe('describeSaving', () => {
  it("says the saving of every delivery with the items' prices, quantity included", () => {
    const saving = savingOf({ intervalDays: 30, percentOff: 10 }, minor(1500), 2);
    expect(saving).toEqual({ intervalDays: 30, percentOff: 10, onceAmount: 3000, subscribedAmount: 2700 });
    expect(describeSaving(saving, 'USD')).toBe(
      'You save 10 % on every delivery: $27.00 instead of $30.00, every 30 days.',
    );
  });

  it('rounds the saving of each unit as the checkout did', () => {
    // $19.95 at 10 % saves $2.00 a unit (1.995 rounded half up): 3 units cost $53.85, not $53.87.
    const saving = savingOf({ intervalDays: 7, percentOff: 10 }, minor(1995), 3);
    expect(describeSaving(saving, 'USD')).toBe(
      'You save 10 % on every delivery: $53.85 instead of $59.85, every 7 days.',
    );
  });

  it('says the percent alone when the order kept no one-off price', () => {
    const saving = savingOf({ intervalDays: 1, percentOff: 15 }, null, 1);
    expect(describeSaving(saving, 'USD')).toBe('You save 15 % on every delivery, every day.');
  });
});
