import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StaffSessionSchema } from '../../src/contract/staff.js';
import { issueOwnerLink } from '../../src/server/modules/staff/staff-service.js';
import { runRebills } from '../../src/server/modules/subscriptions/rebill-service.js';
import { systemClock } from '../../src/server/platform/clock.js';
import { createPaymentGateways } from '../../src/server/platform/payments/select-gateway.js';
import { startCheckoutServer, type CheckoutServer } from '../helpers/checkout-server.js';
import { orderBody } from '../helpers/order-body.js';
import { runDueJobs } from '../helpers/server-jobs.js';
import { http } from '../helpers/server-process.js';
import { shopperSession } from '../helpers/shopper.js';
import { launchBrowser } from './browser.js';
import {
  focusedText,
  OWNER,
  pageWidth,
  signedInPage,
  violations,
  type DashboardPage,
} from './dashboard-session.js';

// The dashboard's Subscriptions and Developers screens (docs/dashboard.md) in Debian's Chromium against the built
// page on the real app: a subscription made through the shopper API, found through the list's filters, skipped,
// paused, resumed and cancelled through its screen; a prepaid plan's $0 fulfilment order, its subscription's periods
// and a checkout link preview's bumps and upsells; an API key and a webhook endpoint made (each secret shown once),
// the key revoked; the email log and one email; each screen at 1400 and 375 px with axe finding nothing; and a member
// of staff, who has no Developers.

let server: CheckoutServer;
let browser: Browser;
let owner: { name: string; value: string };
const pages: DashboardPage[] = [];
const CUSTOMER = 'dana.dashboard@example.com';

beforeAll(async () => {
  server = await startCheckoutServer();
  browser = await launchBrowser();
  owner = await ownerSession();
}, 60_000);

afterAll(async () => {
  for (const page of pages) await page.context.close();
  await browser?.close();
  await server?.close();
});

function cookieOf(headers: Headers): { name: string; value: string } {
  const [pair = ''] = (headers.get('set-cookie') ?? '').split(';');
  const at = pair.indexOf('=');
  return { name: pair.slice(0, at), value: pair.slice(at + 1) };
}

