import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ABUSE_LIMITS } from '../../src/server/platform/security/abuse-limits.js';
import { startCheckoutServer, type CheckoutServer } from '../helpers/checkout-server.js';
import { launchBrowser } from './browser.js';

// The built page in Chromium, behind a "proxy" (the server trusts 127.0.0.1) that names the shopper's address.

const SHOPPER_ADDRESS = '81.2.69.99';
let server: CheckoutServer;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  server = await startCheckoutServer({ trustedProxies: ['127.0.0.1'] });
  browser = await launchBrowser();
  context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': SHOPPER_ADDRESS } });
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.close();
});

/** Opens the demo's checkout link through the API as often as the limit allows, from the shopper's address. */
async function useUpLinkCarts(): Promise<void> {
  const headers = { 'content-type': 'application/json', 'x-forwarded-for': SHOPPER_ADDRESS };
  const csrf = (await (
    await fetch(`${server.baseUrl}/checkout/api/csrf`, { method: 'POST', headers, body: '{}' })
  ).json()) as {
    csrfToken: string;
  };
  const authorized = (await (
    await fetch(`${server.baseUrl}/checkout/api/authorize`, {
      method: 'POST',
      headers: { ...headers, 'csrf-token': csrf.csrfToken },
      body: JSON.stringify({ organization: 'demo' }),
    })
  ).json()) as { access_token: string };
  for (let i = 0; i < ABUSE_LIMITS.linkCartsPerIp.limit; i++) {
    const response = await fetch(`${server.baseUrl}/checkout/api/vrio/carts/__c__coffee`, {
      headers: {
        ...headers,
        authorization: `Bearer ${authorized.access_token}`,
        'csrf-token': csrf.csrfToken,
      },
    });
    expect(response.status).toBe(200);
  }
}

describe('a checkout link opened too often from one address', () => {
  it('shows the page with the reason and how long to wait, and a way to try again', async () => {
    await useUpLinkCarts();
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${server.baseUrl}/checkout/__c__coffee`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain(
      'This checkout link was opened too many times from your network. Please try again in 10 minutes.',
    );
    expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(1);
    // The address bar still names the link: once the wait is over, trying again makes the cart.
    expect(new URL(page.url()).pathname).toBe('/checkout/__c__coffee');
    expect(problems).toEqual([]);
  });
});
