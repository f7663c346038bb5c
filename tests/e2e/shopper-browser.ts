import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { startCheckoutServer, type CheckoutServer } from '../helpers/checkout-server.js';
import { launchBrowser } from './browser.js';
import { CheckoutPage } from './checkout-page.js';

export interface ShopperBrowser {
  /** the built server on a fresh database with the demo store (set once the file's tests start) */
  server: CheckoutServer;
  browser: Browser;
  /** a new page for one shopper, closed after the test */
  shopper(viewport?: { width: number; height: number }, locale?: string): Promise<CheckoutPage>;
}

/**
 * A test file's real server and Chromium, and a page per shopper. After each test every page must have kept its
 * Content-Security-Policy and thrown nothing; a failed test leaves a screenshot of what the shopper saw.
 */
export function useShopperBrowser(): ShopperBrowser {
  const pages: CheckoutPage[] = [];
  const session = {
    async shopper(viewport?: { width: number; height: number }, locale?: string) {
      const page = await CheckoutPage.create(session.browser, session.server, viewport, locale);
      pages.push(page);
      return page;
    },
  } as ShopperBrowser;

  beforeAll(async () => {
    session.server = await startCheckoutServer();
    session.browser = await launchBrowser();
  });

  afterAll(async () => {
    await session.browser?.close();
    await session.server?.close();
  });

  afterEach(async (context) => {
    for (const page of pages.splice(0)) {
      if (context.task.result?.state === 'fail') {
        // What the shopper saw when it failed, for the one reading the CI log.
        const file = path.join(tmpdir(), `checkout-e2e-${Date.now()}-${pages.length}.png`);
        await page.page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
        console.log(`screenshot of the failed page: ${file} (${page.page.url()})`);
      }
      // The page never broke its Content-Security-Policy or threw.
      expect(page.problems).toEqual([]);
      await page.close();
    }
  });

  return session;
}
