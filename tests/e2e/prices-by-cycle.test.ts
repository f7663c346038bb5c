import { describe, expect, it } from 'vitest';
import { useShopperBrowser } from './shopper-browser.js';
import { ADA, digitsOf, ordersOfCart, type AxeViolation } from './checkout-page.js';

// A trial offer on the built page (docs/subscriptions.md, "Prices by cycle"): the summary and the terms box say what
// is charged today and after, in the server's words, and the merchant API agrees with what the page said.

const session = useShopperBrowser();

const PLAN_WORDS =
  '$1.00 today for 14 days, then $19.99 every 30 days for 2 payments, then $29.99 every 30 days for 9 payments; 12 payments in all';

function report(state: string, violations: AxeViolation[]) {
  return violations.map(
    (violation) =>
      `${state}: ${violation.id} (${violation.impact}) ${violation.help} at ${violation.nodes
        .map((node) => node.target.join(' '))
        .join(', ')}`,
  );
}

describe('a trial offer', () => {
  it("shows today's and later charges in the summary and the terms, and charges what it said", async () => {
    const created = await session.server.merchant('POST', '/offers', {
      offer_name: 'Club trial',
      item_id: 'CLUB-TRIAL',
      item_name: 'Coffee club trial',
      price: 1,
      is_recurring: true,
      billing_interval_days: 30,
      next_price: 29.99,
      trial_days: 14,
      discounted_cycles: 2,
      discounted_price: 19.99,
      total_cycles: 12,
      is_taxable: false,
    });
    expect(created.status).toBe(201);
    const found: string[] = [];
    let orderedToken = '';
    for (const viewport of [
      { width: 375, height: 800 },
      { width: 1400, height: 900 },
    ]) {
      const checkout = await session.shopper(viewport);
      const token = await session.server.newCart([{ item_id: 'CLUB-TRIAL' }]);
      await checkout.open(token);
      if (viewport.width < 768) await checkout.button(/Show order summary/).click();
      const summary = checkout.page.getByRole('complementary', { name: 'Order summary' });
      await summary.getByText(`Coffee club trial: ${PLAN_WORDS}`).waitFor();
      // Not the interval's sum the page says of a plain subscription: that would be untrue after the trial.
      expect(await summary.textContent()).not.toMatch(/then \$19\.99 every 30 days$/);

      await checkout.fillContact('grace@example.com');
      await checkout.fillShipping({ ...ADA, fname: 'Grace', lname: 'Hopper' });
      const terms = checkout.page.locator('.place-order .billing-plans__terms').first();
      await terms.waitFor();
      expect(await terms.textContent()).toBe(`What you agree to be charged:Coffee club trial: ${PLAN_WORDS}`);
      found.push(...report(`${viewport.width}px payment`, await checkout.axe()));
      if (viewport.width < 1400) continue;

      const total = await checkout.page.locator('.summary__row--total dd').first().textContent();
      await checkout.page
        .getByText(`Today $${(Number(digitsOf(total ?? '')) / 100).toFixed(2)} in all.`)
        .first()
        .waitFor();
      await checkout.fillCard('4111 1111 1111 1111');
      await checkout.page.getByLabel(/I agree that my payment method will be charged automatically/).check();
      await checkout.button(/^Start subscription · \$/).click();
      await checkout.confirmation();
      await checkout.page.getByText(`Coffee club trial: ${PLAN_WORDS}`).first().waitFor();
      found.push(...report(`${viewport.width}px confirmation`, await checkout.axe()));
      orderedToken = token;
    }
    expect(found).toEqual([]);

    const [order] = await ordersOfCart(session.server, orderedToken);
    expect(order.lines[0].billing_plan.description).toBe(PLAN_WORDS);
    const subscription = (await session.server.merchant('GET', `/subscriptions/${order.subscription_ids[0]}`))
      .body;
    expect(subscription).toMatchObject({
      cycle: 1,
      cycle_amount: 19.99,
      next_cycle: { cycle: 2, amount: 19.99, interval_days: 30, is_last: false },
    });
    const days =
      (new Date(subscription.next_charge_at).getTime() - new Date(order.completed_at).getTime()) / 86_400_000;
    expect(Math.round(days)).toBe(14);
  }, 40_000);
});
