import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BREAKPOINTS } from '../../src/client/theme/breakpoints.js';
import { startCheckoutServer, type CheckoutServer } from '../helpers/checkout-server.js';
import { launchBrowser } from './browser.js';
import { CheckoutPage } from './checkout-page.js';

// Each of the theme's breakpoints changes the layout as checkout.css describes it, at its own width and not a pixel
// before: measured in real Chromium on either side of each one.

let server: CheckoutServer;
let browser: Browser;
let checkout: CheckoutPage;

beforeAll(async () => {
  server = await startCheckoutServer();
  browser = await launchBrowser();
  checkout = await CheckoutPage.create(browser, server, { width: 1400, height: 900 });
  await checkout.open(await server.newCart([{ item_id: 'BEANS-ETH-340' }, { item_id: 'MUG-350' }]));
  // The shipping step shows the field rows.
  await checkout.fillContact('ada@example.com');
  await checkout.field('City').waitFor();
});

afterAll(async () => {
  expect(checkout?.problems ?? []).toEqual([]);
  await checkout?.close();
  await browser?.close();
  await server?.close();
});

interface Layout {
  /** the page's content box: header, main and footer share it */
  pageWidth: number;
  gutter: number;
  /** the checkout's grid: its columns' widths and the gap between them */
  columns: number[];
  gap: number;
  summaryBar: boolean;
  /** fields side by side in the name row */
  fieldsPerRow: number;
  headerWidth: number;
}

async function layoutAt(width: number): Promise<Layout> {
  await checkout.page.setViewportSize({ width, height: 900 });
  return checkout.page.evaluate(`(() => {
    const style = (selector) => getComputedStyle(document.querySelector(selector));
    const main = document.querySelector('.main');
    const px = (value) => Math.round(parseFloat(value) * 10) / 10;
    const tracks = (value) => value.split(' ').filter(Boolean).map(px);
    return {
      pageWidth: px(main.getBoundingClientRect().width),
      gutter: px(style('.main').paddingLeft),
      columns: tracks(style('.checkout').gridTemplateColumns),
      gap: px(style('.checkout').columnGap),
      summaryBar: style('.summary__toggle').display !== 'none',
      fieldsPerRow: tracks(style('.address-fields .field-row').gridTemplateColumns).length,
      headerWidth: px(document.querySelector('.header__inner').getBoundingClientRect().width),
    };
  })()`);
}

describe('the layout at each breakpoint', () => {
  it('xs: one column, the summary as a bar, one field per row, 1rem gutters (375 px)', async () => {
    const layout = await layoutAt(375);
    expect(layout).toMatchObject({ pageWidth: 375, gutter: 16, summaryBar: true, fieldsPerRow: 1 });
    expect(layout.columns).toHaveLength(1);
  });

  it(`sm (${BREAKPOINTS.sm} px): two fields per row and 1.5rem gutters, still one column`, async () => {
    expect(await layoutAt(BREAKPOINTS.sm - 1)).toMatchObject({ gutter: 16, fieldsPerRow: 1 });
    const layout = await layoutAt(BREAKPOINTS.sm);
    expect(layout).toMatchObject({ gutter: 24, fieldsPerRow: 2, summaryBar: true });
    expect(layout.columns).toHaveLength(1);
  });

  it(`md (${BREAKPOINTS.md} px): the sections (3/5) beside the open order summary (2/5)`, async () => {
    const before = await layoutAt(BREAKPOINTS.md - 1);
    expect(before.columns).toHaveLength(1);
    expect(before.summaryBar).toBe(true);
    const layout = await layoutAt(BREAKPOINTS.md);
    expect(layout.summaryBar).toBe(false);
    expect(layout.gap).toBe(32);
    const content = BREAKPOINTS.md - 2 * 24 - 32;
    expect(layout.columns).toEqual(
      [(content * 3) / 5, (content * 2) / 5].map((w) => Math.round(w * 10) / 10),
    );
  });

  it(`lg (${BREAKPOINTS.lg} px): the page stops at 72rem, centered, with 2rem gutters and a 3rem gap`, async () => {
    expect(await layoutAt(BREAKPOINTS.lg - 1)).toMatchObject({
      pageWidth: BREAKPOINTS.lg - 1,
      gutter: 24,
      gap: 32,
    });
    const layout = await layoutAt(BREAKPOINTS.lg);
    expect(layout).toMatchObject({ pageWidth: 1152, headerWidth: 1152, gutter: 32, gap: 48 });
    expect(layout.columns).toEqual([624, 416]);
  });

  it(`xl (${BREAKPOINTS.xl} px): the page grows to 82rem, the sections' column widens, the summary keeps 26rem`, async () => {
    expect(await layoutAt(BREAKPOINTS.xl - 1)).toMatchObject({ pageWidth: 1152, gap: 48 });
    const layout = await layoutAt(BREAKPOINTS.xl);
    expect(layout).toMatchObject({ pageWidth: 1312, headerWidth: 1312, gutter: 32, gap: 64 });
    expect(layout.columns).toEqual([1312 - 2 * 32 - 64 - 416, 416]);
  });
});
