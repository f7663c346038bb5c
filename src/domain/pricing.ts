import { buildPrepaidPlan } from './prepaid-plan.js';
import { buildBillingPlan, planCycle, type BillingPlan, type CycleTerms } from './billing-plan.js';
import { allocate, minor, mulDivRound, sumMinor, ZERO, type Minor } from './money.js';

/** One cart line as the pricing engine sees it (all amounts in minor units). */
export interface PricingLine {
  /** the order_offer_id */
  id: number;
  offerId: number;
  /** the unit price charged in this cart (0 on a gift claim) */
  unitPrice: Minor;
  quantity: number;
  taxable: boolean;
  /** per-unit shipping of this offer, charged on top of any shipping profile */
  shippingPerUnit: Minor;
  /** whether this line is shipped with this order (a gift line ships later, to its recipient) */
  shipsWithOrder: boolean;
  /** later cycles of a subscription line, charged each interval from the second cycle on */
  recurring: {
    intervalDays: number;
    nextUnitPrice: Minor;
    /** prices by cycle (docs/subscriptions.md, "Prices by cycle"); absent = every later cycle at nextUnitPrice */
    cycles?: LineCycles | undefined;
    /** a prepaid plan (docs/subscriptions.md, "Prepaid plans"): the unit prices are each whole period's */
    prepaid?: { cycles: number; renewal: 'renew' | 'end' } | null | undefined;
  } | null;
}

/** A recurring offer's special cycles: a trial's length, discounted cycles after the first, an end. */
export type LineCycles = Omit<CycleTerms, 'intervalDays'> & { discountedUnitPrice: Minor | null };

export interface PricingDiscount {
  kind: 'percent' | 'fixed';
  /** percent codes: basis points, 1000 = 10% */
  percentOffBp: number | null;
  /** fixed codes */
  amountOff: Minor | null;
  /** offers the code applies to; empty = the whole order */
  offerIds: readonly number[];
}

export interface PricingShipping {
  price: Minor;
  /** free when the discounted item subtotal reaches this; null = never free */
  freeOver: Minor | null;
}

export interface PricingInput {
  lines: readonly PricingLine[];
  discount: PricingDiscount | null;
  /** the chosen shipping profile, or null (none chosen, none needed, or a gift claim) */
  shipping: PricingShipping | null;
  /** tax rate for the address, parts per million (82500 = 8.25%); 0 when none applies */
  taxRatePpm: number;
  /** gift cards applied (0 until gift cards exist) */
  giftCards: Minor;
}

export interface PricedLine {
  id: number;
  /** unitPrice × quantity */
  subtotal: Minor;
  /** this line's share of the discount */
  discount: Minor;
  /** per-offer shipping of this line */
  shipping: Minor;
  /** this line's share of the tax */
  tax: Minor;
  /** subtotal − discount + shipping + tax */
  total: Minor;
  /** what the second cycle of this line charges (items, offer shipping and tax); null for one-off lines */
  nextCycleTotal: Minor | null;
  /** each cycle's charge from the first (this line's total) on; null for one-off lines */
  billingPlan: BillingPlan | null;
}

export interface PricingResult {
  lines: PricedLine[];
  /** items before discount */
  subtotal: Minor;
  totalDiscount: Minor;
  /** items after discount: what tax and free-shipping thresholds apply to */
  subtotalItems: Minor;
  /** number of units */
  totalItems: number;
  totalOfferShipping: Minor;
  totalCampaignShipping: Minor;
  totalTax: Minor;
  totalGiftCards: Minor;
  /** subtotal − totalDiscount + totalOfferShipping + totalCampaignShipping + totalTax − totalGiftCards */
  total: Minor;
  isRecurring: boolean;
  /** whether any line ships with this order (the shipping profile charge applies only then) */
  shipsAnything: boolean;
}

const PPM = 1_000_000;
const BASIS_POINTS = 10_000;

/** Lines the discount applies to: those of its offers, or all lines for an order-wide code. */
export function isDiscountEligible(
  line: Pick<PricingLine, 'offerId'>,
  discount: Pick<PricingDiscount, 'offerIds'>,
): boolean {
  return discount.offerIds.length === 0 || discount.offerIds.includes(line.offerId);
}

/** The whole discount before it is spread over lines: never more than the amount it discounts. */
export function discountAmount(discount: PricingDiscount, eligibleSubtotal: Minor): Minor {
  if (eligibleSubtotal <= 0) return ZERO;
  const raw =
    discount.kind === 'percent'
      ? mulDivRound(eligibleSubtotal, discount.percentOffBp ?? 0, BASIS_POINTS)
      : (discount.amountOff ?? ZERO);
  return minor(Math.min(raw, eligibleSubtotal));
}

/** Tax on an amount at a rate in parts per million, rounded half up to the minor unit. */
export function taxOn(amount: Minor, ratePpm: number): Minor {
  return ratePpm <= 0 || amount <= 0 ? ZERO : mulDivRound(amount, ratePpm, PPM);
}

/**
 * Prices a cart on the server (and, with the same code, explains figures on the page). Cart-level amounts are
 * computed once and spread over lines by largest remainder, so line parts always sum to the cart's figures.
 */
