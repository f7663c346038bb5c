import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startCheckoutServer, type CheckoutServer } from '../helpers/checkout-server.js';
import { launchBrowser } from './browser.js';
import { CheckoutPage } from './checkout-page.js';

// How the built page answers the shopper's hands, in Debian's Chromium against the real server: what the page shows
// while it works, moving between its sections, clicks that must land, and the cart's lines.

let server: CheckoutServer;
let browser: Browser;
const pages: CheckoutPage[] = [];

beforeAll(async () => {
  server = await startCheckoutServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

afterEach(async (context) => {
  for (const page of pages.splice(0)) {
    if (context.task.result?.state === 'fail') {
      const file = path.join(tmpdir(), `checkout-e2e-${Date.now()}-${pages.length}.png`);
      await page.page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
      console.log(`screenshot of the failed page: ${file} (${page.page.url()})`);
    }
    expect(page.problems).toEqual([]);
    await page.close();
  }
});

async function shopper(viewport?: { width: number; height: number }): Promise<CheckoutPage> {
  const page = await CheckoutPage.create(browser, server, viewport);
  pages.push(page);
  return page;
}

const coffeeAndMug = () => server.newCart([{ item_id: 'BEANS-ETH-340' }, { item_id: 'MUG-350' }]);

describe('the processing overlay', () => {
  it('blurs the page behind it while the order is processed', async () => {
    const checkout = await shopper();
    await checkout.open(await coffeeAndMug());
    await checkout.fillContact('ada@example.com');
    await checkout.fillShipping();
    await checkout.fillCard('4111 1111 1111 1111');
    // The order's answer waits until the overlay was looked at.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await checkout.page.route('**/checkout/api/vrio/orders**', async (route) => {
      await held;
      await route.continue();
    });
    await checkout.orderButton().click();
    const overlay = checkout.page.getByRole('dialog', { name: 'Processing your order…' });
    await overlay.waitFor();
    const backdrop = await overlay.evaluate(
      (element) => (globalThis as any).getComputedStyle(element).backdropFilter as string,
    );
    expect(backdrop).toMatch(/blur\(\d+(\.\d+)?px\)/);
    release();
    await checkout.confirmation();
  });
});
