// A checkout link's preview (docs/api.md, "Checkout link preview"): the checkout a visit opens now, priced by the
// checkout's own pricing (priceCartState) on the lines and code a visit would put in its cart, with no cart made.
import type { CheckoutLinkPreview } from '../../../contract/checkout-link-preview.js';
import { describeBillingPlan, describeLaterCycles, hasSpecialCycles } from '../../../domain/billing-plan.js';
import type { Queryable } from '../../platform/db/database.js';
import { notFound } from '../../platform/errors.js';
import { iso, major } from '../../platform/http/money-input.js';
import { priceCartState, sayNotice } from '../carts/cart-pricing.js';
import { DEFAULT_LANGUAGE } from '../../../i18n/languages.js';
import type { CartRow } from '../carts/carts-repository.js';
import type { CartState } from '../carts/cart-state.js';
import type { OrganizationRow } from '../organizations/organizations-repository.js';
import { presentCheckoutLink } from './checkout-link-service.js';
import { codeNoticeForMerchant, linkClosedReason } from './checkout-link-preview-rules.js';
import { findCheckoutLink } from './checkout-links-repository.js';
import { lineOf, previewBumps, previewUpsells } from './checkout-link-preview-funnel.js';
import { findDiscountCodeByCode } from './discount-codes-repository.js';
import { findOffers, type OfferRow } from './offers-repository.js';
import { wordsFor } from '../../i18n/translator.js';

export const ADDRESS_NOTE =
  "Shipping and tax depend on the shopper's address: the checkout adds the shipping method's price and the tax " +
  'for the address they give, so the amounts here are before both.';

export async function previewCheckoutLink(
  db: Queryable,
  organization: OrganizationRow,
  id: number,
  publicUrl: string,
  now: Date,
): Promise<CheckoutLinkPreview> {
  const link = await findCheckoutLink(db, organization.id, id);
  if (!link) throw notFound('checkout_link_not_found', `There is no checkout link ${id}.`);
  const offers = new Map(
    (
      await findOffers(
        db,
        organization.id,
        link.offers.map((line) => line.offer_id),
      )
    ).map((offer) => [offer.id, offer]),
  );
  // Offers retired since the link was made are left out of the cart a visit makes (cartFromLink).
  const kept = link.offers.filter((line) => offers.get(line.offer_id)?.active);
  const leftOut = link.offers
    .filter((line) => !offers.get(line.offer_id)?.active)
    .map((line) => ({
      offer_id: line.offer_id,
      offer_name: offers.get(line.offer_id)?.offer_name ?? '',
      reason: 'Its offer is not active, so the checkout leaves it out.',
    }));
  const code = link.discount_code
    ? await findDiscountCodeByCode(db, organization.id, link.discount_code)
    : null;
  const presented = presentCheckoutLink(link, publicUrl);
  const lines = kept.map((line, index) => lineOf(offers.get(line.offer_id) as OfferRow, index, line));
  const cart: CartRow = {
    id: 0,
    organization_id: organization.id,
    token: presented.cart_token,
    source: 'link',
    customer_id: null,
    discount_code_id: code?.id ?? null,
    shipping_profile_id: null,
    checkout_link_id: link.id,
    gift_claim_id: null,
    preview: null,
    is_test: false,
    language: null,
    expires_at: null,
    ordered_at: null,
    created_at: now,
    updated_at: now,
  };
  const state: CartState = {
    cart,
    organization,
    lines,
    discountCode: code,
    customer: null,
    addresses: [],
    order: null,
    lastPaymentMethod: null,
    giftFrom: null,
    // The preview prices the link's own lines: its bumps are unticked boxes until a shopper ticks one.
    linkBumpOfferIds: link.bump_offer_ids,
    bumpOffers: [],
  };
  // No address: the shipping method and tax wait for the shopper's, as on the checkout before it is given.
  const pricing = await priceCartState(db, state, { address: null, requestedProfileId: null, now });
  const { result } = pricing;
  const currency = organization.currency;
  const money = (amount: number) => major(amount, currency);

  const bumps = await previewBumps(db, state, link);
  const upsells = await previewUpsells(db, state, link, now);

  const closedReason = linkClosedReason(
    {
      active: link.active,
      expires_at: link.expires_at === null ? null : new Date(link.expires_at),
      activeLines: kept.length,
    },
    now,
  );
  // The merchant's dashboard speaks English (docs/languages.md).
  const english = wordsFor('en');
  const laterCharges = lines.flatMap((line) => {
    const priced = result.lines.find((entry) => entry.id === line.id);
    if (!priced || priced.nextCycleTotal === null || line.billing_interval_days === null) return [];
    // A prepaid plan's later charge is the next whole period's (docs/subscriptions.md, "Prepaid plans").
    const plan = priced.billingPlan;
    const prepaid = plan?.prepaid;
    return [
      {
        offer_id: line.offer_id,
        item_name: line.item_name,
        amount: money(priced.nextCycleTotal),
        interval_days: prepaid ? prepaid.cycles * prepaid.intervalDays : line.billing_interval_days,
        plan_description:
          plan && prepaid
            ? describeBillingPlan(plan, currency, english)
            : priced.billingPlan && hasSpecialCycles(priced.billingPlan)
              ? `from day ${priced.billingPlan.phases[0]?.days ?? line.billing_interval_days}: ` +
                describeLaterCycles(priced.billingPlan, currency, english)
              : null,
      },
    ];
  });

  return {
    checkout_link_id: link.id,
    checkout_url: presented.checkout_url,
    currency,
    opens_checkout: closedReason === null,
    closed_reason: closedReason,
    lines: lines.map((line) => {
      const priced = result.lines.find((entry) => entry.id === line.id);
      return {
        offer_id: line.offer_id,
        offer_name: line.offer_name,
        item_name: line.item_name,
        quantity: line.quantity,
        is_gift: line.is_gift,
        unit_price: money(line.price),
        subtotal: money(priced?.subtotal ?? 0),
        discount: money(priced?.discount ?? 0),
        shipping: money(priced?.shipping ?? 0),
        total: money(priced?.total ?? 0),
        is_recurring: line.is_recurring,
        billing_interval_days: line.is_recurring ? line.billing_interval_days : null,
        next_cycle_total:
          priced?.nextCycleTotal === undefined || priced.nextCycleTotal === null
            ? null
            : money(priced.nextCycleTotal),
      };
    }),
    left_out: leftOut,
    discount_code: code?.code ?? link.discount_code,
    discount_applied: pricing.discountApplied,
    discount_notice: codeNoticeForMerchant(
      link.discount_code,
      code !== null,
      pricing.discountNotice && sayNotice(pricing.discountNotice, DEFAULT_LANGUAGE),
    ),
    subtotal: money(result.subtotal),
    total_discount: money(result.totalDiscount),
    total_offer_shipping: money(result.totalOfferShipping),
    due_today: money(result.total),
    later_charges: laterCharges,
    bumps: bumps.bumps,
    bumps_from: bumps.from,
    upsells,
    address_note: ADDRESS_NOTE,
    priced_at: iso(now),
  };
}
