import { describe, expect, it } from 'vitest';
import { useShopperBrowser } from './shopper-browser.js';
import { ADA, ordersOfCart, type AxeViolation } from './checkout-page.js';

// Order bumps on the built page (docs/checkout-rules.md, "Order bumps"): a link for the beans names the mug and the
// guide as bumps; the shopper ticks, unticks and ticks again, and the order records the bump line.

const session = useShopperBrowser();

async function linkWithTwoBumps(publicId: string): Promise<string> {
  const offers = (await session.server.merchant('GET', '/offers?limit=100')).body.data as {
    id: number;
    item_id: string;
  }[];
  const id = (itemId: string) => offers.find((offer) => offer.item_id === itemId)?.id;
  const created = await session.server.merchant('POST', '/checkout-links', {
    public_id: publicId,
    offers: [{ offer_id: id('BEANS-ETH-340') }],
    bump_offer_ids: [id('MUG-350'), id('GUIDE-PDF')],
  });
  expect(created.status).toBe(201);
  return created.body.cart_token as string;
}

const report = (state: string, violations: AxeViolation[]) =>
  violations.map(
    (violation) =>
      `${state}: ${violation.id} (${violation.impact}) ${violation.help} at ${violation.nodes
        .map((node) => node.target.join(' '))
        .join(', ')}`,
  );

describe('order bumps', () => {
  it('ticks a bump (totals change, announced), unticks and ticks again, and orders it as a bump line', async () => {
    const checkout = await session.shopper({ width: 1400, height: 900 });
    await checkout.open(await linkWithTwoBumps('bumps-e2e'));
    const token = checkout.currentToken();
    await checkout.fillContact('ada@example.com');
    await checkout.fillShipping(ADA);
    await checkout.cardReady();
    await checkout.waitForPreview();
    // Austin, Texas: the beans $18.00, tax and standard shipping.
    await checkout.page.getByRole('button', { name: 'Pay $24.49' }).waitFor();

    const mug = checkout.page.getByRole('checkbox', { name: 'Add Stoneware mug for $14.00' });
    const guide = checkout.page.getByRole('checkbox', {
      name: /^Add Home brewing guide \(PDF\) for \$9\.00$/,
    });
    expect(await mug.isChecked()).toBe(false);
    expect(await guide.isChecked()).toBe(false);
    expect(await checkout.page.getByRole('img', { name: 'Stoneware mug' }).count()).toBe(1);
    const before = (await checkout.orderButton().textContent()) ?? '';

    const status = checkout.page.getByRole('status');
    await mug.check();
    await status.filter({ hasText: /^Stoneware mug added to your order\. Total \$\d+\.\d\d\.$/ }).waitFor();
    expect(await checkout.summaryText()).toContain('Stoneware mug');
    const withMug = (await checkout.orderButton().textContent()) ?? '';
    expect(withMug).not.toBe(before);

    await mug.uncheck();
    await status.filter({ hasText: /^Stoneware mug removed from your order\./ }).waitFor();
    expect(await checkout.orderButton().textContent()).toBe(before);
    expect(await checkout.summaryText()).not.toContain('Stoneware mug');

    // The keyboard ticks it as well as the pointer.
    await mug.focus();
    await checkout.page.keyboard.press('Space');
    await status.filter({ hasText: /^Stoneware mug added to your order\./ }).waitFor();
    expect(await mug.isChecked()).toBe(true);
    expect(await mug.evaluate((box: any) => box === box.ownerDocument.activeElement)).toBe(true);
    expect(await checkout.orderButton().textContent()).toBe(withMug);

    const found = report('1400px payment with a bump', await checkout.axe());
    await checkout.page.setViewportSize({ width: 375, height: 800 });
    await checkout.button(/Show order summary/).click();
    found.push(...report('375px payment with a bump', await checkout.axe()));
    expect(found).toEqual([]);

    await checkout.fillCard('4111 1111 1111 1111');
    await checkout.orderButton().click();
    await checkout.confirmation();
    expect(await checkout.page.locator('.confirmation').innerText()).toContain('Stoneware mug');

    const [order] = await ordersOfCart(session.server, token);
    expect(order.status).toBe('complete');
    expect(
      order.lines.map((line: { item_name: string; is_bump: boolean; total: number }) => [
        line.item_name,
        line.is_bump,
      ]),
    ).toEqual([
      ['Ethiopia Yirgacheffe coffee beans', false],
      ['Stoneware mug', true],
    ]);
  });
});
