import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { minor, type Minor } from './money.js';
import { discountAmount, priceCart, type PricingInput, type PricingLine } from './pricing.js';

const m = (value: number) => minor(value);

function line(overrides: Partial<PricingLine> & { id: number }): PricingLine {
  return {
    offerId: overrides.id,
    unitPrice: m(1000),
    quantity: 1,
    taxable: true,
    shippingPerUnit: m(0),
    shipsWithOrder: true,
    recurring: null,
    ...overrides,
  };
}

const base: Omit<PricingInput, 'lines'> = { discount: null, shipping: null, taxRatePpm: 0, giftCards: m(0) };

describe('priceCart', () => {
  it('adds line totals, per-offer shipping, profile shipping and tax', () => {
    const result = priceCart({
      ...base,
      lines: [
        line({ id: 1, unitPrice: m(1800), quantity: 2 }),
        line({ id: 2, unitPrice: m(1400), shippingPerUnit: m(200) }),
      ],
      shipping: { price: m(500), freeOver: null },
      taxRatePpm: 82_500,
    });
    expect(result.subtotal).toBe(5000);
    expect(result.totalItems).toBe(3);
    expect(result.totalOfferShipping).toBe(200);
    expect(result.totalCampaignShipping).toBe(500);
    expect(result.totalTax).toBe(413); // 8.25% of 50.00 = 4.125 → 4.13
    expect(result.total).toBe(5000 + 200 + 500 + 413);
    expect(result.lines.map((l) => l.tax)).toEqual([297, 116]);
  });

  it('applies a percent code to the whole order and spreads it over lines', () => {
    const result = priceCart({
      ...base,
      lines: [line({ id: 1, unitPrice: m(1000) }), line({ id: 2, unitPrice: m(2000) })],
      discount: { kind: 'percent', percentOffBp: 1000, amountOff: null, offerIds: [] },
    });
    expect(result.totalDiscount).toBe(300);
    expect(result.lines.map((l) => l.discount)).toEqual([100, 200]);
    expect(result.subtotalItems).toBe(2700);
  });

  it('applies a code restricted to some offers only to their lines', () => {
    const result = priceCart({
      ...base,
      lines: [
        line({ id: 1, offerId: 10, unitPrice: m(1000) }),
        line({ id: 2, offerId: 20, unitPrice: m(2000) }),
      ],
      discount: { kind: 'percent', percentOffBp: 2500, amountOff: null, offerIds: [20] },
    });
    expect(result.lines.map((l) => l.discount)).toEqual([0, 500]);
  });

  it('caps a fixed code at the amount it discounts', () => {
    const result = priceCart({
      ...base,
      lines: [line({ id: 1, unitPrice: m(300) })],
      discount: { kind: 'fixed', percentOffBp: null, amountOff: m(500), offerIds: [] },
    });
    expect(result.totalDiscount).toBe(300);
    expect(result.total).toBe(0);
  });

  it('taxes only taxable lines, after their discount', () => {
    const result = priceCart({
      ...base,
      lines: [line({ id: 1, unitPrice: m(1000) }), line({ id: 2, unitPrice: m(1000), taxable: false })],
      discount: { kind: 'percent', percentOffBp: 5000, amountOff: null, offerIds: [] },
      taxRatePpm: 100_000,
    });
    expect(result.totalTax).toBe(50); // 10% of (10.00 − 5.00)
    expect(result.lines.map((l) => l.tax)).toEqual([50, 0]);
  });

  it('makes profile shipping free once the discounted subtotal reaches the threshold', () => {
    const lines = [line({ id: 1, unitPrice: m(5000) })];
    const shipping = { price: m(500), freeOver: m(5000) };
    expect(priceCart({ ...base, lines, shipping }).totalCampaignShipping).toBe(0);
    const discounted = priceCart({
      ...base,
      lines,
      shipping,
      discount: { kind: 'fixed', percentOffBp: null, amountOff: m(1), offerIds: [] },
    });
    expect(discounted.totalCampaignShipping).toBe(500);
  });

  it('charges no profile shipping when nothing ships with the order', () => {
    const result = priceCart({
      ...base,
      lines: [line({ id: 1, shipsWithOrder: false, shippingPerUnit: m(200) })],
      shipping: { price: m(500), freeOver: null },
    });
    expect(result.totalCampaignShipping).toBe(0);
    expect(result.totalOfferShipping).toBe(200);
    expect(result.shipsAnything).toBe(false);
  });

  it('prices later subscription cycles at the later price without the first-order discount', () => {
    const result = priceCart({
      ...base,
      lines: [
        line({
          id: 1,
          unitPrice: m(2900),
          quantity: 2,
          recurring: { intervalDays: 30, nextUnitPrice: m(2500) },
        }),
      ],
      discount: { kind: 'percent', percentOffBp: 1000, amountOff: null, offerIds: [] },
      taxRatePpm: 82_500,
    });
    expect(result.isRecurring).toBe(true);
    expect(result.lines[0]?.nextCycleTotal).toBe(5000 + 413);
    expect(result.lines[0]?.discount).toBe(580);
  });

  it('prices each cycle of a trial with its discounted cycles, offer shipping and tax', () => {
    const result = priceCart({
      ...base,
      lines: [
        line({
          id: 1,
          unitPrice: m(100),
          shippingPerUnit: m(500),
          recurring: {
            intervalDays: 30,
            nextUnitPrice: m(2999),
            cycles: { trialDays: 14, discountedCycles: 2, discountedUnitPrice: m(1999), totalCycles: 12 },
          },
        }),
      ],
      discount: { kind: 'fixed', percentOffBp: null, amountOff: m(50), offerIds: [] },
      taxRatePpm: 82_500,
    });
    // cycle 1: 1.00 − 0.50 code + 5.00 shipping + tax on 0.50 (0.04); later: price + 5.00 + 8.25 % tax
    expect(result.lines[0]?.billingPlan?.phases).toEqual([
      { cycles: 1, amount: 50 + 500 + 4, days: 14 },
      { cycles: 2, amount: 1999 + 500 + 165, days: 30 },
      { cycles: 9, amount: 2999 + 500 + 247, days: 30 },
    ]);
    expect(result.lines[0]?.nextCycleTotal).toBe(1999 + 500 + 165);
    expect(result.lines[0]?.total).toBe(554);
  });

  it('prices a gift claim at 0', () => {
    const result = priceCart({ ...base, lines: [line({ id: 1, unitPrice: m(0) })], taxRatePpm: 82_500 });
    expect(result.total).toBe(0);
  });

  it('takes gift cards off the total, never below 0', () => {
    const result = priceCart({ ...base, lines: [line({ id: 1, unitPrice: m(1000) })], giftCards: m(1500) });
    expect(result.totalGiftCards).toBe(1000);
    expect(result.total).toBe(0);
  });
});

