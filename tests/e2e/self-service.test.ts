import { describe, expect, it } from 'vitest';
import { orderBody } from '../helpers/order-body.js';
import { shopperSession } from '../helpers/shopper.js';
import type { CheckoutPage } from './checkout-page.js';
import { useShopperBrowser } from './shopper-browser.js';

// The subscriber's self-service page (docs/subscriptions.md, "Self-service") in Debian's Chromium against the built
// server: a link the merchant makes, the subscription as the page shows it, pause, resume, a new card typed into the
// test processor's frame, and a cancel behind its confirmation; axe finds nothing at 1400 and at 375 px.

const session = useShopperBrowser();

/** A subscriber of the demo store's coffee club, through the shopper API of the same server. */
async function subscribe(): Promise<number> {
  const { server } = session;
  const cart = await server.newCart([{ item_id: 'CLUB-2' }]);
  const shopper = await shopperSession(server.app, 'demo');
  await shopper.get(`carts/${cart}/preview`, { ship_country: 'US', ship_state: 'TX' });
  const placed = await shopper.post('orders', orderBody(cart, { subscription_terms_accepted: true }));
  expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  const order = await server.merchant('GET', `/orders/${placed.body.order.order_id}`);
  return order.body.subscription_ids[0] as number;
}

async function manageLink(id: number): Promise<string> {
  const link = await session.server.merchant('POST', `/subscriptions/${id}/manage-link`, {});
  expect(link.status).toBe(200);
  return link.body.url as string;
}

async function open(page: CheckoutPage, url: string): Promise<void> {
  await page.page.goto(url);
  await page.page.getByRole('heading', { name: 'Your subscription' }).waitFor();
}

/** Clicks a button and waits for the result it announces, which takes the focus. */
async function act(page: CheckoutPage, button: string | RegExp, expected: RegExp): Promise<void> {
  await page.button(button).click();
  const result = page.page.locator('[data-result]');
  await result.filter({ hasText: expected }).waitFor();
  expect(await result.evaluate((element) => element === (element as any).ownerDocument.activeElement)).toBe(
    true,
  );
  await expect
    .poll(() => page.page.locator('[role="status"][aria-live="polite"]').innerText())
    .toMatch(expected);
}

const summary = (violations: { id: string; nodes: { target: string[] }[] }[]) =>
  violations.map(
    (violation) => `${violation.id} ${violation.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );

describe('the self-service page', () => {
  it('shows the subscription and lets the subscriber pause, resume, update the card and cancel', async () => {
    const id = await subscribe();
    const page = await session.shopper({ width: 1400, height: 900 });
    await open(page, await manageLink(id));
    await page.page.getByRole('heading', { name: 'Coffee club subscription' }).waitFor();
    expect(await page.page.locator('.manage__facts').innerText()).toMatch(/\$27\.06 every month/);
    expect(summary(await page.axe())).toEqual([]);

    await act(page, 'Pause subscription', /is paused/);
    expect(await page.page.locator('.manage__status').innerText()).toMatch(/^Paused/);
    expect((await session.server.merchant('GET', `/subscriptions/${id}`)).body).toMatchObject({
      status: 'paused',
      changed_by: 'subscriber',
    });
    await act(page, 'Resume subscription', /active again/);

    await page.button('Update card').click();
    await expect
      .poll(() => page.page.evaluate(() => (globalThis as any).document.activeElement?.textContent))
      .toBe('Update your card');
    await page.cardReady();
    await page.fillCard('5555 5555 5555 4444', '11 / 31', '123');
    expect(summary(await page.axe())).toEqual([]);
    await act(page, 'Save card', /new card is saved: Mastercard ending in 4444/);
    expect((await session.server.merchant('GET', `/subscriptions/${id}`)).body.payment_method).toMatchObject({
      card_brand: 'mastercard',
      card_last4: '4444',
    });

    await page.button('Cancel subscription').click();
    const question = page.page.getByRole('heading', { name: 'Cancel your subscription?' });
    await question.waitFor();
    expect(
      await question.evaluate((element) => element === (element as any).ownerDocument.activeElement),
    ).toBe(true);
    // Thinking better of it keeps everything.
    await page.button('No, keep it').click();
    await page.button('Cancel subscription').click();
    expect(summary(await page.axe())).toEqual([]);
    await act(page, 'Yes, cancel my subscription', /is canceled\. Ends on/);
    const cancelled = (await session.server.merchant('GET', `/subscriptions/${id}`)).body;
    expect(cancelled).toMatchObject({ status: 'active', changed_by: 'subscriber' });
    expect(cancelled.cancel_at).not.toBeNull();
    expect(await page.button('Keep my subscription').count()).toBe(1);
    expect(summary(await page.axe())).toEqual([]);
  });

  it('works with the keyboard on a 375 px phone, with nothing wider than the screen', async () => {
    const id = await subscribe();
    const page = await session.shopper({ width: 375, height: 800 });
    await open(page, await manageLink(id));
    expect(summary(await page.axe())).toEqual([]);
    const width = await page.page.evaluate(
      () => (globalThis as any).document.documentElement.scrollWidth as number,
    );
    expect(width).toBeLessThanOrEqual(375);
    // Tab to "Pause subscription" and press Enter.
    for (let step = 0; step < 30; step++) {
      await page.page.keyboard.press('Tab');
      const name = await page.page.evaluate(
        () => ((globalThis as any).document.activeElement?.textContent ?? '') as string,
      );
      if (name === 'Pause subscription') break;
    }
    await page.page.keyboard.press('Enter');
    await page.page.locator('[data-result]', { hasText: /is paused/ }).waitFor();
  });

  it('says plainly that a bad link does not work and to ask the store for a new one', async () => {
    const page = await session.shopper({ width: 1400, height: 900 });
    await page.page.goto(`${session.server.baseUrl}/checkout/manage/not-a-real-link`);
    const alert = page.page.getByRole('alert');
    await alert.filter({ hasText: 'Ask the store for a new link' }).waitFor();
    expect(await page.page.getByRole('heading', { name: 'This link does not work' }).count()).toBe(1);
    expect(await page.page.getByText(/email me/i).count()).toBe(0);
    expect(summary(await page.axe())).toEqual([]);
  });
});
