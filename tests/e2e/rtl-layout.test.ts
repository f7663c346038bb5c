import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCheckoutServer, type CheckoutServer } from '../helpers/checkout-server.js';
import { launchBrowser } from './browser.js';
import { CheckoutPage } from './checkout-page.js';

// A page that reads right to left (Arabic: ?lang=ar makes <html lang="ar" dir="rtl">) mirrors as a whole: its styles
// use logical properties (docs/languages.md). Measured in real Chromium at desktop width: the summary column sits at
// the reading end.

let server: CheckoutServer;
let browser: Browser;
let checkout: CheckoutPage;

beforeAll(async () => {
  server = await startCheckoutServer();
  browser = await launchBrowser();
  checkout = await CheckoutPage.create(browser, server, { width: 1280, height: 900 });
});

const newCart = () => server.newCart([{ item_id: 'BEANS-ETH-340' }, { item_id: 'MUG-350' }]);

afterAll(async () => {
  expect(checkout?.problems ?? []).toEqual([]);
  await checkout?.close();
  await browser?.close();
  await server?.close();
});

interface Columns {
  summary: { left: number; right: number };
  main: { left: number; right: number };
}

async function columns(): Promise<Columns> {
  return checkout.page.evaluate(`(() => {
    const box = (selector) => {
      const rect = document.querySelector(selector).getBoundingClientRect();
      return { left: Math.round(rect.left), right: Math.round(rect.right) };
    };
    return { summary: box('.checkout .summary'), main: box('.checkout__main') };
  })()`);
}

describe('the checkout right to left', () => {
  it('keeps the summary on the right left to right', async () => {
    await checkout.open(await newCart());
    expect(await checkout.page.evaluate('document.documentElement.dir')).toBe('ltr');
    const { summary, main } = await columns();
    expect(summary.left).toBeGreaterThanOrEqual(main.right);
  });

  it('puts the summary on the left right to left, and axe finds nothing to fix', async () => {
    await checkout.page.goto(`${server.baseUrl}/checkout/${await newCart()}?lang=ar`);
    await checkout.page.locator('.sections').waitFor();
    expect(
      await checkout.page.evaluate('[document.documentElement.lang, document.documentElement.dir]'),
    ).toEqual(['ar', 'rtl']);
    await checkout.page.getByRole('heading', { name: 'ملخص الطلب' }).waitFor();
    const { summary, main } = await columns();
    expect(summary.right).toBeLessThanOrEqual(main.left);
    // The open step's number starts its heading at the column's right edge.
    const number = await checkout.page.evaluate<{ fromRight: number; fromLeft: number }>(`(() => {
      const number = document.querySelector('.section--open .section__number').getBoundingClientRect();
      const main = document.querySelector('.checkout__main').getBoundingClientRect();
      return { fromRight: main.right - number.right, fromLeft: number.left - main.left };
    })()`);
    expect(number.fromRight).toBeLessThan(number.fromLeft);
    expect(await checkout.axe()).toEqual([]);
  });
});

describe("the test provider's approval page in the checkout's language", () => {
  /** Opens the checkout in a language, presses the express button, and lands on the provider's page. */
  async function approvalPageIn(language: 'ar' | 'ja', expressButton: string, heading: string) {
    const token = await newCart();
    // The page keeps the language it opened in with the cart; the provider's page reads it there.
    const remembered = checkout.page.waitForResponse(
      (response) => new URL(response.url()).pathname.endsWith(`/carts/${token}/language`) && response.ok(),
    );
    await checkout.page.goto(`${server.baseUrl}/checkout/${token}?cypress=1&lang=${language}`);
    await checkout.page.locator('.sections').waitFor();
    await remembered;
    await checkout.button(expressButton).click();
    await checkout.page.getByRole('heading', { name: heading }).waitFor();
  }

  it('is written right to left in Arabic, mirrored, and axe finds nothing to fix', async () => {
    await approvalPageIn('ar', 'الدفع عبر PayPal', 'وافق على الدفعة');
    expect(
      await checkout.page.evaluate('[document.documentElement.lang, document.documentElement.dir]'),
    ).toEqual(['ar', 'rtl']);
    await checkout.page.getByRole('button', { name: 'الموافقة والمتابعة' }).waitFor();
    // The badge starts at the right edge of the page's box.
    const badge = await checkout.page.evaluate<{ fromRight: number; fromLeft: number }>(`(() => {
      const badge = document.querySelector('.badge').getBoundingClientRect();
      const main = document.querySelector('main').getBoundingClientRect();
      return { fromRight: main.right - badge.right, fromLeft: badge.left - main.left };
    })()`);
    expect(badge.fromRight).toBeLessThan(badge.fromLeft);
    expect(await checkout.axe()).toEqual([]);
  });

  it('speaks Japanese, and axe finds nothing to fix', async () => {
    await approvalPageIn('ja', 'PayPal で支払う', 'お支払いを承認');
    expect(
      await checkout.page.evaluate('[document.documentElement.lang, document.documentElement.dir]'),
    ).toEqual(['ja', 'ltr']);
    await checkout.page.getByLabel('メールアドレス').waitFor();
    expect(await checkout.axe()).toEqual([]);
  });
});
