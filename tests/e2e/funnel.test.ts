import { describe, expect, it } from 'vitest';
import { ADA } from './checkout-page.js';
import { useShopperBrowser } from './shopper-browser.js';

// Every funnel lever in one shopper's order (docs/api.md, "Prices by cycle", "Subscribe and save", "Order bumps",
// "Upsells"): a trial line, a one-off line bought on subscribe and save, a ticked bump, an upsell accepted and the next
// one and its downsell declined; the confirmation and the merchant API agree to the cent.

const session = useShopperBrowser();

const cents = (amount: number) => Math.round(amount * 100);
const dollars = (amountInCents: number) => `$${(amountInCents / 100).toFixed(2)}`;

describe('a funnel with every lever', () => {
  it('takes a trial, subscribes and saves on another line, ticks a bump and accepts one upsell', async () => {
    const { server } = session;
    const created = async (pathname: string, body: unknown) => {
      const answer = await server.merchant('POST', pathname, body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      return answer.body as { id: number };
    };
    const trial = await created('/offers', {
      offer_name: 'Club trial',
      item_name: 'Coffee club',
      price: 1,
      is_recurring: true,
      billing_interval_days: 30,
      next_price: 29.99,
      trial_days: 14,
      discounted_cycles: 2,
      discounted_price: 19.99,
    });
    const tea = await created('/offers', {
      offer_name: 'Tea',
      item_name: 'Sencha green tea',
      price: 19.95,
      subscribe_and_save: { interval_days: 30, percent_off: 10 },
    });
    const mug = await created('/offers', {
      offer_name: 'Mug',
      item_name: 'Stoneware mug',
      price: 14,
      bump_text: 'Keeps your coffee hot for an hour.',
    });
    const grinder = await created('/offers', { offer_name: 'Grinder', item_name: 'Burr grinder', price: 40 });
    const scale = await created('/offers', { offer_name: 'Scale', item_name: 'Coffee scale', price: 24 });
    const filters = await created('/offers', { offer_name: 'Filters', item_name: 'Paper filters', price: 6 });
    await created('/checkout-links', {
      public_id: 'funnel-walk',
      offers: [{ offer_id: trial.id }, { offer_id: tea.id }],
      bump_offer_ids: [mug.id],
      upsells: [
        { offer_id: grinder.id, downsell_offer_id: null },
        { offer_id: scale.id, downsell_offer_id: filters.id },
      ],
    });

    const checkout = await session.shopper({ width: 1400, height: 900 });
    await checkout.open('__c__funnel-walk');
    const status = checkout.page.getByRole('status');
    await checkout.page
      .getByRole('group', { name: 'How to buy Sencha green tea' })
      .getByRole('radio', { name: /^Subscribe every 30 days and save 10 %/ })
      .check();
    await status.filter({ hasText: /Sencha green tea/ }).waitFor();
    await checkout.fillContact('ada@example.com');
    await checkout.fillShipping(ADA);
    await checkout.cardReady();
    await checkout.waitForPreview();
    await checkout.page.getByRole('checkbox', { name: 'Add Stoneware mug for $14.00' }).check();
    await status.filter({ hasText: /^Stoneware mug added to your order\./ }).waitFor();
    await checkout.waitForPreview();
    expect(await checkout.axe()).toEqual([]);

    // What the page says it charges today, before the shopper pays.
    const payLabel = (await checkout.orderButton().textContent()) ?? '';
    const today = /\$(\d+\.\d\d)/.exec(payLabel)?.[1];
    expect(today, payLabel).toBeDefined();
    await checkout.fillCard('4111 1111 1111 1111');
    await checkout.page.getByLabel(/I agree that my payment method will be charged automatically/).check();
    await checkout.orderButton().click();

    await checkout.page.getByRole('heading', { name: 'Burr grinder' }).waitFor();
    const upsellPrice = (await checkout.page.locator('.upsell__price').innerText()).trim();
    await checkout.button('Yes, add it').click();
    await checkout.page.getByRole('heading', { name: 'Coffee scale' }).waitFor();
    await checkout.button('No, thanks').click();
    await checkout.page.getByRole('heading', { name: 'Paper filters' }).waitFor();
    await checkout.button('No, thanks').click();
    const orderNumber = await checkout.confirmation();
    expect(await checkout.axe()).toEqual([]);

    const first = (await server.merchant('GET', `/orders/${orderNumber}`)).body;
    expect(cents(first.total)).toBe(cents(Number(today)));
    const byItem = Object.fromEntries(
      (first.lines as { item_name: string }[]).map((line) => [line.item_name, line]),
    ) as Record<string, any>;
    expect(Object.keys(byItem).sort()).toEqual(['Coffee club', 'Sencha green tea', 'Stoneware mug']);
    expect(byItem['Coffee club']).toMatchObject({ unit_price: 1, is_recurring: true, is_bump: false });
    expect(byItem['Coffee club'].billing_plan.description).toMatch(
      // With the address's tax: $1.00, $19.99 and $29.99 before it.
      /^\$1\.08 today for 14 days, then \$21\.64 every 30 days for 2 payments, then \$32\.46 every 30 days$/,
    );
    expect(byItem['Sencha green tea']).toMatchObject({
      unit_price: 17.95,
      is_recurring: true,
      subscribe_and_save: true,
      subscribe_and_save_percent_off: 10,
    });
    expect(byItem['Stoneware mug']).toMatchObject({ unit_price: 14, is_bump: true, is_recurring: false });
    // The order's total is its lines' and its shipping method's, to the cent.
    const linesTotal = (first.lines as { total: number }[]).reduce((sum, line) => sum + cents(line.total), 0);
    expect(linesTotal + cents(first.total_campaign_shipping)).toBe(cents(first.total));

    expect(first.upsell_steps.map((step: { status: string }) => step.status)).toEqual([
      'accepted',
      'declined',
      'declined',
    ]);
    const linked = (await server.merchant('GET', `/orders/${first.linked_orders[0].order_id}`)).body;
    expect(linked).toMatchObject({ parent_order_id: orderNumber, status: 'complete' });
    expect(linked.lines).toEqual([expect.objectContaining({ item_name: 'Burr grinder', quantity: 1 })]);
    expect(upsellPrice.startsWith(dollars(cents(linked.total)))).toBe(true);

    // Two subscriptions: the trial's next charge is its first discounted cycle, in 14 days; the tea's its saved price.
    const subscriptions = await Promise.all(
      (first.subscription_ids as number[]).map(
        async (id) => (await server.merchant('GET', `/subscriptions/${id}`)).body,
      ),
    );
    const club = subscriptions.find((subscription) => subscription.offer_id === trial.id);
    const saved = subscriptions.find((subscription) => subscription.offer_id === tea.id);
    expect(club?.next_cycle).toMatchObject({ cycle: 2, interval_days: 30 });
    const discountedPhase = byItem['Coffee club'].billing_plan.phases[1];
    expect(discountedPhase).toMatchObject({ cycles: 2 });
    expect(cents(club?.next_cycle.amount)).toBe(cents(discountedPhase.amount));
    const days =
      (new Date(club?.next_charge_at).getTime() - new Date(first.completed_at).getTime()) / 86_400_000;
    expect(Math.round(days)).toBe(14);
    expect(saved).toMatchObject({ subscribe_and_save: true, interval_days: 30 });
    expect(cents(saved?.cycle_amount)).toBe(cents(byItem['Sencha green tea'].next_cycle_total));

    // The confirmation lists both orders and their sum, as the merchant API has them.
    const also = checkout.page.getByRole('region', { name: 'Also ordered' });
    await also
      .getByText(`Order #${linked.order_id}: Burr grinder, ${dollars(cents(linked.total))} charged`)
      .waitFor();
    await also
      .getByText(`Total of your orders: ${dollars(cents(first.total) + cents(linked.total))}`)
      .waitFor();
  }, 60_000);
});
