import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import type { CheckoutServer } from '../helpers/checkout-server.js';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface Address {
  country: string;
  fname: string;
  lname: string;
  address1: string;
  city: string;
  state?: string;
  zipcode: string;
}

export const ADA: Address = {
  country: 'US',
  fname: 'Ada',
  lname: 'Lovelace',
  address1: '1 Main St',
  city: 'Austin',
  state: 'TX',
  zipcode: '73301',
};

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary: string }[];
}

/** The checkout page as a shopper uses it: one object for every browser test. */
export class CheckoutPage {
  /** Content-Security-Policy violations and page errors seen so far (must stay empty). */
  readonly problems: string[] = [];

  private constructor(
    readonly context: BrowserContext,
    readonly page: Page,
    readonly server: CheckoutServer,
  ) {
    page.on('console', (message) => {
      const text = message.text();
      if (/Content Security Policy|Refused to/.test(text)) this.problems.push(`CSP: ${text}`);
    });
    page.on('pageerror', (error) => this.problems.push(`page error: ${error.message}`));
  }

  static async create(
    browser: Browser,
    server: CheckoutServer,
    viewport = { width: 1280, height: 900 },
  ): Promise<CheckoutPage> {
    const context = await browser.newContext({ viewport });
    return new CheckoutPage(context, await context.newPage(), server);
  }

  async close(): Promise<void> {
    await this.context.close();
  }

  /** Opens /checkout/{token} (with cypress=1: test mode) and waits for the first step. */
  async open(token: string, options: { testMode?: boolean } = {}): Promise<void> {
    await this.page.goto(`${this.server.baseUrl}/checkout/${token}${options.testMode ? '?cypress=1' : ''}`);
    await this.page.locator('.sections, .confirmation, .page-error').first().waitFor();
  }

  /** The cart token in the address bar. */
  currentToken(): string {
    return new URL(this.page.url()).pathname.split('/').pop() ?? '';
  }

  button(name: string | RegExp): Locator {
    return this.page.getByRole('button', { name });
  }

  field(label: string | RegExp): Locator {
    return this.page.getByLabel(label, { exact: typeof label === 'string' });
  }

  async fillContact(email: string): Promise<void> {
    await this.field('Email').fill(email);
    await this.button(/^Continue to /).click();
  }

  async fillAddress(address: Address): Promise<void> {
    await this.field('Country or region').selectOption(address.country);
    await this.field('First name').fill(address.fname);
    await this.field('Last name').fill(address.lname);
    await this.field('Street address').fill(address.address1);
    await this.field('City').fill(address.city);
    if (address.state)
      await this.page.getByRole('combobox', { name: /^(State|Province)/ }).selectOption(address.state);
    await this.page.getByLabel(/^(ZIP code|Postcode|Postal code)$/).fill(address.zipcode);
  }

  /** Fills the shipping address (waiting for its preview), optionally picks a shipping method, continues. */
  async fillShipping(address: Address = ADA, method?: string | RegExp): Promise<void> {
    await this.fillAddress(address);
    if (method) {
      const preview = this.page.waitForResponse((response) => response.url().includes('/preview?'));
      await this.page.getByRole('radio', { name: method }).check();
      await preview;
      await this.waitForPreview();
    }
    await this.button(/^Continue to /).click();
  }

  /** Waits until no preview is pending (the totals stop shimmering). */
  async waitForPreview(): Promise<void> {
    await this.page.locator('.summary__totals--pending').waitFor({ state: 'detached' });
  }

  async fillCard(number: string, expiry = '12 / 30', cvv = '123'): Promise<void> {
    await this.field('Card number').fill(number);
    await this.field('Expiry date (MM / YY)').fill(expiry);
    await this.field('Security code (CVV)').fill(cvv);
  }

  orderButton(): Locator {
    return this.button(/^(Pay \$|Start subscription|Place order|Claim your gift)/);
  }

  /** Waits for the confirmation and answers the order number it shows. */
  async confirmation(): Promise<number> {
    await this.page.getByRole('heading', { name: /^Thank you/ }).waitFor();
    const text = (await this.page.locator('.confirmation__lead strong').textContent()) ?? '';
    return Number(text.replace('#', ''));
  }

  summaryText(): Promise<string> {
    return this.page.locator('.summary__body').innerText();
  }

  /** Runs axe-core on the page as it is now (WCAG 2.1 A and AA rules and best practices). */
  async axe(): Promise<AxeViolation[]> {
    // Evaluated through the DevTools protocol: the page's CSP (script-src 'self') stays on for the page itself.
    await this.page.evaluate(AXE_SOURCE);
    return this.page.evaluate(async () => {
      // Runs in the page (no DOM types in the Node test build).
      const page = globalThis as any;
      const result = await page.axe.run(page.document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      });
      return (result.violations as any[]).map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        help: violation.help,
        nodes: (violation.nodes as any[]).map((node) => ({
          target: node.target,
          failureSummary: node.failureSummary,
        })),
      })) as AxeViolation[];
    });
  }
}

/** The orders of one cart, read through the merchant API. */
export async function ordersOfCart(server: CheckoutServer, cartToken: string) {
  const list = await server.merchant('GET', '/orders?limit=100');
  const summaries = (list.body.data as { order_id: number; cart_token: string }[]).filter(
    (order) => order.cart_token === cartToken,
  );
  return Promise.all(
    summaries.map(async (order) => (await server.merchant('GET', `/orders/${order.order_id}`)).body),
  );
}