/** The demo store's owner, through the one-time link `npm start` would print. */
async function ownerSession() {
  const { rows } = await server.database.db.query<{ id: number }>(
    "SELECT id FROM organizations WHERE public_id = 'demo'",
  );
  const link = await issueOwnerLink(server.database.db, rows[0]!.id, server.baseUrl, systemClock.now());
  const answer = await http(server.baseUrl, 'POST', '/admin/api/links/complete', {
    body: { token: new URL(link.url).hash.slice(1), ...OWNER },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return cookieOf(answer.headers);
}

async function subscribe(): Promise<{ id: number; orderId: number }> {
  const cart = await server.newCart([{ item_id: 'CLUB-2' }]);
  const shopper = await shopperSession(server.app, 'demo');
  await shopper.get(`carts/${cart}/preview`, { ship_country: 'US', ship_state: 'TX' });
  const placed = await shopper.post(
    'orders',
    orderBody(cart, { email: CUSTOMER, subscription_terms_accepted: true }),
  );
  expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  const orderId = placed.body.order.order_id as number;
  const order = await server.merchant('GET', `/orders/${orderId}`);
  return { id: order.body.subscription_ids[0] as number, orderId };
}

async function open(width: number, cookie = owner): Promise<DashboardPage> {
  const opened = await signedInPage(browser, { baseUrl: server.baseUrl } as never, cookie, width);
  pages.push(opened);
  return opened;
}

async function heading(page: Page, name: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
  await expect.poll(() => focusedText(page)).toBe(name);
}

/** The elements that reach past the page's right edge, to say what made it scroll sideways. */
function overflowing(page: Page, width: number): Promise<string[]> {
  return page.evaluate((limit) => {
    const all = [...(globalThis as any).document.querySelectorAll('body *')] as any[];
    return all
      .filter(
        (element) =>
          element.getBoundingClientRect().right > limit + 1 && !element.closest('.admin-table-wrap'),
      )
      .slice(0, 5)
      .map(
        (element) =>
          `${element.tagName}.${element.className} ${Math.round(element.getBoundingClientRect().right)}`,
      );
  }, width);
}

async function fitsAndPasses(page: Page, width: number): Promise<void> {
  expect(await pageWidth(page), (await overflowing(page, width)).join('; ')).toBeLessThanOrEqual(width);
  expect(await violations(page)).toEqual([]);
}

/** The result of a change, shown by the screen (the live region says it too). */
async function said(page: Page, text: string | RegExp): Promise<void> {
  await page.locator('[data-result]').filter({ hasText: text }).waitFor();
}

/** The date as the page writes it (the browser's own format and time zone). */
function shownDate(page: Page, iso: string): Promise<string> {
  return page.evaluate(
    (at) => new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' }).format(new Date(at)),
    iso,
  );
}

describe('the Subscriptions and Developers screens', () => {
  it('find a subscription and skip, pause, resume and cancel it', async () => {
    const { id, orderId } = await subscribe();
    await runDueJobs(server);
    const { page, problems } = await open(1400);

    await page.goto(`${server.baseUrl}/admin/subscriptions`);
    await heading(page, 'Subscriptions');
    await page.getByLabel('Customer email or subscription id').fill('DANA.dashboard');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/\?q=DANA\.dashboard$/);
    await page.getByLabel('Status').selectOption('paused');
    await page.waitForURL(/status=paused/);
    await page.getByText('No subscriptions match these filters.').waitFor();
    const rows = page.locator('tbody tr');
    // Moved with the keyboard, the select keeps the focus while the list follows it, and the count is said.
    await page.getByLabel('Status').focus();
    await page.keyboard.press('Home');
    await page.waitForURL(/\/admin\/subscriptions\?q=DANA\.dashboard$/);
    await rows.first().waitFor();
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.id)).toBe('field-status');
    await expect
      .poll(() => page.locator('[role="status"][aria-live="polite"]').innerText())
      .toBe('1 subscription shown.');
    await page.getByLabel('Status').selectOption('active');
    await page.getByLabel('Live or test').selectOption('false');
    await page.waitForURL(/status=active&test=false&q=DANA\.dashboard$/);
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().innerText()).toMatch(
      new RegExp(`^${id}\\s+${CUSTOMER.replace('.', '\\.')}\\s+Active\\s+\\$\\d+\\.\\d\\d every 30 days`),
    );
    expect(await violations(page)).toEqual([]);

    await page.getByRole('link', { name: String(id), exact: true }).click();
    await heading(page, `Subscription ${id}`);
    expect(await page.getByRole('link', { name: `Order ${orderId}` }).getAttribute('href')).toBe(
      `/admin/orders/${orderId}`,
    );
    expect(await violations(page)).toEqual([]);

    const before = (await server.merchant('GET', `/subscriptions/${id}`)).body;
    await page.getByRole('button', { name: 'Skip the next charge' }).click();
    await said(page, /^The next charge is skipped: it is now on /);
    const after = (await server.merchant('GET', `/subscriptions/${id}`)).body;
    expect(new Date(after.next_charge_at).getTime() - new Date(before.next_charge_at).getTime()).toBe(
      30 * 86_400_000,
    );
    const newDate = await shownDate(page, after.next_charge_at);
    await said(page, `The next charge is skipped: it is now on ${newDate}.`);
    await expect.poll(() => focusedText(page)).toContain('The next charge is skipped');
    expect(await page.locator('[data-next-charge]').innerText()).toContain(newDate);

    await page.getByRole('button', { name: 'Make a self-service link' }).click();
    expect(await page.getByRole('textbox', { name: 'Self-service link' }).inputValue()).toMatch(
      /\/checkout\/manage\//,
    );
    await page.getByText(/^Works until /).waitFor();

    await page.getByRole('button', { name: 'Pause' }).click();
    await said(page, 'Paused: it will not be charged until it is resumed.');
    await page.getByText('Paused since').waitFor();
    await page.getByRole('button', { name: 'Resume' }).click();
    await said(page, /^Resumed: the next charge is on /);

    // Paused elsewhere meanwhile: the server's refusal is shown in its words, and the screen catches up.
    expect((await server.merchant('POST', `/subscriptions/${id}/pause`, {})).status).toBe(200);
    await page.getByRole('button', { name: 'Skip the next charge' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'This subscription is paused: resume it before skipping a charge.' })
      .waitFor();
    await expect
      .poll(() => focusedText(page))
      .toBe('This subscription is paused: resume it before skipping a charge.');
    await page.getByRole('button', { name: 'Resume' }).waitFor();
    expect(await page.getByRole('button', { name: 'Skip the next charge' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Cancel the subscription' }).click();
    await expect.poll(() => focusedText(page)).toMatch(/^Cancelling is final/);
    expect(await violations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Keep the subscription' }).click();
    await expect.poll(() => focusedText(page)).toBe('Cancel the subscription');
    await page.getByRole('button', { name: 'Cancel the subscription' }).click();
    await page.getByRole('button', { name: 'Yes, cancel it' }).click();
    await said(page, 'Cancelled: it will not be charged again.');
    expect((await server.merchant('GET', `/subscriptions/${id}`)).body.status).toBe('cancelled');
    const trail = page.locator('.admin-trail');
    await expect
      .poll(() => trail.innerText())
      .toMatch(/Cancelled by Olive Owner[\s\S]*Resumed by[\s\S]*Paused by[\s\S]*Skipped the next charge by/);
    expect(await page.getByRole('button', { name: 'Pause' }).count()).toBe(0);
    expect(await violations(page)).toEqual([]);

    // At 375 px the screen fits its width.
    const narrow = await open(375);
    await narrow.page.goto(`${server.baseUrl}/admin/subscriptions/${id}`);
    await heading(narrow.page, `Subscription ${id}`);
    await narrow.page.getByText('Renewal charges').waitFor();
    await fitsAndPasses(narrow.page, 375);
    await narrow.page.goto(`${server.baseUrl}/admin/subscriptions`);
    await heading(narrow.page, 'Subscriptions');
    await narrow.page.locator('tbody tr').first().waitFor();
    await fitsAndPasses(narrow.page, 375);
    expect([...problems, ...narrow.problems]).toEqual([]);
  });

  it('show a prepaid fulfilment order, its subscription’s periods and a link preview’s bumps', async () => {
    const created = async (route: string, body: unknown) => {
      const answer = await server.merchant('POST', route, body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      return answer.body as { id: number };
    };
    const prepaid = await created('/offers', {
      offer_name: 'Club, 3 months',
      item_name: 'Prepaid club',
      price: 89.97,
      next_price: 84,
      is_recurring: true,
      billing_interval_days: 30,
      prepaid_cycles: 3,
    });
    const cart = await server.merchant('POST', '/carts', { offers: [{ offer_id: prepaid.id }] });
    const token = cart.body.cart_token as string;
    const shopper = await shopperSession(server.app, 'demo');
    await shopper.get(`carts/${token}/preview`, { ship_country: 'US', ship_state: 'TX' });
    const placed = await shopper.post(
      'orders',
      orderBody(token, { email: 'pat.prepaid@example.com', subscription_terms_accepted: true }),
    );
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const orderId = placed.body.order.order_id as number;
    const id = (await server.merchant('GET', `/orders/${orderId}`)).body.subscription_ids[0] as number;
    // Cycle 2 is due: the rebill run ships it as a $0 fulfilment order.
    const db = server.database.db;
    await db.query(`UPDATE subscriptions SET next_charge_at = now() - interval '1 minute' WHERE id = $1`, [
      id,
    ]);
    const gateways = createPaymentGateways(server.config, { db, clock: systemClock });
    expect(await runRebills({ db, gateways, clock: systemClock })).toMatchObject({ fulfilled: 1 });
    const orders = (await server.merchant('GET', '/orders?limit=10')).body.data as {
      order_id: number;
      fulfilment_of_subscription_id: number | null;
    }[];
    const fulfilment = orders.find((order) => order.fulfilment_of_subscription_id === id)?.order_id;
    expect(fulfilment).toBeDefined();

    const { page, problems } = await open(1400);
    await page.goto(`${server.baseUrl}/admin/orders/${fulfilment}`);
    await heading(page, `Order ${fulfilment}`);
    const card = page.getByRole('region', { name: 'Prepaid fulfilment' });
    // "of 3" comes with the subscription, read after the order.
    await expect
      .poll(() => card.innerText())
      .toContain(`Prepaid fulfilment — cycle 2 of 3 of subscription ${id}, paid by order ${orderId}.`);
    expect(await card.getByRole('link', { name: `Subscription ${id}` }).getAttribute('href')).toBe(
      `/admin/subscriptions/${id}`,
    );
    expect(await page.getByRole('region', { name: 'Amounts' }).innerText()).toMatch(
      new RegExp(`Total\\s+\\$0\\.00[\\s\\S]*Nothing is charged for this order: order ${orderId} paid once`),
    );
    expect(await violations(page)).toEqual([]);

    await page.goto(`${server.baseUrl}/admin/orders?q=pat.prepaid`);
    await heading(page, 'Orders');
    await page.getByText(`Prepaid fulfilment of subscription ${id}`).waitFor();
    expect(await page.locator('tbody tr').count()).toBe(2);
    expect(await violations(page)).toEqual([]);

    await page.goto(`${server.baseUrl}/admin/subscriptions/${id}`);
    await heading(page, `Subscription ${id}`);
    const plan = page.getByRole('region', { name: 'Prepaid plan' });
    expect(await plan.innerText()).toMatch(/Cycles shipped\s+2 \(cycle 2 of 3 of period 1\)/);
    expect(await plan.innerText()).toMatch(/Renews: the next 3 cycles are charged at once/);
    expect(await violations(page)).toEqual([]);

    const bump = await created('/offers', {
      offer_name: 'Mug bump',
      item_name: 'Travel mug',
      item_image: `${server.baseUrl}/checkout/images/mug.svg`,
      bump_text: 'Keep it hot on the way',
      price: 12,
    });
    const grinder = await created('/offers', { offer_name: 'Grinder', item_name: 'Burr grinder', price: 40 });
    const link = await created('/checkout-links', {
      name: 'Funnel e2e',
      offers: [{ offer_id: prepaid.id }],
      bump_offer_ids: [bump.id],
      upsells: [{ offer_id: grinder.id, downsell_offer_id: null }],
    });
    for (const width of [1400, 375]) {
      const { page: linkPage } = width === 1400 ? { page } : await open(375);
      await linkPage.goto(`${server.baseUrl}/admin/catalogue/checkout-links/${link.id}`);
      await heading(linkPage, 'Checkout link Funnel e2e');
      const bumps = linkPage.getByRole('region', { name: 'Order bumps' });
      await bumps.getByText('Keep it hot on the way').waitFor();
      expect(await bumps.innerText()).toContain('Travel mug (Mug bump): adds $12.00');
      expect(await bumps.locator('img').getAttribute('src')).toBe(
        `${server.baseUrl}/checkout/images/mug.svg`,
      );
      const upsells = linkPage.getByRole('region', { name: 'Offers after the purchase' });
      expect(await upsells.innerText()).toMatch(
        /Offer 1 Burr grinder \(Grinder\)[\s\S]*\$40\.00, before tax/,
      );
      await fitsAndPasses(linkPage, width);
    }
    expect(problems).toEqual([]);
  });

  it('make and revoke an API key, add a webhook endpoint, and show the email log', async () => {
    const { page, problems } = await open(1400);
    await page.goto(`${server.baseUrl}/admin`);
    await heading(page, 'Home');
    await page.getByRole('link', { name: 'Developers' }).click();
    await page.waitForURL(/\/admin\/developers\/api-keys$/);
    await heading(page, 'API keys');
    expect(await violations(page)).toEqual([]);

    await page.getByLabel('Label').fill('Warehouse');
    await page.getByRole('button', { name: 'Make a key' }).click();
    await expect.poll(() => focusedText(page)).toBe('Your new key');
    await page.getByText('it will not be shown again').waitFor();
    const key = await page.getByRole('textbox', { name: 'API key' }).inputValue();
    expect(key).toMatch(/^sk_/);
    expect(
      (
        await http(server.baseUrl, 'GET', '/checkout/api/merchant/orders', {
          headers: { authorization: `Bearer ${key}` },
        })
      ).status,
    ).toBe(200);
    expect(await violations(page)).toEqual([]);
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await page.reload();
    await heading(page, 'API keys');
    const row = page.locator('tbody tr').filter({ hasText: 'Warehouse' });
    await row.waitFor();
    expect(await page.content()).not.toContain(key);
    const prefix = (await row.locator('code').innerText()).replace('…', '');
    expect(key.startsWith(prefix)).toBe(true);

    await row.getByRole('button', { name: /^Revoke/ }).click();
    await expect.poll(() => focusedText(page)).toMatch(/^Revoke the key .*Warehouse/);
    expect(await violations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Yes, revoke it' }).click();
    await expect.poll(() => row.innerText()).toMatch(/Revoked/);
    expect(
      (
        await http(server.baseUrl, 'GET', '/checkout/api/merchant/orders', {
          headers: { authorization: `Bearer ${key}` },
        })
      ).status,
    ).toBe(401);

    await page.getByRole('link', { name: 'Webhooks' }).click();
    await heading(page, 'Webhooks');
    await page.getByLabel('URL to send events to').fill('http://127.0.0.1:9/hooks');
    await page.getByLabel('subscription.updated').check();
    await page.getByRole('button', { name: 'Add the endpoint' }).click();
    const urlError = 'Use a public address: this URL names this machine or a private network.';
    await page.locator('.field__error').filter({ hasText: urlError }).waitFor();
    expect(await page.getByLabel('URL to send events to').getAttribute('aria-invalid')).toBe('true');
    expect(await violations(page)).toEqual([]);
    await page.getByLabel('URL to send events to').fill('https://hooks.example.com/store');
    await page.getByRole('button', { name: 'Add the endpoint' }).click();
    await expect.poll(() => focusedText(page)).toBe('Endpoint added: its signing secret');
    const secret = await page.getByRole('textbox', { name: 'Signing secret' }).inputValue();
    expect(secret.length).toBeGreaterThan(20);
    expect(await violations(page)).toEqual([]);

    // An event for it: a subscription skipped through the API.
    const { id } = await subscribe();
    expect((await server.merchant('POST', `/subscriptions/${id}/skip`, {})).status).toBe(200);
    await page.getByRole('link', { name: 'Open the endpoint' }).click();
    const endpointHeading = /^Webhook endpoint \d+$/;
    await page.getByRole('heading', { level: 1, name: endpointHeading }).waitFor();
    await expect.poll(() => focusedText(page)).toMatch(endpointHeading);
    expect(await page.content()).not.toContain(secret);
    await page.locator('tbody tr').filter({ hasText: 'subscription.updated' }).waitFor();
    await page.getByRole('button', { name: /^Send again/ }).click();
    await page
      .locator('p:not([role])')
      .filter({ hasText: 'The subscription.updated event is queued to be sent again.' })
      .waitFor();
    await page.getByLabel('Send events to it').uncheck();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('p[role="status"]').filter({ hasText: 'Saved.' }).waitFor();
    await expect.poll(() => page.locator('.admin-trail').innerText()).toMatch(/Changed by Olive Owner/);
    expect(await violations(page)).toEqual([]);

    await runDueJobs(server);
    await page.getByRole('link', { name: 'Emails' }).click();
    await heading(page, 'Emails');
    await page.getByLabel('Order id').fill('first');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.locator('.field__error').filter({ hasText: 'Use the numeric id of an order.' }).waitFor();
    expect(await violations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Show all' }).click();
    await page.waitForURL(/\/admin\/developers\/emails$/);
    const email = page.locator('tbody tr').first().getByRole('link');
    await email.waitFor();
    const subject = await email.innerText();
    await email.click();
    await page.getByRole('heading', { level: 1, name: /^Email \d+$/ }).waitFor();
    await page.getByRole('heading', { level: 2, name: subject }).waitFor();
    expect(await page.locator('.developers-email-text').innerText()).not.toBe('');
    expect(await violations(page)).toEqual([]);

    const narrow = await open(375);
    for (const [path, name, ready] of [
      ['/admin/developers', 'API keys', 'tbody tr'],
      ['/admin/developers/webhooks', 'Webhooks', 'tbody tr'],
      ['/admin/developers/emails', 'Emails', 'tbody tr'],
      ['/admin/developers/emails/1', 'Email 1', '.developers-email-text'],
    ] as const) {
      await narrow.page.goto(`${server.baseUrl}${path}`);
      await heading(narrow.page, name);
      await narrow.page.locator(ready).first().waitFor();
      await fitsAndPasses(narrow.page, 375);
    }
    expect([...problems, ...narrow.problems]).toEqual([]);
  });

  it('shows staff no Developers, and tells them only the owner can open it', async () => {
    const invited = await server.merchant('POST', '/staff', { email: 'sam.staff@example.com', name: 'Sam' });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    await runDueJobs(server);
    const emails = (await server.merchant('GET', '/emails')).body.data as { id: number; kind: string }[];
    const invite = emails.find((email) => email.kind === 'staff_invite');
    // The log hides the invitation's one-time link (docs/emails.md); the email as stored, and sent, has it.
    const logged = (await server.merchant('GET', `/emails/${invite?.id}`)).body.text as string;
    expect(logged).toMatch(/admin\/link#\(hidden/);
    const { rows } = await server.database.db.query<{ body_text: string }>(
      'SELECT body_text FROM emails WHERE id = $1',
      [invite?.id],
    );
    const text = rows[0]?.body_text ?? '';
    const link = /Set your password: (\S+)/.exec(text)?.[1] ?? '';
    const joined = await http(server.baseUrl, 'POST', '/admin/api/links/complete', {
      body: { token: new URL(link).hash.slice(1), password: 'staff passphrase 1' },
    });
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    expect(StaffSessionSchema.parse(joined.body).member.role).toBe('staff');

    const { page, problems } = await open(1400, cookieOf(joined.headers));
    await page.goto(`${server.baseUrl}/admin`);
    await heading(page, 'Home');
    const menu = page.getByRole('navigation', { name: 'Dashboard' });
    await menu.getByRole('link', { name: 'Subscriptions' }).waitFor();
    expect(await menu.getByRole('link', { name: 'Developers' }).count()).toBe(0);
    await page.goto(`${server.baseUrl}/admin/developers`);
    await heading(page, 'Only the owner can open this');
    expect(await violations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });
});
