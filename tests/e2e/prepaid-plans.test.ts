import { describe, expect, it } from 'vitest';
import { useShopperBrowser } from './shopper-browser.js';
import { ADA, ordersOfCart } from './checkout-page.js';

// A prepaid plan on the built page (docs/subscriptions.md, "Prepaid plans"): the summary, the terms box and the
// confirmation say one payment for the period, shipped monthly, and the next charge at the end of the period.

const session = useShopperBrowser();

// Not taxable, no offer shipping: the line is the price of the period.
const WORDS = '3 months for $89.97, shipped monthly; renews every 3 months at $84.00';

describe('a prepaid plan', () => {
  it('says the prepaid period and its renewal where plan words show, and charges once', async () => {
    const created = await session.server.merchant('POST', '/offers', {
      offer_name: 'Club, 3 months',
      item_id: 'CLUB-PREPAID',
      item_name: 'Coffee club',
      price: 89.97,
      next_price: 84,
      is_recurring: true,
      billing_interval_days: 30,
      prepaid_cycles: 3,
      is_taxable: false,
    });
    expect(created.status).toBe(201);
    const checkout = await session.shopper({ width: 1400, height: 900 });
    const token = await session.server.newCart([{ item_id: 'CLUB-PREPAID' }]);
    await checkout.open(token);
    const summary = checkout.page.getByRole('complementary', { name: 'Order summary' });
    await summary.getByText(`Coffee club: ${WORDS}`).waitFor();
    // Not "every 30 days" at the period's price: that would be untrue.
    expect(await summary.textContent()).not.toMatch(/every 30 days/);

    await checkout.fillContact('grace@example.com');
    await checkout.fillShipping({ ...ADA, fname: 'Grace', lname: 'Hopper' });
    const terms = checkout.page.locator('.place-order .billing-plans__terms').first();
    await terms.waitFor();
    expect(await terms.textContent()).toBe(`What you agree to be charged:Coffee club: ${WORDS}`);
    expect(await checkout.axe()).toEqual([]);

    await checkout.fillCard('4111 1111 1111 1111');
    await checkout.page.getByLabel(/I agree that my payment method will be charged automatically/).check();
    await checkout.button(/^Start subscription · \$/).click();
    await checkout.confirmation();
    await checkout.page
      .getByText(/Coffee club: next charge of \$84\.00 on .+, then every 90 days\./)
      .waitFor();
    expect(await checkout.axe()).toEqual([]);

    const [order] = await ordersOfCart(session.server, token);
    expect(order.total).toBe(89.97);
    expect(order.lines[0].billing_plan.description).toBe(WORDS);
  }, 40_000);
});
