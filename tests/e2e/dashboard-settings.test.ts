import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, stopServer, type ServerProcess } from '../helpers/server-process.js';
import { startSmtpInbox, type SmtpInbox } from '../helpers/smtp-inbox.js';
import { launchBrowser } from './browser.js';
import {
  focusedText,
  OWNER,
  ownerCookie,
  pageWidth,
  signedInPage,
  violations,
  type DashboardPage,
} from './dashboard-session.js';

// The dashboard's Settings, Shipping and tax, and Staff (docs/dashboard.md) in Debian's Chromium against the built
// server as `npm start` runs it, its emails going to a real SMTP server of the test: the owner renames the store and
// moves a checkout section (the checkout shows both), makes a shipping profile and a tax rate after a refusal each,
// invites a member of staff who signs in through the emailed link and finds the owner's screens closed, and removes
// them; every screen has no axe violation and fits a 375 px phone.

let server: ServerProcess;
let browser: Browser;
let inbox: SmtpInbox;
let cookie: { name: string; value: string };
const dataDir = mkdtempSync(path.join(tmpdir(), 'sc-dashboard-settings-'));
const opened: DashboardPage[] = [];
const created: { profile?: string; taxRate?: string } = {};

beforeAll(async () => {
  inbox = await startSmtpInbox();
  server = await startServer(
    {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      SMTP_URL: inbox.url,
      MAIL_FROM: 'shop@demo.example',
    },
    60_000,
    'built',
  );
  browser = await launchBrowser();
  cookie = await ownerCookie(server);
});

