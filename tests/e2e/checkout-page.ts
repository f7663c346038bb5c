import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Frame, FrameLocator, Locator, Page } from 'playwright-core';
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

/**
 * The processor's card fields: a frame of the processor's own origin inside the page's "Card details" group
 * (docs/payments.md). Found by where the page puts it, whatever title the adapter gives its frame.
 */
export const CARD_FRAME = '#field-card_details iframe';

/** Where the card fields' frame is read: their labels are the frame's own. */
export const CARD_LABELS = {
  number: /card number/i,
  expiry: /expir/i,
  cvv: /security code|cvv|cvc/i,
} as const;

/** A card number's digits, however they are grouped. */
export const digitsOf = (text: string) => text.replace(/\D/g, '');

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
    /** the browser's language (its Accept-Language and navigator.languages) */
    locale?: string,
  ): Promise<CheckoutPage> {
    const context = await browser.newContext({ viewport, ...(locale ? { locale } : {}) });
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

  /** The card fields' frame (the processor's origin: the page's scripts cannot read it, the test can). */
  cardFrame(): FrameLocator {
    return this.page.frameLocator(CARD_FRAME);
  }

  cardField(which: keyof typeof CARD_LABELS): Locator {
    return this.cardFrame().getByLabel(CARD_LABELS[which]);
  }

  /** The page's "Card details" group, which holds the frame; it says what the frame last told the page. */
  cardGroup(): Locator {
    return this.page.getByRole('group', { name: 'Card details' });
  }

  /** Waits until the processor's fields are mounted and usable. */
  async cardReady(): Promise<void> {
    await this.cardField('number').waitFor();
  }

  /** Waits until the page has heard from the frame that the card fields are in the given state. */
  async cardState(state: 'empty' | 'incomplete' | 'complete'): Promise<void> {
    await this.page.locator(`#field-card_details[data-card-state="${state}"]`).waitFor();
  }

  /** Types a card into the processor's framed fields, as a shopper does, and waits until the page knows it. */
  async fillCard(number: string, expiry = '12 / 30', cvv = '123'): Promise<void> {
    await this.typeCardNumber(number);
    await this.cardField('expiry').fill(expiry);
    await this.cardField('cvv').fill(cvv);
    await this.cardState('complete');
  }

  /** Replaces the number in the framed number field (the expiry and security code stay). */
  async typeCardNumber(number: string): Promise<void> {
    const field = this.cardField('number');
    await field.fill('');
    await field.pressSequentially(number);
  }

  /** The frame of the bank's 3-D Secure challenge, once it shows (the processor's page, in a frame of its own). */
  async challengeFrame(timeout = 15_000): Promise<Frame> {
    const deadline = Date.now() + timeout;
    for (;;) {
      const frame = this.page.frames().find((candidate) => candidate.url().includes('/challenge/'));
      if (frame) {
        await frame.waitForLoadState();
        return frame;
      }
      if (Date.now() > deadline) throw new Error('No 3-D Secure challenge appeared.');
      await this.page.waitForTimeout(100);
    }
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

  /**
   * Runs axe-core on the page as it is now (WCAG 2.1 A and AA rules and best practices), and on each frame in it (the
   * card fields are the processor's page, of another origin: axe is run there on its own, not asked through the page).
   */
  async axe(): Promise<AxeViolation[]> {
    const found: AxeViolation[] = [];
    for (const frame of this.page.frames()) {
      const violations = await axeIn(frame, frame !== this.page.mainFrame());
      const where = frame === this.page.mainFrame() ? null : new URL(frame.url()).pathname;
      found.push(
        ...violations.map((violation) =>
          where
            ? {
                ...violation,
                nodes: violation.nodes.map((node) => ({
                  ...node,
                  target: [`frame ${where}`, ...node.target],
                })),
              }
            : violation,
        ),
      );
    }
    return found;
  }
}

/** axe-core in one frame, not following its frames (each is run on its own). */
export async function axeIn(frame: Frame, framed: boolean): Promise<AxeViolation[]> {
  if (frame.url() === 'about:blank' || frame.isDetached()) return [];
  // Evaluated through the DevTools protocol: the page's CSP (script-src 'self') stays on for the page itself.
  await frame.evaluate(AXE_SOURCE);
  return frame.evaluate(async (framed) => {
    // Runs in the page (no DOM types in the Node test build).
    const page = globalThis as any;
    const result = await page.axe.run(page.document, {
      iframes: false,
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      // A framed document is a part of the page, not a page: it has no landmarks or heading of its own to give.
      ...(framed
        ? { rules: { 'page-has-heading-one': { enabled: false }, region: { enabled: false } } }
        : {}),
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
  }, framed);
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