describe('pricing invariants (property-based)', () => {
  const lineArb = fc.record({
    offerId: fc.integer({ min: 1, max: 5 }),
    unitPrice: fc.integer({ min: 0, max: 500_000 }),
    quantity: fc.integer({ min: 1, max: 99 }),
    taxable: fc.boolean(),
    shippingPerUnit: fc.integer({ min: 0, max: 5_000 }),
    shipsWithOrder: fc.boolean(),
    recurring: fc.option(
      fc.record({
        intervalDays: fc.integer({ min: 1, max: 730 }),
        nextUnitPrice: fc.integer({ min: 0, max: 500_000 }),
      }),
      { nil: null },
    ),
  });
  const discountArb = fc.option(
    fc.oneof(
      fc.record({
        kind: fc.constant('percent' as const),
        percentOffBp: fc.integer({ min: 1, max: 10_000 }),
        amountOff: fc.constant(null),
        offerIds: fc.array(fc.integer({ min: 1, max: 5 }), { maxLength: 3 }),
      }),
      fc.record({
        kind: fc.constant('fixed' as const),
        percentOffBp: fc.constant(null),
        amountOff: fc.integer({ min: 1, max: 10_000_000 }),
        offerIds: fc.array(fc.integer({ min: 1, max: 5 }), { maxLength: 3 }),
      }),
    ),
    { nil: null },
  );
  const inputArb = fc.record({
    lines: fc.array(lineArb, { minLength: 1, maxLength: 12 }),
    discount: discountArb,
    shipping: fc.option(
      fc.record({
        price: fc.integer({ min: 0, max: 10_000 }),
        freeOver: fc.option(fc.integer({ min: 0, max: 1_000_000 }), { nil: null }),
      }),
      { nil: null },
    ),
    taxRatePpm: fc.integer({ min: 0, max: 300_000 }),
    giftCards: fc.integer({ min: 0, max: 100_000 }),
  });

  type Raw = typeof inputArb extends fc.Arbitrary<infer T> ? T : never;
  // Generated numbers are whole minor units by construction; the brand is a compile-time tag only.
  const toInput = (raw: Raw): PricingInput =>
    ({ ...raw, lines: raw.lines.map((l, i) => ({ ...l, id: i + 1 })) }) as unknown as PricingInput;

  it('never answers a negative amount and every amount is a whole minor unit', () => {
    fc.assert(
      fc.property(inputArb, (raw) => {
        const result = priceCart(toInput(raw));
        const amounts: Minor[] = [
          result.subtotal,
          result.totalDiscount,
          result.subtotalItems,
          result.totalOfferShipping,
          result.totalCampaignShipping,
          result.totalTax,
          result.totalGiftCards,
          result.total,
          ...result.lines.flatMap((l) => [l.subtotal, l.discount, l.shipping, l.tax, l.total]),
        ];
        for (const amount of amounts) {
          expect(Number.isInteger(amount)).toBe(true);
          expect(amount).toBeGreaterThanOrEqual(0);
        }
      }),
    );
  });

  it('line parts sum to the cart figures, and the figures to the total', () => {
    fc.assert(
      fc.property(inputArb, (raw) => {
        const result = priceCart(toInput(raw));
        const sum = (pick: (l: (typeof result.lines)[number]) => number) =>
          result.lines.reduce((a, l) => a + pick(l), 0);
        expect(sum((l) => l.discount)).toBe(result.totalDiscount);
        expect(sum((l) => l.tax)).toBe(result.totalTax);
        expect(sum((l) => l.shipping)).toBe(result.totalOfferShipping);
        expect(sum((l) => l.subtotal)).toBe(result.subtotal);
        expect(sum((l) => l.total) + result.totalCampaignShipping - result.totalGiftCards).toBe(result.total);
        expect(
          result.subtotal -
            result.totalDiscount +
            result.totalOfferShipping +
            result.totalCampaignShipping +
            result.totalTax -
            result.totalGiftCards,
        ).toBe(result.total);
      }),
    );
  });

  it('never discounts more than the amount it discounts, on any line', () => {
    fc.assert(
      fc.property(inputArb, (raw) => {
        const input = toInput(raw);
        const result = priceCart(input);
        result.lines.forEach((l) => expect(l.discount).toBeLessThanOrEqual(l.subtotal));
        if (input.discount) {
          const eligible = input.lines
            .filter(
              (l) => input.discount!.offerIds.length === 0 || input.discount!.offerIds.includes(l.offerId),
            )
            .reduce((a, l) => a + l.unitPrice * l.quantity, 0);
          expect(result.totalDiscount).toBeLessThanOrEqual(eligible);
          expect(result.totalDiscount).toBe(discountAmount(input.discount, minor(eligible)));
        }
      }),
    );
  });

  it('rounds tax once, to within half a minor unit of the exact figure', () => {
    fc.assert(
      fc.property(inputArb, (raw) => {
        const input = toInput(raw);
        const result = priceCart(input);
        const base = result.lines.reduce(
          (a, l, i) => a + (input.lines[i]?.taxable ? l.subtotal - l.discount : 0),
          0,
        );
        expect(Math.abs(result.totalTax - (base * input.taxRatePpm) / 1_000_000)).toBeLessThanOrEqual(0.5);
      }),
    );
  });
});
