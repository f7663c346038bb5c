import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  http,
  shopperHeaders,
  startServer,
  stopServer,
  type ServerProcess,
} from '../helpers/server-process.js';
import { launchBrowser } from './browser.js';
import { focusedText, ownerCookie, pageWidth, signedInPage, violations } from './dashboard-session.js';

// The dashboard's Catalogue (docs/dashboard.md, "Catalogue") in Debian's Chromium against the built server: an
// offer, a discount code and a checkout link made through the page, the link's preview against the checkout it opens.

let server: ServerProcess;
let browser: Browser;
let cookie: { name: string; value: string };
const dataDir = mkdtempSync(path.join(tmpdir(), 'sc-dashboard-catalogue-'));

beforeAll(async () => {
  server = await startServer(
    { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    60_000,
    'built',
  );
  [browser, cookie] = await Promise.all([launchBrowser(), ownerCookie(server)]);
});

afterAll(async () => {
  await browser?.close();
  if (server) await stopServer(server);
  rmSync(dataDir, { recursive: true, force: true });
});

/** Waits for a screen's heading, and checks it took the focus. */
async function screen(page: Page, name: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
  await expect.poll(() => focusedText(page)).toBe(name);
}

/** The error shown under a field (its id is the field's, as the form's summary links to it). */
const errorOf = (page: Page, field: string) => page.locator(`[id="field-${field}-error"]`);

const OFFER = 'Tea club e2e';

describe("the dashboard's catalogue", () => {
  it('makes an offer, a code and a checkout link whose preview matches the checkout it opens', async () => {
    const { page, context, problems } = await signedInPage(browser, server, cookie, 1400);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });

    await page.goto(`${server.baseUrl}/admin/catalogue`);
    await screen(page, 'Offers');
    await page.locator('.admin-table').waitFor();
    expect(await violations(page)).toEqual([]);

    // An offer, refused by its fields first: an image URL that is not http(s), then a price with three decimals.
    await page.getByRole('link', { name: 'New offer' }).click();
    await screen(page, 'New offer');
    await page.getByLabel('Offer name', { exact: true }).fill(OFFER);
    await page.getByLabel('Item name', { exact: true }).fill('Green tea club');
    await page.getByLabel(/^Image URL/).fill('ftp://images.example/tea.png');
    await page.getByLabel('Price (USD)', { exact: true }).fill('12.345');
    await page.getByRole('button', { name: 'Make the offer' }).click();
    await expect
      .poll(() => errorOf(page, 'item_image').textContent())
      .toBe('Enter a full http(s) URL of the image.');
    expect(await page.getByLabel(/^Image URL/).getAttribute('aria-invalid')).toBe('true');
    await page.getByRole('alert').filter({ hasText: 'Enter a full http(s) URL of the image.' }).waitFor();
    const image = `${server.baseUrl}/checkout/images/coffee-club.svg`;
    await page.getByLabel(/^Image URL/).fill(image);
    const previewImage = page.getByRole('img', { name: 'Green tea club' });
    await expect
      .poll(() => previewImage.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
      .toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Make the offer' }).click();
    await expect
      .poll(() => errorOf(page, 'price').textContent())
      .toBe('Use at most 2 decimal places for USD.');
    expect(await page.getByLabel('Price (USD)', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await violations(page)).toEqual([]);

    await page.getByLabel('Price (USD)', { exact: true }).fill('12.5');
    expect(await page.getByLabel('Days between charges').count()).toBe(0);
    await page.getByLabel(/^Recurring/).check();
    await page.getByLabel('Days between charges').fill('30');
    await page.getByLabel(/^Later price/).fill('25');
    await page.getByRole('button', { name: 'Add an option' }).click();
    await expect
      .poll(() =>
        focusedText(page).then(() => page.evaluate(() => (globalThis as any).document.activeElement.id)),
      )
      .toBe('field-item_options.0.name');
    await page.getByLabel('Option 1 name').fill('Size');
    await page.getByLabel('Option 1 value').fill('250 g');
    await page.getByRole('button', { name: 'Make the offer' }).click();
    await screen(page, `Offer: ${OFFER}`);
    const offerUrl = page.url();
    const offerId = Number(offerUrl.split('/').pop());
    expect(offerId).toBeGreaterThan(0);
    await page.getByRole('heading', { name: 'Changes made in the dashboard' }).waitFor();
    await page.getByText(/Created by Olive Owner/).waitFor();

    // An edit sends only what changed.
    const patches: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PATCH') patches.push(request.postData() ?? '');
    });
    await page.getByLabel('Price (USD)', { exact: true }).fill('19.5');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(patches.map((body) => JSON.parse(body))).toEqual([{ price: 19.5 }]);
    await page.getByText(/Changed by Olive Owner/).waitFor();
    expect(await violations(page)).toEqual([]);

    await page.getByRole('navigation', { name: 'Catalogue' }).getByRole('link', { name: 'Offers' }).click();
    await screen(page, 'Offers');
    const row = page.getByRole('row').filter({ hasText: OFFER });
    expect(await row.innerText()).toMatch(
      /Green tea club\s+\$19\.50\s+every 30 days, then \$25\.00\s+No\s+Yes\s+Yes/,
    );
    expect(await row.getByRole('img', { name: 'Green tea club' }).getAttribute('src')).toBe(image);

    // A percent code; the same code again is refused by the code's field.
    await page.getByRole('link', { name: 'Discount codes' }).click();
    await screen(page, 'Discount codes');
    for (const attempt of ['first', 'again'] as const) {
      await page.getByRole('link', { name: 'New discount code' }).click();
      await screen(page, 'New discount code');
      await page.getByLabel('Code', { exact: true }).fill('e2e20');
      await page.getByLabel('A percentage off').check();
      await page.getByLabel('Percent off').fill('20');
      await page.getByLabel('Usage limit').fill('100');
      await page.getByLabel(OFFER, { exact: false }).check();
      await page.getByRole('button', { name: 'Make the code' }).click();
      if (attempt === 'first') {
        await screen(page, 'Discount code E2E20');
        await page.getByText('Used: 0 of 100 allowed (completed orders).').waitFor();
        await page.getByRole('link', { name: 'Discount codes' }).click();
        await screen(page, 'Discount codes');
        expect(await page.getByRole('row').filter({ hasText: 'E2E20' }).innerText()).toMatch(
          /E2E20\s+20 %\s+0 of 100\s+At once\s+Never\s+Yes/,
        );
      } else {
        await expect
          .poll(() => errorOf(page, 'code').textContent())
          .toBe('A discount code E2E20 already exists.');
        expect(await page.getByLabel('Code', { exact: true }).getAttribute('aria-invalid')).toBe('true');
        expect(await violations(page)).toEqual([]);
      }
    }

    // A link with the offer and the code; its address copied; its preview priced by the server.
    await page.getByRole('link', { name: 'Checkout links' }).click();
    await screen(page, 'Checkout links');
    await page.getByRole('link', { name: 'New checkout link' }).click();
    await screen(page, 'New checkout link');
    await page.getByLabel(/^Public id/).fill('e2e-tea');
    await page.getByLabel(/^Name/).fill('Tea e2e');
    await page.getByLabel('Line 1 offer').selectOption({ label: `${OFFER} (Green tea club)` });
    await page.getByLabel('Line 1 quantity').fill('2');
    await page.getByLabel(/^Discount code/).fill('E2E20');
    // An order bump: a box on the checkout, not a line of the link (the preview and the checkout below keep one line).
    await page.getByRole('button', { name: 'Add a bump' }).click();
    await page.getByLabel('Bump 1 offer').selectOption({ label: 'Stoneware mug (Stoneware mug)' });
    expect(await violations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Make the link' }).click();
    await screen(page, 'Checkout link Tea e2e');
    expect(await page.getByLabel('Bump 1 offer').locator('option:checked').innerText()).toBe(
      'Stoneware mug (Stoneware mug)',
    );
    const linkUrl = `${server.baseUrl}/checkout/__c__e2e-tea`;

    await page.getByRole('button', { name: "Copy the link's address" }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toBe(linkUrl);

    const preview = page.getByRole('region', { name: 'The checkout this link opens' });
    await preview.getByRole('table').waitFor();
    expect(await preview.getByRole('row').nth(1).innerText()).toMatch(
      /Tea club e2e \(Green tea club, every 30 days\)\s+2\s+\$19\.50\s+\$39\.00/,
    );
    const totals = await preview.locator('dl').innerText();
    expect(totals).toMatch(/Subtotal\s+\$39\.00/);
    expect(totals).toMatch(/Discount \(E2E20\)\s+−\$7\.80/);
    expect(totals).toMatch(/Charged today, before shipping and tax\s+\$31\.20/);
    expect(totals).toMatch(/Later: Green tea club\s+\$50\.00 every 30 days, before tax/);
    expect(await preview.innerText()).toMatch(/Shipping and tax depend on the shopper's address/);
    expect(
      await preview.getByRole('link', { name: 'Open the checkout in a new tab' }).getAttribute('href'),
    ).toBe(linkUrl);
    expect(await violations(page)).toEqual([]);

    // The checkout the link opens, in the same browser: the same line and total before shipping and tax.
    const checkout = await context.newPage();
    await checkout.goto(linkUrl);
    const summary = checkout.locator('.summary__body');
    await summary.locator('.summary__line').first().waitFor();
    expect(await summary.locator('.summary__line').count()).toBe(1);
    expect(await summary.locator('.summary__line').innerText()).toMatch(/Green tea club[\s\S]*\$39\.00/);
    const checkoutTotals = await summary.locator('.summary__totals').innerText();
    expect(checkoutTotals).toMatch(/Subtotal\s+\$39\.00/);
    expect(checkoutTotals).toMatch(/Discount \(E2E20\)\s+−\$7\.80/);
    expect(checkoutTotals).toMatch(/Tax\s+\$0\.00/);
    expect(checkoutTotals).toMatch(/Total\s+USD \$31\.20/);
    await checkout.close();

    expect(problems).toEqual([]);
    await context.close();
  });

  it('adds a Spanish name in the offer form that a Spanish checkout then shows', async () => {
    const offer = await postAsOwner('offers', {
      offer_name: 'Rooibos e2e',
      item_name: 'Rooibos tin',
      price: 9,
      item_options: [{ name: 'Size', value: '100 g' }],
    });
    const { page, context, problems } = await signedInPage(browser, server, cookie, 1400);
    await page.goto(`${server.baseUrl}/admin/catalogue/offers/${offer.id}`);
    await screen(page, 'Offer: Rooibos e2e');

    // Spanish is one of the store's enabled languages (all are, by default): added, it takes the focus.
    const translations = page.getByRole('group', { name: 'Translations', exact: true });
    await translations.getByLabel('Language', { exact: true }).selectOption({ label: 'Spanish' });
    await translations.getByRole('button', { name: 'Add Spanish' }).click();
    await expect
      .poll(() => page.evaluate(() => (globalThis as any).document.activeElement.id))
      .toBe('field-translations.es.offer_name');
    await page.keyboard.type('Rooibos en español');
    const spanish = translations.getByRole('group', { name: 'Spanish', exact: true });
    await spanish.getByLabel(/^Item name \(Spanish\)/).fill('Lata de rooibos');
    await spanish.getByLabel(/^Option 1 name \(Spanish\)/).fill('Tamaño');
    expect(await violations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();

    // A cart whose shopper chose Spanish (as the page's switcher keeps it): its line and option in Spanish, and
    // the offer's name too in the cart the page reads.
    const { cart_token: token } = await postAsOwner('carts', {
      offers: [{ offer_id: offer.id }],
    });
    const chosen = await http(server.baseUrl, 'PUT', `/checkout/api/vrio/carts/${token}/language`, {
      body: { language: 'es' },
      headers: await shopperHeaders(server.baseUrl),
    });
    expect(chosen.status).toBe(200);
    const checkout = await context.newPage();
    const cart = checkout.waitForResponse(
      (response) =>
        response.request().method() === 'GET' && new URL(response.url()).pathname.endsWith(`/carts/${token}`),
    );
    await checkout.goto(`${server.baseUrl}/checkout/${String(token)}`);
    expect(await checkout.getAttribute('html', 'lang')).toBe('es');
    const line = checkout.locator('.summary__body .summary__line').first();
    await line.waitFor();
    expect(await line.innerText()).toMatch(/Lata de rooibos[\s\S]*Tamaño: 100 g/);
    const answer = (await (await cart).json()) as { offers: { offer_name: string }[] };
    expect(answer.offers[0]?.offer_name).toBe('Rooibos en español');
    await checkout.close();

    expect(problems).toEqual([]);
    await context.close();
  });

  it('fits every tab and form on a 375 px phone', async () => {
    const { page, context, problems } = await signedInPage(browser, server, cookie, 375);
    const linkId = await phoneLink();
    for (const [address, heading] of [
      ['/admin/catalogue/offers', 'Offers'],
      ['/admin/catalogue/offers/new', 'New offer'],
      ['/admin/catalogue/discount-codes', 'Discount codes'],
      ['/admin/catalogue/discount-codes/new', 'New discount code'],
      ['/admin/catalogue/checkout-links', 'Checkout links'],
      ['/admin/catalogue/checkout-links/new', 'New checkout link'],
      [`/admin/catalogue/checkout-links/${linkId}`, 'Checkout link Phone e2e'],
    ] as const) {
      await page.goto(`${server.baseUrl}${address}`);
      await screen(page, heading);
      await expect.poll(() => page.locator('.loading').count()).toBe(0);
      if (heading === 'New offer') {
        await page.getByLabel(/^Recurring/).check();
        await page.getByRole('button', { name: 'Add an option' }).click();
      }
      expect(await pageWidth(page), address).toBeLessThanOrEqual(375);
      expect(await violations(page), address).toEqual([]);
    }
    expect(problems).toEqual([]);
    await context.close();
  });
});

/** Makes an object through the merchant API as the signed-in owner (its cookie and CSRF token). */
async function postAsOwner(route: string, body: unknown): Promise<{ id: number } & Record<string, unknown>> {
  const headers = { cookie: `${cookie.name}=${cookie.value}` };
  const session = (await (await fetch(`${server.baseUrl}/admin/api/session`, { headers })).json()) as {
    csrf_token: string;
  };
  const response = await fetch(`${server.baseUrl}/checkout/api/merchant/${route}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', 'x-csrf-token': session.csrf_token },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: number } & Record<string, unknown>;
}

/** A link for the phone's screens, made through the API. */
async function phoneLink(): Promise<number> {
  const post = postAsOwner;
  const offer = await post('offers', {
    offer_name: 'Phone offer',
    item_name: 'Phone tea',
    price: 7,
    is_recurring: true,
    billing_interval_days: 14,
  });
  const link = await post('checkout-links', {
    name: 'Phone e2e',
    offers: [{ offer_id: offer.id, quantity: 3 }],
  });
  return link.id;
}
