import { describe, expect, it } from 'vitest';
import { useShopperBrowser } from './shopper-browser.js';
import { ADA } from './checkout-page.js';

// One-click upsells after the purchase (docs/api.md, "Upsells"): the offer, then its downsell, then the confirmation
// listing everything bought, as the merchant API has it, to the cent.

const session = useShopperBrowser();

describe('one-click upsells after the order', () => {
  it('adds the upsell without a card typed, declines the downsell, and lists both orders', async () => {
    const { server } = session;
    const created = async (pathname: string, body: unknown) => {
      const answer = await server.merchant('POST', pathname, body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      return answer.body;
    };
    const offers = (await server.merchant('GET', '/offers?limit=100')).body.data as {
      id: number;
      item_id: string;
    }[];
    const beans = offers.find((offer) => offer.item_id === 'BEANS-ETH-340');
    const grinder = await created('/offers', {
      offer_name: 'Grinder',
      offer_title: 'Grinds for every brew, 40 settings.',
      item_name: 'Burr grinder',
      item_image: 'https://cdn.example.com/grinder.png',
      price: 40,
    });
    const scale = await created('/offers', { offer_name: 'Scale', item_name: 'Coffee scale', price: 24 });
    const filters = await created('/offers', { offer_name: 'Filters', item_name: 'Paper filters', price: 6 });
    // Accepting the grinder moves to the scale; declining the scale shows its downsell, the filters.
    await created('/checkout-links', {
      public_id: 'upsell-walk',
      offers: [{ offer_id: beans?.id }],
      upsells: [
        { offer_id: grinder.id, downsell_offer_id: null },
        { offer_id: scale.id, downsell_offer_id: filters.id },
      ],
    });

    const checkout = await session.shopper({ width: 1400, height: 900 });
    await checkout.open('__c__upsell-walk');
    const token = checkout.currentToken();
    await checkout.fillContact('ada@example.com');
    await checkout.fillShipping(ADA);
    await checkout.fillCard('4111 1111 1111 1111');
    await checkout.orderButton().click();

    // The offer first, its heading focused, its countdown in words.
    const offer = checkout.page.getByRole('heading', { name: 'Burr grinder' });
    await offer.waitFor();
    // Runs in the page (no DOM types in the Node test build).
    expect(await offer.evaluate((node) => node === (globalThis as any).document.activeElement)).toBe(true);
    await checkout.page.getByRole('img', { name: 'Burr grinder' }).waitFor();
    await checkout.page.getByText(/Offer ends in \d+:\d\d/).waitFor();
    const price = (await checkout.page.locator('.upsell__price').innerText()).trim();
    expect(price).toMatch(/^\$\d+\.\d\d charged today to the card you just used/);
    expect(await checkout.axe()).toEqual([]);
    await checkout.page.setViewportSize({ width: 375, height: 800 });
    expect(await checkout.axe()).toEqual([]);

    // A double click sends one accept.
    const accepts: string[] = [];
    checkout.page.on('request', (request) => {
      if (request.url().endsWith('/upsell/accept')) accepts.push(request.url());
    });
    await checkout.button('Yes, add it').dblclick();
    await checkout.page.getByRole('heading', { name: 'Coffee scale' }).waitFor();
    expect(accepts).toHaveLength(1);
    await checkout.button('No, thanks').click();
    await checkout.page.getByRole('heading', { name: 'Paper filters' }).waitFor();
    await checkout.page.getByText('Before you go, one more offer:', { exact: false }).waitFor();
    await checkout.button('No, thanks').click();

    const orderNumber = await checkout.confirmation();
    const first = (await server.merchant('GET', `/orders/${orderNumber}`)).body;
    expect(first.upsell_steps.map((step: { status: string }) => step.status)).toEqual([
      'accepted',
      'declined',
      'declined',
    ]);
    expect(first.linked_orders).toHaveLength(1);
    const linked = (await server.merchant('GET', `/orders/${first.linked_orders[0].order_id}`)).body;
    expect(linked).toMatchObject({
      parent_order_id: orderNumber,
      status: 'complete',
      cart_token: expect.any(String),
    });
    expect(linked.lines).toEqual([expect.objectContaining({ item_name: 'Burr grinder', quantity: 1 })]);
    expect(first.cart_token).toBe(token);

    const also = checkout.page.getByRole('region', { name: 'Also ordered' });
    const cents = (amount: number) => `$${amount.toFixed(2)}`;
    await also.getByText(`Order #${linked.order_id}: Burr grinder, ${cents(linked.total)} charged`).waitFor();
    expect(price.startsWith(cents(linked.total))).toBe(true);
    const all = Math.round(first.total * 100) + Math.round(linked.total * 100);
    await also.getByText(`Total of your orders: ${cents(all / 100)}`).waitFor();
    expect(await checkout.axe()).toEqual([]);
  }, 40_000);
});