export function priceCart(input: PricingInput): PricingResult {
  const subtotals = input.lines.map((line) => minor(line.unitPrice * line.quantity));
  const subtotal = sumMinor(subtotals);

  // Discount: computed on the eligible lines together, then allocated in proportion to their subtotals.
  let lineDiscounts = input.lines.map(() => ZERO);
  if (input.discount) {
    const discount = input.discount;
    const weights = input.lines.map((line, i): number =>
      isDiscountEligible(line, discount) ? (subtotals[i] ?? 0) : 0,
    );
    const eligible = minor(weights.reduce((a, b) => a + b, 0));
    const amount = discountAmount(discount, eligible);
    lineDiscounts = amount === 0 ? lineDiscounts : allocate(amount, weights);
  }
  const totalDiscount = sumMinor(lineDiscounts);
  const discounted = subtotals.map((value, i) => minor(value - (lineDiscounts[i] ?? 0)));
  const subtotalItems = minor(subtotal - totalDiscount);

  const lineShipping = input.lines.map((line) => minor(line.shippingPerUnit * line.quantity));
  const totalOfferShipping = sumMinor(lineShipping);

  // Tax on taxable lines after discount, computed on their sum (one rounding), then allocated.
  const taxBases = input.lines.map((line, i): number => (line.taxable ? (discounted[i] ?? 0) : 0));
  const taxBase = minor(taxBases.reduce((a, b) => a + b, 0));
  const totalTax = taxOn(taxBase, input.taxRatePpm);
  const lineTaxes = totalTax === 0 ? input.lines.map(() => ZERO) : allocate(totalTax, taxBases);

  const shipsAnything = input.lines.some((line) => line.shipsWithOrder);
  let totalCampaignShipping = ZERO;
  if (input.shipping && shipsAnything) {
    const free = input.shipping.freeOver !== null && subtotalItems >= input.shipping.freeOver;
    totalCampaignShipping = free ? ZERO : input.shipping.price;
  }

  const beforeGiftCards = minor(subtotalItems + totalOfferShipping + totalCampaignShipping + totalTax);
  const totalGiftCards = minor(Math.min(Math.max(input.giftCards, 0), beforeGiftCards));
  const total = minor(beforeGiftCards - totalGiftCards);

  const lines: PricedLine[] = input.lines.map((line, i) => {
    const discount = lineDiscounts[i] ?? ZERO;
    const shipping = lineShipping[i] ?? ZERO;
    const tax = lineTaxes[i] ?? ZERO;
    const lineSubtotal = subtotals[i] ?? ZERO;
    const total = minor(lineSubtotal - discount + shipping + tax);
    const billingPlan = line.recurring ? linePlan(line, line.recurring, total, input.taxRatePpm) : null;
    const nextCycleTotal = billingPlan ? (planCycle(billingPlan, 2)?.amount ?? null) : null;
    return {
      id: line.id,
      subtotal: lineSubtotal,
      discount,
      shipping,
      tax,
      total,
      nextCycleTotal,
      billingPlan,
    };
  });

  return {
    lines,
    subtotal,
    totalDiscount,
    subtotalItems,
    totalItems: input.lines.reduce((sum, line) => sum + line.quantity, 0),
    totalOfferShipping,
    totalCampaignShipping,
    totalTax,
    totalGiftCards,
    total,
    isRecurring: input.lines.some((line) => line.recurring !== null),
    shipsAnything,
  };
}

/** What a later cycle of a line charges at a unit price: items, offer shipping and tax (a code discounts the order only). */
export function laterCycleTotal(
  line: Pick<PricingLine, 'quantity' | 'taxable' | 'shippingPerUnit'>,
  unitPrice: Minor,
  taxRatePpm: number,
): Minor {
  const items = minor(unitPrice * line.quantity);
  const shipping = minor(line.shippingPerUnit * line.quantity);
  return minor(items + shipping + (line.taxable ? taxOn(items, taxRatePpm) : 0));
}

/**
 * A recurring line's plan in cycle totals: the first cycle is this order's line total; later cycles are priced as
 * laterCycleTotal says, at the discounted or the later-cycle unit price.
 */
function linePlan(
  line: PricingLine,
  recurring: NonNullable<PricingLine['recurring']>,
  firstTotal: Minor,
  taxRatePpm: number,
): BillingPlan {
  const cycles = recurring.cycles;
  const regular = laterCycleTotal(line, recurring.nextUnitPrice, taxRatePpm);
  if (recurring.prepaid) {
    // One payment per period, priced as any later cycle (items, offer shipping, tax).
    return buildPrepaidPlan(
      { ...recurring.prepaid, intervalDays: recurring.intervalDays },
      { first: firstTotal, renewal: regular },
    );
  }
  const discountedUnit = cycles?.discountedUnitPrice ?? null;
  return buildBillingPlan(
    {
      intervalDays: recurring.intervalDays,
      trialDays: cycles?.trialDays ?? null,
      discountedCycles: discountedUnit === null ? null : (cycles?.discountedCycles ?? null),
      totalCycles: cycles?.totalCycles ?? null,
    },
    {
      first: firstTotal,
      discounted: discountedUnit === null ? regular : laterCycleTotal(line, discountedUnit, taxRatePpm),
      regular,
    },
  );
}