afterAll(async () => {
  await Promise.all(opened.map((opening) => opening.context.close()));
  await browser?.close();
  if (server) await stopServer(server);
  await inbox?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function ownerPage(width: number): Promise<DashboardPage> {
  const opening = await signedInPage(browser, server, cookie, width);
  opened.push(opening);
  return opening;
}

/** Opens a dashboard address and waits for its heading, which has the focus. */
async function open(page: Page, address: string, heading: string): Promise<void> {
  await page.goto(`${server.baseUrl}${address}`);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  await expect.poll(() => focusedText(page)).toBe(heading);
}

const liveRegion = (page: Page) => page.locator('[role="status"][aria-live="polite"]').last();

describe('settings', () => {
  it('renames the store, refuses a bad logo by its field, and moves a section the checkout then shows', async () => {
    const { page, problems } = await ownerPage(1400);
    await open(page, '/admin/settings', 'Settings');
    // The demo store has a cart already: its currency is shown, not offered for change.
    await page.getByText('It cannot change now that carts exist').waitFor();
    expect(await violations(page)).toEqual([]);

    await page.getByLabel('Store name').fill('Beans and Leaves');
    await page.getByLabel('Logo URL').fill('not an address');
    await page.getByRole('button', { name: 'Save store' }).click();
    await page.locator('#field-logo_url-error').filter({ hasText: 'Enter a full http(s) URL' }).waitFor();
    expect(await page.getByLabel('Logo URL').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('.admin-header__store').innerText()).not.toBe('Beans and Leaves');
    expect(await violations(page)).toEqual([]);
    await page.getByLabel('Logo URL').fill('');
    await page.getByRole('button', { name: 'Save store' }).click();
    await expect.poll(() => page.locator('.admin-header__store').innerText()).toBe('Beans and Leaves');

    // Contact goes below the shipping address: one move by a click, one by the keyboard on the same button.
    await page.getByRole('button', { name: 'Move down Contact' }).click();
    await expect.poll(() => focusedText(page)).toBe('Move down Contact');
    await expect.poll(() => liveRegion(page).innerText()).toMatch(/^Contact moved to place 2 of 5\./);
    await page.keyboard.press('Enter');
    await expect.poll(() => liveRegion(page).innerText()).toMatch(/^Contact moved to place 3 of 5\./);
    await expect.poll(() => focusedText(page)).toBe('Move down Contact');
    const order = await page.locator('.settings-sections li .settings-sections__name').allInnerTexts();
    expect(order.slice(0, 3)).toEqual(['1. Shipping address', '2. Billing address', '3. Contact']);
    await page.getByRole('button', { name: 'Save section order' }).click();
    await page
      .locator('#sections-heading ~ form')
      .getByText(/^Saved at/)
      .waitFor();
    // Both saves are on the store's trail.
    await expect
      .poll(() => page.locator('.admin-trail li').allInnerTexts())
      .toEqual([
        expect.stringMatching(/Changed by Olive Owner/),
        expect.stringMatching(/Changed by Olive Owner/),
      ]);
    expect(await violations(page)).toEqual([]);

    const checkout = /Checkout: (http:\/\/\S+)/.exec(server.output())?.[1];
    expect(checkout, server.output()).toBeDefined();
    const shopper = await page.context().newPage();
    await shopper.goto(checkout ?? '');
    await shopper.locator('.section__title').first().waitFor();
    expect(await shopper.locator('.header__store').innerText()).toBe('Beans and Leaves');
    const titles = (await shopper.locator('.section__title').allInnerTexts()).map((title) =>
      title.replace(/^\d+\s*/, '').replace(/^Step \d+:\s*/, ''),
    );
    expect(titles.indexOf('Shipping address')).toBeGreaterThanOrEqual(0);
    expect(titles.indexOf('Shipping address')).toBeLessThan(titles.indexOf('Contact'));
    await shopper.close();
    expect(problems).toEqual([]);
  });
});

describe('shipping and tax', () => {
  it('makes a shipping profile and a tax rate, each after a refusal shown by its field', async () => {
    const { page, problems } = await ownerPage(1400);
    await open(page, '/admin/shipping', 'Shipping and tax');
    await page.getByRole('table', { name: 'Shipping profiles' }).waitFor();
    expect(await violations(page)).toEqual([]);

    await page.getByRole('link', { name: 'New shipping profile' }).click();
    await expect.poll(() => focusedText(page)).toBe('New shipping profile');
    await page.getByLabel('Name').fill('Express');
    await page.getByLabel('Countries').fill('US, ZZ');
    await page.getByLabel('Price (USD)').fill('12.5');
    await page.getByLabel('Free over (USD) (optional)').fill('100');
    await page.getByRole('button', { name: 'Create the profile' }).click();
    await page.locator('#field-countries-error').filter({ hasText: 'two-letter ISO country code' }).waitFor();
    expect(await page.getByLabel('Countries').getAttribute('aria-invalid')).toBe('true');
    expect(await violations(page)).toEqual([]);
    await page.getByLabel('Countries').fill('US, CA');
    await page.getByRole('button', { name: 'Create the profile' }).click();
    await expect.poll(() => focusedText(page)).toBe('Express');
    await page.getByText('The shipping profile is created.').waitFor();
    created.profile = new URL(page.url()).pathname;
    expect(created.profile).toMatch(/^\/admin\/shipping\/profiles\/\d+$/);
    await page.locator('.admin-trail').getByText('Created by Olive Owner').waitFor();
    expect(await violations(page)).toEqual([]);

    await page.getByRole('link', { name: 'Back to shipping and tax' }).click();
    await expect.poll(() => focusedText(page)).toBe('Shipping and tax');
    await page.getByRole('row', { name: /Express US, CA \$12\.50 \$100\.00 Active/ }).waitFor();

    await page.getByRole('link', { name: 'New tax rate' }).click();
    await expect.poll(() => focusedText(page)).toBe('New tax rate');
    await page.getByLabel('Country').fill('US');
    await page.getByLabel('State (optional)').fill('FL');
    await page.getByLabel('Rate (percent)').fill('160');
    await page.getByLabel('Name (optional)').fill('Florida sales tax');
    await page.getByRole('button', { name: 'Create the rate' }).click();
    await page.locator('#field-rate-error').filter({ hasText: 'Must be at most 100.' }).waitFor();
    expect(await violations(page)).toEqual([]);
    await page.getByLabel('Rate (percent)').fill('6');
    await page.getByRole('button', { name: 'Create the rate' }).click();
    await expect.poll(() => focusedText(page)).toBe('Tax rate for US, FL');
    created.taxRate = new URL(page.url()).pathname;
    await page.locator('.admin-trail').getByText('Created by Olive Owner').waitFor();
    expect(await violations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });
});

describe('staff', () => {
  it('invites a member who signs in through the email, finds the owner’s screens closed, and is removed', async () => {
    const { page, problems } = await ownerPage(1400);
    await open(page, '/admin/staff', 'Staff');
    await page.getByRole('row', { name: /Olive Owner you/ }).waitFor();
    expect(await violations(page)).toEqual([]);

    await page.getByLabel('Email').fill('sam@demo.example');
    await page.getByLabel('Name (optional)').fill('Sam Staff');
    await page.getByRole('button', { name: 'Invite' }).click();
    await page
      .locator('.staff-done')
      .filter({
        hasText: /Sam Staff \(sam@demo\.example\) is invited as staff\. The invitation email is queued/,
      })
      .waitFor();
    await page
      .getByRole('row', { name: /Sam Staff sam@demo\.example Staff Invited .*no password yet/ })
      .waitFor();
    expect(await violations(page)).toEqual([]);

    // The server's own worker sends the invitation through the test's SMTP server.
    await expect
      .poll(() => inbox.messages.some((mail) => mail.subject?.startsWith('You are invited')), {
        timeout: 15_000,
      })
      .toBe(true);
    const invitation = inbox.messages.find((mail) => mail.subject?.startsWith('You are invited'));
    const link = /Set your password: (\S+)/.exec(invitation?.text ?? '')?.[1] ?? '';
    expect(link).toMatch(/\/admin\/link#[\w-]+$/);

    const staffContext = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const staffPage = await staffContext.newPage();
    const staffProblems: string[] = [];
    staffPage.on('pageerror', (error) => staffProblems.push(error.message));
    await staffPage.goto(link);
    await staffPage.getByRole('heading', { name: 'Set your password' }).waitFor();
    await staffPage.getByLabel('New password').fill('staff passphrase 1');
    await staffPage.getByRole('button', { name: 'Save and sign in' }).click();
    await staffPage.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
    const menu = await staffPage
      .getByRole('navigation', { name: 'Dashboard' })
      .getByRole('link')
      .allInnerTexts();
    expect(menu).toContain('Shipping and tax');
    for (const ownerOnly of ['Settings', 'Developers', 'Staff']) expect(menu).not.toContain(ownerOnly);
    // Shipping and tax is theirs too (it reads the store's currency, which staff may read).
    await staffPage.getByRole('link', { name: 'Shipping and tax' }).click();
    await staffPage.getByRole('row', { name: /Express US, CA/ }).waitFor();
    await staffPage.goto(`${server.baseUrl}/admin/settings`);
    await staffPage.getByRole('heading', { level: 1, name: 'Only the owner can open this' }).waitFor();
    expect(await violations(staffPage)).toEqual([]);

    await page.reload();
    await page.getByRole('row', { name: /Sam Staff sam@demo\.example Staff Active/ }).waitFor();
    await page.getByRole('button', { name: 'Remove Sam Staff' }).click();
    await expect.poll(() => focusedText(page)).toMatch(/^Remove Sam Staff\? They are signed out at once/);
    expect(await violations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Yes, remove Sam Staff' }).click();
    await page.locator('.staff-done').filter({ hasText: 'Sam Staff is removed.' }).waitFor();
    await expect.poll(() => focusedText(page)).toBe('Members');
    await expect.poll(() => page.getByRole('row', { name: /Sam Staff/ }).count()).toBe(0);
    // Removed for real: their next screen sends them to sign in.
    await staffPage.goto(`${server.baseUrl}/admin/orders`);
    await staffPage.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await staffContext.close();

    // The only owner stays, in the server's words.
    await page.getByRole('button', { name: `Remove ${OWNER.name}` }).click();
    await page.getByRole('button', { name: `Yes, remove ${OWNER.name}` }).click();
    await page.getByRole('alert').filter({ hasText: 'only owner cannot be removed' }).waitFor();
    expect(await violations(page)).toEqual([]);
    await page.getByRole('button', { name: `Keep ${OWNER.name}` }).click();
    await expect.poll(() => focusedText(page)).toBe(`Remove ${OWNER.name}`);
    expect(problems).toEqual([]);
    expect(staffProblems).toEqual([]);
  });
});

describe('on a 375 px phone', () => {
  it('fits every screen without sideways scrolling, with no axe violation', async () => {
    const { page, problems } = await ownerPage(375);
    const screens: [string, string][] = [
      ['/admin/settings', 'Settings'],
      ['/admin/shipping', 'Shipping and tax'],
      ['/admin/shipping/profiles/new', 'New shipping profile'],
      ['/admin/shipping/tax-rates/new', 'New tax rate'],
      [
        created.profile ?? '/admin/shipping/profiles/new',
        created.profile ? 'Express' : 'New shipping profile',
      ],
      [
        created.taxRate ?? '/admin/shipping/tax-rates/new',
        created.taxRate ? 'Tax rate for US, FL' : 'New tax rate',
      ],
      ['/admin/staff', 'Staff'],
    ];
    for (const [address, heading] of screens) {
      await open(page, address, heading);
      await expect.poll(() => page.locator('.loading').count()).toBe(0);
      expect(await pageWidth(page), address).toBeLessThanOrEqual(375);
      expect(await violations(page), address).toEqual([]);
    }
    expect(problems).toEqual([]);
  });
});
