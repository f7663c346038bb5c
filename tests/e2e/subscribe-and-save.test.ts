import { describe, expect, it } from 'vitest';
import { useShopperBrowser } from './shopper-browser.js';
import { ADA, ordersOfCart, type AxeViolation } from './checkout-page.js';

// Subscribe and save on the built page (docs/checkout-rules.md, "Subscribe and save"): a one-off line the shopper
// turns into a subscription at a percent off, with what the page says following the server's answer.

const session = useShopperBrowser();

let teaOfferId: number | null = null;

/** Green tea at $19.95, which may be subscribed to every 30 days at 10 % off ($17.95). */
async function teaOffer(): Promise<number> {
  if (teaOfferId === null) {
    const created = await session.server.merchant('POST', '/offers', {
      offer_name: 'Tea',
      item_id: 'TEA-100',
      item_name: 'Sencha green tea',
      price: 19.95,
      is_taxable: false,
      requires_shipping: false,
      subscribe_and_save: { interval_days: 30, percent_off: 10 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    teaOfferId = created.body.id as number;
  }
  return teaOfferId;
}

/** A cart of one green tea. */
async function teaCart(): Promise<string> {
  const cart = await session.server.merchant('POST', '/carts', { offers: [{ offer_id: await teaOffer() }] });
  expect(cart.status).toBe(201);
  return cart.body.cart_token as string;
}

const axeReport = (state: string, violations: AxeViolation[]) =>
  violations.map((violation) => `${state}: ${violation.id} ${violation.help}`);

describe('subscribe and save', () => {
  it('turns a line into a subscription: totals, terms box and confirmation follow', async () => {
    const checkout = await session.shopper({ width: 1400, height: 900 });
    const token = await teaCart();
    await checkout.open(token);
    const group = checkout.page.getByRole('group', { name: 'How to buy Sencha green tea' });
    const once = group.getByRole('radio', { name: /^Buy once/ });
    const subscribe = group.getByRole('radio', { name: /^Subscribe every 30 days and save 10 %/ });
    await group.waitFor();
    expect(await once.isChecked()).toBe(true);
    expect(await group.innerText()).toMatch(/Buy once\s*\$19\.95[\s\S]*save 10 %\s*\$17\.95/);
    expect(await checkout.summaryText()).not.toMatch(/then \$[\d.]+ every 30 days/);
    const axe = axeReport('1400px bought once', await checkout.axe());

    await subscribe.check();
    await checkout.page
      .getByRole('status')
      .filter({ hasText: 'Sencha green tea: subscribed every 30 days at $17.95. Total today $17.95.' })
      .waitFor();
    expect(await subscribe.isChecked()).toBe(true);
    expect(await checkout.summaryText()).toMatch(/Today \$17\.95, then \$17\.95 every 30 days/);
    axe.push(...axeReport('1400px subscribed', await checkout.axe()));
    expect(axe).toEqual([]);

    await checkout.fillContact('ada@example.com');
    // Nothing ships: the billing address comes next.
    await checkout.fillAddress(ADA);
    await checkout.button(/^Continue to /).click();
    await checkout.fillCard('4111 1111 1111 1111');
    const button = checkout.button(/^Start subscription · \$17\.95/);
    await button.click();
    await checkout.page
      .getByText('Agree to the subscription terms to start your subscription.')
      .first()
      .waitFor();
    await checkout.page.getByLabel(/I agree that my payment method will be charged automatically/).check();
    await button.click();
    await checkout.confirmation();
    await checkout.page.getByText(/next charge of \$17\.95 on .*then every 30 days/).waitFor();
    expect(await checkout.page.getByText('Subscribed: every 30 days, 10 % off').count()).toBe(1);

    const [order] = await ordersOfCart(session.server, token);
    expect(order).toMatchObject({ status: 'complete', total: 17.95 });
    expect(order.lines[0]).toMatchObject({
      unit_price: 17.95,
      is_recurring: true,
      subscribe_and_save: true,
      subscribe_and_save_percent_off: 10,
    });
    expect(order.subscription_ids).toHaveLength(1);
  });

  it('is chosen from the keyboard on a 375 px phone, and has no axe violations there', async () => {
    const checkout = await session.shopper({ width: 375, height: 800 });
    await checkout.open(await teaCart());
    await checkout.button(/Show order summary/).click();
    const group = checkout.page.getByRole('group', { name: 'How to buy Sencha green tea' });
    await group.waitFor();
    const axe = axeReport('375px bought once', await checkout.axe());
    await group.getByRole('radio', { name: /^Buy once/ }).focus();
    await checkout.page.keyboard.press('ArrowDown');
    await checkout.page
      .getByRole('status')
      .filter({ hasText: /subscribed every 30 days at \$17\.95/ })
      .waitFor();
    expect(await group.getByRole('radio', { name: /^Subscribe every/ }).isChecked()).toBe(true);
    // Focus stays on the group for the next choice.
    expect(await checkout.page.evaluate('document.activeElement?.getAttribute("type")')).toBe('radio');
    axe.push(...axeReport('375px subscribed', await checkout.axe()));
    await checkout.page.keyboard.press('ArrowUp');
    await checkout.page
      .getByRole('status')
      .filter({ hasText: /bought once at \$19\.95/ })
      .waitFor();
    expect(axe).toEqual([]);
  });

  it("opens a link's preset subscribed, and the subscriber's page says the saving", async () => {
    const link = await session.server.merchant('POST', '/checkout-links', {
      public_id: 'save-preset-e2e',
      offers: [{ offer_id: await teaOffer(), subscribe: true }],
    });
    expect(link.status, JSON.stringify(link.body)).toBe(201);
    const checkout = await session.shopper({ width: 1400, height: 900 });
    await checkout.open('__c__save-preset-e2e');
    const group = checkout.page.getByRole('group', { name: 'How to buy Sencha green tea' });
    await group.waitFor();
    expect(
      await group.getByRole('radio', { name: /^Subscribe every 30 days and save 10 %/ }).isChecked(),
    ).toBe(true);
    expect(await checkout.summaryText()).toMatch(/Today \$17\.95, then \$17\.95 every 30 days/);

    await checkout.fillContact('ada@example.com');
    await checkout.fillAddress(ADA);
    await checkout.button(/^Continue to /).click();
    await checkout.fillCard('4111 1111 1111 1111');
    // The subscription-terms box is there without the shopper choosing anything.
    const terms = checkout.page.getByLabel(/I agree that my payment method will be charged automatically/);
    await terms.check();
    await checkout.button(/^Start subscription · \$17\.95/).click();
    const orderNumber = await checkout.confirmation();

    const order = (await session.server.merchant('GET', `/orders/${orderNumber}`)).body;
    expect(order.lines[0]).toMatchObject({ unit_price: 17.95, subscribe_and_save: true });
    const manage = await session.server.merchant(
      'POST',
      `/subscriptions/${order.subscription_ids[0]}/manage-link`,
      {},
    );
    expect(manage.status).toBe(200);
    await checkout.page.goto(manage.body.url as string);
    await checkout.page.getByRole('heading', { name: 'Your subscription' }).waitFor();
    const saving = checkout.page.locator('[data-saving]');
    expect(await saving.innerText()).toBe(
      'Subscribe and save. You save 10 % on every delivery: $17.95 instead of $19.95, every 30 days.',
    );
    expect(axeReport('self-service', await checkout.axe())).toEqual([]);
  });
});
