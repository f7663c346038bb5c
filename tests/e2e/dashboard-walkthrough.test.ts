import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckoutServer } from '../helpers/checkout-server.js';
import { startServer, stopServer, type ServerProcess } from '../helpers/server-process.js';
import { startSmtpInbox, type SmtpInbox } from '../helpers/smtp-inbox.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { launchBrowser } from './browser.js';
import { ADA, CheckoutPage } from './checkout-page.js';
import { focusedText, OWNER, pageWidth, violations } from './dashboard-session.js';

// The dashboard from first start to a refund, in Debian's Chromium against the server as `npm start` runs it, with a
// real SMTP server and a real webhook receiver (docs/dashboard.md): the owner follows the printed link and sets a
// password; makes an offer, a discount code and a checkout link; a shopper buys through that link; the order is on
// the orders screen with its payment; the owner refunds half and sees the refund, its email and its webhook; a member
// of staff invited by email cannot see the API keys; axe finds nothing on any screen at 1400 px and at 375 px.

let server: ServerProcess;
let browser: Browser;
let inbox: SmtpInbox;
let receiver: WebhookReceiver;
const dataDir = mkdtempSync(path.join(tmpdir(), 'sc-dashboard-walk-'));
const seen = { orderId: 0, offerId: 0, codeId: 0, linkId: 0, endpointId: 0, staffId: 0 };

beforeAll(async () => {
  inbox = await startSmtpInbox();
  receiver = await startWebhookReceiver();
  server = await startServer(
    {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      SMTP_URL: inbox.url,
      MAIL_FROM: 'shop@demo.example',
      // The receiver listens on this machine's loopback, which endpoints may name only when this is set.
      WEBHOOKS_ALLOW_PRIVATE_URLS: 'true',
    },
    60_000,
    'built',
  );
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  if (server) await stopServer(server);
  await inbox?.close();
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function newPage(width: number): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return { page, problems };
}

async function screen(page: Page, heading: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
  await expect.poll(() => focusedText(page)).toBe(heading);
}

async function follow(page: Page, menu: string, heading: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: menu }).click();
  await screen(page, heading);
  expect(await violations(page)).toEqual([]);
}

const idAtEnd = (url: string) => Number(new URL(url).pathname.split('/').pop());

