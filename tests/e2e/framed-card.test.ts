import type { Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useShopperBrowser } from './shopper-browser.js';
import { CARD_FRAME, digitsOf, ordersOfCart, type CheckoutPage } from './checkout-page.js';

// Cards are typed into the payment processor's own frame (docs/payments.md): the built-in test processor, served
// from an origin of its own by the real server, in Debian's Chromium. The page never holds a card number: it cannot
// read the frame, and nothing it sends to its own origin carries one.

const session = useShopperBrowser();
const shopper = session.shopper;

const coffee = () => session.server.newCart([{ item_id: 'BEANS-ETH-340' }]);

/** Opens a new cart and fills the steps before payment. */
async function atPayment(checkout: CheckoutPage): Promise<string> {
  const token = await coffee();
  await checkout.open(token);
  await checkout.fillContact('ada@example.com');
  await checkout.fillShipping();
  await checkout.cardReady();
  return token;
}

/** Every request the page and its frames make, with what it carries. */
function recordRequests(checkout: CheckoutPage) {
  const seen: { url: string; method: string; body: string }[] = [];
  checkout.page.on('request', (request: Request) => {
    seen.push({ url: request.url(), method: request.method(), body: request.postData() ?? '' });
  });
  return seen;
}

const decoded = (text: string) => {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
};

/** Whether a request carries the card's digits, however they were grouped or escaped. */
const carries = (request: { url: string; body: string }, number: string) =>
  [request.url, request.body, decoded(request.url), decoded(request.body)].some((text) =>
    digitsOf(text).includes(digitsOf(number)),
  );

describe('a shopper pays with a card typed into the frame', () => {
  it('types the test card into the framed fields, and the order completes', async () => {
    const checkout = await shopper();
    const token = await atPayment(checkout);
    // The frame is the processor's, inside the page's labelled group.
    const src = await checkout.page.locator(CARD_FRAME).getAttribute('src');
    expect(new URL(src ?? '').origin).not.toBe(new URL(session.server.baseUrl).origin);
    await checkout.fillCard('4111 1111 1111 1111');
    await checkout.page.locator('.card-frame__brand', { hasText: 'Visa' }).waitFor();
    await checkout.orderButton().click();
    await checkout.confirmation();
    const orders = await ordersOfCart(session.server, token);
    expect(orders).toHaveLength(1);
    expect(orders[0].status).toBe('complete');
    expect(orders[0].payment_attempts.map((attempt: { status: string }) => attempt.status)).toEqual([
      'approved',
    ]);
  });
});

describe("the page's scripts cannot read the card", () => {
  it('are kept out of the frame, and nothing sent to the checkout carries the card number', async () => {
    const checkout = await shopper();
    const requests = recordRequests(checkout);
    await atPayment(checkout);
    await checkout.fillCard('4111 1111 1111 1111');

    // From the page: the frame's document is out of reach (another origin).
    const reach = await checkout.page.evaluate<{
      frames: number;
      contentDocument: boolean[];
      windowDocument: string[];
    }>(`(() => {
      const frames = [...document.querySelectorAll('iframe')];
      return {
        frames: frames.length,
        contentDocument: frames.map((frame) => frame.contentDocument === null),
        windowDocument: frames.map((frame) => {
          try {
            return frame.contentWindow.document ? 'read' : 'empty';
          } catch (error) {
            return error.name;
          }
        }),
      };
    })()`);
    expect(reach.frames).toBeGreaterThan(0);
    expect(reach.contentDocument.every(Boolean)).toBe(true);
    expect(reach.windowDocument.every((outcome) => outcome === 'SecurityError')).toBe(true);

    await checkout.orderButton().click();
    await checkout.confirmation();

    const checkoutOrigin = new URL(session.server.baseUrl).origin;
    const toCheckout = requests.filter((request) => new URL(request.url).origin === checkoutOrigin);
    const orders = toCheckout.filter((request) => /\/vrio\/orders/.test(request.url));
    expect(orders).toHaveLength(1);
    expect(JSON.parse(orders[0]!.body).payment).toEqual({ method: 'card', card_token: expect.any(String) });
    expect(toCheckout.filter((request) => carries(request, '4111 1111 1111 1111'))).toEqual([]);
    // The check can see a card number: the frame sent this one to its own processor, and only there.
    expect(requests.some((request) => carries(request, '4111111111111111'))).toBe(true);
  });
});

describe('3-D Secure', () => {
  const THREE_DS = '4000 0027 6000 3184';

  it("shows the bank's challenge, and completing it completes the order", async () => {
    const checkout = await shopper();
    const token = await atPayment(checkout);
    await checkout.fillCard(THREE_DS);
    await checkout.orderButton().click();
    const challenge = await checkout.challengeFrame();
    // Nothing is claimed while the bank waits.
    expect(await checkout.page.getByRole('heading', { name: /^Thank you/ }).count()).toBe(0);
    await challenge.getByRole('button', { name: 'Complete authentication' }).click();
    await checkout.confirmation();
    const orders = await ordersOfCart(session.server, token);
    expect(orders).toHaveLength(1);
    expect(orders[0].status).toBe('complete');
    expect(orders[0].payment_attempts.at(-1).status).toBe('approved');
  });

  it('failing it leaves the order open with a message, and the order can then be paid', async () => {
    const checkout = await shopper();
    const token = await atPayment(checkout);
    await checkout.fillCard(THREE_DS);
    await checkout.orderButton().click();
    const challenge = await checkout.challengeFrame();
    await challenge.getByRole('button', { name: 'Fail authentication' }).click();
    const message = checkout.page.locator('.section-form > [role="alert"].notice--error');
    await message.waitFor();
    expect((await message.innerText()).length).toBeGreaterThan(0);
    expect(await checkout.page.getByRole('heading', { name: /^Thank you/ }).count()).toBe(0);
    const [open] = await ordersOfCart(session.server, token);
    expect(open.status).not.toBe('complete');

    // Another card, typed in the same frame: a new token, the same order.
    await checkout.typeCardNumber('4111 1111 1111 1111');
    await checkout.cardState('complete');
    await checkout.orderButton().click();
    await checkout.confirmation();
    const orders = await ordersOfCart(session.server, token);
    expect(orders).toHaveLength(1);
    expect(orders[0].order_id).toBe(open.order_id);
    expect(orders[0].status).toBe('complete');
  });
});

describe('a declined card', () => {
  it('shows the decline, and a retry with another card completes the order with a new token', async () => {
    const checkout = await shopper();
    const requests = recordRequests(checkout);
    const token = await atPayment(checkout);
    await checkout.fillCard('4000 0000 0000 0002');
    await checkout.orderButton().click();
    const decline = checkout.page.locator('.section-form > [role="alert"].notice--error');
    await decline.waitFor();
    expect(await decline.innerText()).toMatch(/declined/i);

    await checkout.typeCardNumber('4111 1111 1111 1111');
    await checkout.cardState('complete');
    await checkout.orderButton().click();
    await checkout.confirmation();

    const sent = requests
      .filter((request) => /\/vrio\/orders/.test(request.url) && request.method !== 'GET')
      .map((request) => JSON.parse(request.body).payment.card_token as string);
    expect(sent).toHaveLength(2);
    expect(sent[0]).not.toBe(sent[1]);
    const orders = await ordersOfCart(session.server, token);
    expect(orders).toHaveLength(1);
    expect(orders[0].status).toBe('complete');
    expect(orders[0].payment_attempts.map((attempt: { status: string }) => attempt.status)).toEqual([
      'declined',
      'approved',
    ]);
  });
});
