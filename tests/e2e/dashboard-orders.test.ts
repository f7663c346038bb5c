import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARDS, card, GIFT_RECIPIENT, orderBody } from '../helpers/order-body.js';
import {
  http,
  shopperHeaders,
  startServer,
  stopServer,
  withCardTokenOver,
  type ServerProcess,
} from '../helpers/server-process.js';
import { launchBrowser } from './browser.js';
import { focusedText, ownerCookie, pageWidth, signedInPage, violations } from './dashboard-session.js';

// The dashboard's Orders screens (docs/dashboard.md, "Orders") in Debian's Chromium against the built server: orders
// placed over HTTP with the test processor's cards, then found by email, number, name and status, opened, and
// refunded in part through the page, a second refund over what is left refused by the amount field in the server's
// words; axe finds nothing and nothing scrolls sideways, at 1400 and at 375 px.

let server: ServerProcess;
let browser: Browser;
let cookie: { name: string; value: string };
let apiKey = '';
const dataDir = mkdtempSync(path.join(tmpdir(), 'sc-dashboard-orders-'));
const run = `${process.pid}`;

beforeAll(async () => {
  server = await startServer(
    { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    60_000,
    'built',
  );
  apiKey = /Merchant API key \(demo organization\): (\S+)/.exec(server.output())?.[1] ?? '';
  expect(apiKey, server.output()).not.toBe('');
  cookie = await ownerCookie(server);
  browser = await launchBrowser();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  if (server) await stopServer(server);
  rmSync(dataDir, { recursive: true, force: true });
});

const merchant = (method: string, url: string, body?: unknown) =>
  http(server.baseUrl, method, `/checkout/api/merchant${url}`, {
    ...(body === undefined ? {} : { body }),
    headers: { authorization: `Bearer ${apiKey}` },
  });

/**
 * An order of the demo store's coffee beans (and a mug given as a gift, with `gift`) placed as the checkout page
 * places it: answers its id.
 */
async function placeOrder(
  details: Record<string, unknown>,
  cardNumber: string = CARDS.visa,
  gift = false,
): Promise<number> {
  const offers = (await merchant('GET', '/offers?limit=100')).body.data as { id: number; item_id: string }[];
  const offer = (itemId: string) => offers.find((candidate) => candidate.item_id === itemId)?.id;
  const cart = await merchant('POST', '/carts', {
    offers: [
      { offer_id: offer('BEANS-ETH-340'), quantity: 2 },
      ...(gift ? [{ offer_id: offer('MUG-350'), is_gift: true }] : []),
    ],
  });
  expect(cart.status, JSON.stringify(cart.body)).toBe(201);
  const token = cart.body.cart_token as string;
  if (gift) {
    const shopper = await shopperHeaders(server.baseUrl);
    const read = await http(server.baseUrl, 'GET', `/checkout/api/vrio/carts/${token}`, { headers: shopper });
    const line = (read.body.offers as { id: number; is_gift: boolean }[]).find(
      (candidate) => candidate.is_gift,
    )?.id;
    const inAMonth = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const saved = await http(server.baseUrl, 'PATCH', `/checkout/api/vrio/order_offers/${line}/gift`, {
      body: { ...GIFT_RECIPIENT, gift_date: inAMonth, order_offer_id: line, cart_token: token },
      headers: shopper,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  }
  const body = await withCardTokenOver(
    server.processorUrl,
    orderBody(token, { payment: card(cardNumber), ...details }),
  );
  const placed = await http(server.baseUrl, 'POST', '/checkout/api/vrio/orders', {
    body,
    headers: { ...(await shopperHeaders(server.baseUrl)), 'idempotency-key': `orders-e2e-${token}` },
  });
  expect([200, 402], JSON.stringify(placed.body)).toContain(placed.status);
  const read = await http(server.baseUrl, 'GET', `/checkout/api/vrio/carts/${token}`, {
    headers: await shopperHeaders(server.baseUrl),
  });
  return read.body.order.order_id as number;
}

/** The order numbers the list shows. */
async function listedOrders(page: Page): Promise<string[]> {
  return page.locator('.admin-table tbody tr td:first-child').allInnerTexts();
}

async function find(page: Page, query: string): Promise<void> {
  await page.getByLabel('Order number, email or name').fill(query);
  await page.getByRole('button', { name: 'Find orders' }).click();
  await page.waitForURL((url) => url.searchParams.get('q') === query);
}

const money = (amount: number) => `$${amount.toFixed(2)}`;

describe('the Orders screens', () => {
  it('find orders by email, number, name and status, show one, and refund part of it', async () => {
    // An endpoint for the order events (its host never answers): the order's screen lists what was sent to it.
    const hooks = 'https://hooks.example.invalid/orders';
    const endpoint = await merchant('POST', '/webhook-endpoints', {
      url: hooks,
      events: ['order.completed', 'order.refunded'],
    });
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
    const ada = await placeOrder({
      email: `ada-${run}@example.com`,
      ship_fname: 'Ada',
      ship_lname: 'Lovelace',
    });
    const grace = await placeOrder(
      { email: `grace-${run}@navy.example`, ship_fname: 'Grace', ship_lname: 'Hopperton' },
      CARDS.mastercard,
      true,
    );
    const declined = await placeOrder(
      { email: `alan-${run}@example.org`, ship_fname: 'Alan', ship_lname: 'Turing' },
      CARDS.declined,
    );

    const { page, problems } = await signedInPage(browser, server, cookie, 1400);
    await page.goto(`${server.baseUrl}/admin/orders`);
    await page.getByRole('heading', { name: 'Orders', level: 1 }).waitFor();
    await expect.poll(() => focusedText(page)).toBe('Orders');
    await page.getByRole('link', { name: `Order ${ada}`, exact: true }).waitFor();
    expect(await violations(page)).toEqual([]);

    await find(page, `ada-${run}@example.com`);
    await expect.poll(() => listedOrders(page)).toEqual([`Order ${ada}`]);
    expect(await page.locator('.admin-table tbody tr').innerText()).toMatch(/Ada Lovelace/);
    await find(page, String(grace));
    await expect.poll(() => listedOrders(page)).toEqual([`Order ${grace}`]);
    await find(page, 'hopperTON');
    await expect.poll(() => listedOrders(page)).toEqual([`Order ${grace}`]);
    await find(page, `nobody-${run}`);
    await page.locator('#main').getByText('No orders match this search and these filters.').waitFor();

    await page.getByLabel('Order number, email or name').fill('');
    await page.getByLabel('Status').selectOption('declined');
    await page.getByRole('button', { name: 'Find orders' }).click();
    await page.waitForURL((url) => url.search === '?status=declined');
    await expect.poll(() => listedOrders(page)).toEqual([`Order ${declined}`]);
    // The filters are in the address: a reload keeps them, Back goes to the search before.
    await page.reload();
    await expect.poll(() => listedOrders(page)).toEqual([`Order ${declined}`]);
    expect(await page.getByLabel('Status').inputValue()).toBe('declined');
    await page.goBack();
    await page.waitForURL((url) => url.searchParams.get('q') === `nobody-${run}`);
    expect(await page.getByLabel('Order number, email or name').inputValue()).toBe(`nobody-${run}`);
    expect(await violations(page)).toEqual([]);

    // A gift not claimed yet: its claim link, with a button that copies it.
    await find(page, 'grace');
    await page.getByRole('link', { name: `Order ${grace}`, exact: true }).click();
    await page.getByRole('heading', { name: `Order ${grace}`, level: 1 }).waitFor();
    await expect.poll(() => focusedText(page)).toBe(`Order ${grace}`);
    const gifts = page.getByRole('region', { name: 'Gifts' });
    expect(await gifts.innerText()).toMatch(
      /Stoneware mug for Grace Hopper \(grace@example\.com\)[\s\S]*Not claimed yet\./,
    );
    const claimUrl = await gifts.locator('code').innerText();
    expect(claimUrl).toMatch(/\/checkout\/__g__/);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    await gifts.getByRole('button', { name: 'Copy claim link of the gift for Grace Hopper' }).click();
    await gifts.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toBe(claimUrl);
    expect(await violations(page)).toEqual([]);
    await page.goBack();
    await page.getByRole('heading', { name: 'Orders', level: 1 }).waitFor();

    // A filter the API refuses is shown by its field, in the API's words.
    await page.goto(`${server.baseUrl}/admin/orders?from=2026-11-05&to=2026-11-01`);
    await page.getByRole('heading', { name: 'Orders', level: 1 }).waitFor();
    await expect.poll(() => page.getByLabel('Placed to').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#field-to-error').innerText()).toBe('Use a date on or after created_from.');
    expect(await violations(page)).toEqual([]);
    await page.getByLabel('Placed from').fill('');
    await page.getByLabel('Placed to').fill('');

    await find(page, 'lovelace');
    await page.getByRole('link', { name: `Order ${ada}`, exact: true }).click();
    await page.getByRole('heading', { name: `Order ${ada}`, level: 1 }).waitFor();
    await expect.poll(() => focusedText(page)).toBe(`Order ${ada}`);
    const order = (await merchant('GET', `/orders/${ada}`)).body as { total: number };
    const attempts = page.getByRole('table', { name: 'Payment attempts, oldest first' });
    expect(await attempts.innerText()).toMatch(/Visa ending 1111\s+Approved\s+\$/);
    expect(await violations(page)).toEqual([]);

    // Refund half, confirmed in the page. The first send is lost on the way (no answer): sent again, it carries the
    // same Idempotency-Key, so the store could never refund it twice.
    const keys: string[] = [];
    let lose = true;
    await page.route('**/checkout/api/merchant/orders/*/refunds', async (route) => {
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      if (lose) {
        lose = false;
        await route.abort('connectionreset');
      } else await route.continue();
    });
    const half = Math.round(order.total * 50) / 100;
    const leftAfter = Math.round((order.total - half) * 100) / 100;
    await page.getByLabel('Part of it').check();
    await page.getByLabel('Amount to refund (USD)').fill(half.toFixed(2));
    await page.getByLabel('Reason').fill('Half the beans arrived crushed');
    await page.getByRole('button', { name: 'Refund…' }).click();
    const question = `Refund ${money(half)} of ${money(order.total)} to Visa ending 1111?`;
    await page.locator('#refund-confirm-question').filter({ hasText: question }).waitFor();
    await expect.poll(() => focusedText(page)).toBe(question);
    expect(await violations(page)).toEqual([]);
    await page.getByRole('button', { name: `Yes, refund ${money(half)}` }).click();
    await page.getByRole('alert').filter({ hasText: 'The store could not be reached.' }).waitFor();
    await expect.poll(() => focusedText(page)).toMatch(/^The store could not be reached\./);
    await page.getByRole('button', { name: 'Refund…' }).click();
    await page.getByRole('button', { name: `Yes, refund ${money(half)}` }).click();
    const outcome = `Refunded ${money(half)} to Visa ending 1111.`;
    await page.locator('.orders-outcome').filter({ hasText: outcome }).waitFor();
    await expect.poll(() => focusedText(page)).toBe(outcome);
    const refunds = page.getByRole('table', { name: 'Refunds' });
    await expect
      .poll(() => refunds.innerText())
      .toMatch(new RegExp(`\\${money(half)}\\s+Refunded\\s+Half the beans`));
    await expect
      .poll(() => page.getByRole('region', { name: 'Summary' }).innerText())
      .toMatch(/Payment\s+Partly refunded/);
    await expect
      .poll(() => page.getByRole('region', { name: 'Timeline, oldest first' }).innerText())
      .toMatch(new RegExp(`Refund of \\${money(half)} made, reason: Half the beans arrived crushed`));
    await page
      .locator('#main')
      .getByText(`${money(leftAfter)} is left to refund to Visa ending 1111.`)
      .waitFor();

    const deliveries = page.getByRole('table', { name: 'Webhook deliveries, newest first' });
    await expect
      .poll(() => deliveries.innerText())
      .toMatch(/order\.refunded\s+https:\/\/hooks\.example\.invalid\/orders/);
    expect(await deliveries.innerText()).toMatch(/order\.completed/);

    // The emails about the order, each one's text behind a disclosure.
    const emails = page.getByRole('table', { name: 'Emails, newest first' });
    await emails.getByText('Order receipt').waitFor();
    await emails.getByText('Read the text').last().click();
    await expect.poll(() => emails.locator('.orders-email-text').innerText()).toMatch(/coffee beans/i);

    // A second refund over what is left: the server refuses it, by the amount field, in its words.
    await page.getByLabel('Part of it').check();
    await page.getByLabel('Amount to refund (USD)').fill(order.total.toFixed(2));
    await page.getByRole('button', { name: 'Refund…' }).click();
    await page.getByRole('button', { name: `Yes, refund ${money(order.total)}` }).click();
    const amount = page.getByLabel('Amount to refund (USD)');
    await expect.poll(() => amount.getAttribute('aria-invalid')).toBe('true');
    const said = await page.locator('#field-amount-error').innerText();
    expect(said).toMatch(/more than what is left to refund/);
    expect(await page.getByRole('alert').filter({ hasText: said }).count()).toBeGreaterThan(0);
    await expect
      .poll(() => page.evaluate(() => (globalThis as any).document.activeElement?.id))
      .toBe('field-amount');
    expect(((await merchant('GET', `/orders/${ada}`)).body as { refunds: unknown[] }).refunds).toHaveLength(
      1,
    );
    // One key per confirmed refund: the lost send and its retry share one, the next refund has its own.
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
    expect(await violations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();

    // At 375 px, the list and the order fit the screen's width.
    const narrow = await signedInPage(browser, server, cookie, 375);
    await narrow.page.goto(`${server.baseUrl}/admin/orders`);
    await narrow.page.getByRole('link', { name: `Order ${ada}`, exact: true }).waitFor();
    expect(await pageWidth(narrow.page)).toBeLessThanOrEqual(375);
    expect(await violations(narrow.page)).toEqual([]);
    await narrow.page.getByRole('link', { name: `Order ${ada}`, exact: true }).click();
    await narrow.page.getByRole('heading', { name: `Order ${ada}`, level: 1 }).waitFor();
    await expect.poll(() => focusedText(narrow.page)).toBe(`Order ${ada}`);
    await narrow.page.getByRole('table', { name: 'Refunds' }).waitFor();
    expect(await pageWidth(narrow.page)).toBeLessThanOrEqual(375);
    expect(await violations(narrow.page)).toEqual([]);
    // The gift's long claim link wraps too.
    await narrow.page.goto(`${server.baseUrl}/admin/orders/${grace}`);
    await narrow.page.getByRole('region', { name: 'Gifts' }).waitFor();
    expect(await pageWidth(narrow.page)).toBeLessThanOrEqual(375);
    expect(await violations(narrow.page)).toEqual([]);
    expect(narrow.problems).toEqual([]);
    await narrow.context.close();
  }, 90_000);
});