describe('the dashboard, from the printed link to a refund', () => {
  let owner: { page: Page; problems: string[] };

  it('lets the owner set a password and make an offer, a discount code, a checkout link and a webhook', async () => {
    const link = /sets a password at (http:\/\/\S+)/.exec(server.output())?.[1];
    expect(link, server.output()).toBeDefined();
    owner = await newPage(1400);
    const { page } = owner;
    await page.goto(link ?? '');
    await screen(page, 'Set up your dashboard');
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Your name').fill(OWNER.name);
    await page.getByLabel('New password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Save and sign in' }).click();
    await screen(page, 'Home');
    expect(await violations(page)).toEqual([]);

    await follow(page, 'Catalogue', 'Offers');
    await page.getByRole('link', { name: 'New offer' }).click();
    await screen(page, 'New offer');
    await page.getByLabel('Offer name', { exact: true }).fill('Walkthrough blend');
    await page.getByLabel('Item name', { exact: true }).fill('Walkthrough blend, 1 kg');
    await page.getByLabel('Price (USD)', { exact: true }).fill('40');
    await page.getByRole('button', { name: 'Make the offer' }).click();
    await page.waitForURL(/\/admin\/catalogue\/offers\/\d+$/);
    seen.offerId = idAtEnd(page.url());
    expect(await violations(page)).toEqual([]);

    await page.getByRole('link', { name: 'Discount codes' }).click();
    await page.getByRole('link', { name: 'New discount code' }).click();
    await page.getByLabel('Code', { exact: true }).fill('WALK10');
    await page.getByLabel('A percentage off').check();
    await page.getByLabel('Percent off').fill('10');
    await page.getByRole('button', { name: 'Make the code' }).click();
    await page.waitForURL(/\/admin\/catalogue\/discount-codes\/\d+$/);
    seen.codeId = idAtEnd(page.url());
    expect(await violations(page)).toEqual([]);

    await page.getByRole('link', { name: 'Checkout links' }).click();
    await page.getByRole('link', { name: 'New checkout link' }).click();
    await page.getByLabel(/^Public id/).fill('walk-blend');
    await page.getByLabel(/^Name/).fill('Walkthrough');
    await page
      .getByLabel('Line 1 offer')
      .selectOption({ label: 'Walkthrough blend (Walkthrough blend, 1 kg)' });
    await page.getByLabel(/^Discount code/).fill('WALK10');
    await page.getByRole('button', { name: 'Make the link' }).click();
    await page.waitForURL(/\/admin\/catalogue\/checkout-links\/\d+$/);
    seen.linkId = idAtEnd(page.url());
    const preview = page.getByRole('region', { name: 'The checkout this link opens' });
    await preview.getByRole('table').waitFor();
    expect(await preview.innerText()).toContain('$36.00');
    expect(await violations(page)).toEqual([]);

    await follow(page, 'Developers', 'API keys');
    await page
      .getByRole('navigation', { name: 'Developers' })
      .getByRole('link', { name: 'Webhooks' })
      .click();
    await screen(page, 'Webhooks');
    await page.getByLabel('URL to send events to').fill(receiver.url);
    await page.getByLabel('order.completed').check();
    await page.getByLabel('order.refunded').check();
    await page.getByRole('button', { name: 'Add the endpoint' }).click();
    await page.getByRole('heading', { name: 'Endpoint added: its signing secret' }).waitFor();
    expect(await violations(page)).toEqual([]);
  });

  it('shows the order a shopper placed through the link, and refunds half of it with its email and webhook', async () => {
    const { page } = owner;
    const linkUrl = await page
      .goto(`${server.baseUrl}/admin/catalogue/checkout-links/${seen.linkId}`)
      .then(() => page.getByRole('link', { name: 'Open the checkout in a new tab' }).getAttribute('href'));
    expect(linkUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/checkout\/[\w-]+$/);

    // The checkout page's helper needs only the server's address.
    const shopper = await CheckoutPage.create(browser, { baseUrl: server.baseUrl } as CheckoutServer);
    await shopper.page.goto(linkUrl ?? '');
    await shopper.page.locator('.sections').waitFor();
    await shopper.fillContact('walker@example.com');
    await shopper.fillShipping(ADA);
    await shopper.fillCard('4111 1111 1111 1111');
    await shopper.orderButton().click();
    seen.orderId = await shopper.confirmation();
    expect(shopper.problems).toEqual([]);
    await shopper.close();

    await follow(page, 'Orders', 'Orders');
    await page.getByLabel('Order number, email or name').fill('walker@example.com');
    await page.getByRole('button', { name: 'Find orders' }).click();
    await page.getByRole('link', { name: `Order ${seen.orderId}`, exact: true }).click();
    await screen(page, `Order ${seen.orderId}`);
    const attempts = page.getByRole('table', { name: 'Payment attempts, oldest first' });
    expect(await attempts.innerText()).toMatch(/approved/i);
    expect(await attempts.innerText()).toContain('1111');
    expect(await violations(page)).toEqual([]);

    const order = await page.evaluate(async (id) => {
      const answer = await fetch(`/checkout/api/merchant/orders/${id}`);
      return (await answer.json()) as { total: number; lines: { item_name: string }[] };
    }, seen.orderId);
    expect(order.lines.map((line) => line.item_name)).toEqual(['Walkthrough blend, 1 kg']);
    const half = Math.round(order.total * 50) / 100;
    const shown = `$${half.toFixed(2)}`;
    await page.getByLabel('Part of it').check();
    await page.getByLabel('Amount to refund (USD)').fill(half.toFixed(2));
    await page.getByLabel('Reason').fill('Half the order arrived damaged');
    await page.getByRole('button', { name: 'Refund…' }).click();
    await page.getByRole('button', { name: `Yes, refund ${shown}` }).click();
    const refunds = page.getByRole('table', { name: 'Refunds' });
    await expect.poll(() => refunds.innerText()).toMatch(new RegExp(`\\${shown}\\s+Refunded`));
    expect(await violations(page)).toEqual([]);

    // Its email, through the real SMTP server, and its webhook, at the real receiver.
    await expect
      .poll(() => inbox.messages.some((mail) => mail.to && /refund/i.test(mail.subject ?? '')), {
        timeout: 20_000,
      })
      .toBe(true);
    await expect
      .poll(() => receiver.received.map((hook) => JSON.parse(hook.body).type as string), { timeout: 20_000 })
      .toEqual(expect.arrayContaining(['order.completed', 'order.refunded']));
    await page.reload();
    await screen(page, `Order ${seen.orderId}`);
    await expect
      .poll(() => page.getByRole('table', { name: 'Emails, newest first' }).innerText(), { timeout: 20_000 })
      .toMatch(/refund/i);
    await expect
      .poll(() => page.getByRole('table', { name: 'Webhook deliveries, newest first' }).innerText())
      .toMatch(/order\.refunded/);
    expect(await page.getByRole('region', { name: 'Changes made in the dashboard' }).innerText()).toMatch(
      /Refunded by Olive Owner/,
    );
  });

  it('invites a member of staff by email, who cannot see the API keys', async () => {
    const { page } = owner;
    await follow(page, 'Staff', 'Staff');
    await page.getByLabel('Email').fill('sam@demo.example');
    await page.getByLabel('Name').fill('Sam Staff');
    await page.getByRole('button', { name: 'Invite' }).click();
    await expect
      .poll(() => inbox.messages.find((mail) => mail.subject?.startsWith('You are invited'))?.text, {
        timeout: 20_000,
      })
      .toMatch(/\/admin\/link#/);
    const invitation = inbox.messages.find((mail) => mail.subject?.startsWith('You are invited'));
    const link = /Set your password: (\S+)/.exec(invitation?.text ?? '')?.[1] ?? '';

    const staff = await newPage(1400);
    await staff.page.goto(link);
    await screen(staff.page, 'Set your password');
    await staff.page.getByLabel('New password').fill('staff passphrase 1');
    await staff.page.getByRole('button', { name: 'Save and sign in' }).click();
    await screen(staff.page, 'Home');
    const menu = staff.page.getByRole('navigation', { name: 'Dashboard' });
    await menu.getByRole('link', { name: 'Orders' }).waitFor();
    expect(await menu.getByRole('link', { name: 'Developers' }).count()).toBe(0);
    await staff.page.goto(`${server.baseUrl}/admin/developers/api-keys`);
    await screen(staff.page, 'Only the owner can open this');
    const keys = await staff.page.evaluate(
      async () => (await fetch('/checkout/api/merchant/api-keys')).status,
    );
    expect(keys).toBe(403);
    // What staff may do, they do: the order and its refund are theirs to see.
    await staff.page.goto(`${server.baseUrl}/admin/orders/${seen.orderId}`);
    await screen(staff.page, `Order ${seen.orderId}`);
    expect(await violations(staff.page)).toEqual([]);
    expect(staff.problems).toEqual([]);
  });

  it('has no axe violation on any screen, at 1400 px and at 375 px', async () => {
    const screens: [string, string][] = [
      ['/admin', 'Home'],
      ['/admin/orders', 'Orders'],
      [`/admin/orders/${seen.orderId}`, `Order ${seen.orderId}`],
      ['/admin/subscriptions', 'Subscriptions'],
      ['/admin/catalogue/offers', 'Offers'],
      [`/admin/catalogue/offers/${seen.offerId}`, 'Offer: Walkthrough blend'],
      ['/admin/catalogue/discount-codes', 'Discount codes'],
      [`/admin/catalogue/discount-codes/${seen.codeId}`, 'Discount code WALK10'],
      ['/admin/catalogue/checkout-links', 'Checkout links'],
      [`/admin/catalogue/checkout-links/${seen.linkId}`, 'Checkout link Walkthrough'],
      ['/admin/shipping', 'Shipping and tax'],
      ['/admin/settings', 'Settings'],
      ['/admin/developers/api-keys', 'API keys'],
      ['/admin/developers/webhooks', 'Webhooks'],
      ['/admin/developers/emails', 'Emails'],
      ['/admin/staff', 'Staff'],
    ];
    for (const width of [1400, 375]) {
      const { page } = width === 1400 ? owner : await newPage(375);
      if (width === 375) {
        await page.context().addCookies(await owner.page.context().cookies());
      }
      for (const [address, heading] of screens) {
        await page.goto(`${server.baseUrl}${address}`);
        await screen(page, heading);
        await expect.poll(() => page.locator('.loading:visible').count()).toBe(0);
        expect(await violations(page), `${address} at ${width} px`).toEqual([]);
        if (width === 375) expect(await pageWidth(page), address).toBeLessThanOrEqual(375);
      }
    }
    expect(owner.problems).toEqual([]);
  });
});
