import { describe, expect, it } from 'vitest';
import { DEMO_ORGANIZATION } from '../../src/server/modules/demo/demo-store.js';
import { GIFT_RECIPIENT, LONDON_BILLING, orderBody } from '../helpers/order-body.js';
import { shopperSession } from '../helpers/shopper.js';
import { useShopperBrowser } from './shopper-browser.js';
import { ADA } from './checkout-page.js';

// What the page says is true: a claimed gift, who a gift is from, a paid order when the page breaks, what an express
// payment charges, and billing after leaving it. Real Chromium against the real server (see checkout.test.ts).

const session = useShopperBrowser();
const shopper = session.shopper;

/** A paid gift of a mug from Ada (through the API), answering its claim link. */
async function giftedMug(): Promise<string> {
  const token = await session.server.newCart([{ item_id: 'MUG-350', is_gift: true }]);
  const giver = await shopperSession(session.server.app, DEMO_ORGANIZATION);
  const line = (await giver.get(`carts/${token}`)).body.offers[0].id;
  const saved = await giver.patch(`order_offers/${line}/gift`, {
    ...GIFT_RECIPIENT,
    gift_message: 'Happy birthday, Grace!',
    gift_date: new Date().toISOString().slice(0, 10),
    order_offer_id: line,
    cart_token: token,
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  const placed = await giver.post('orders', orderBody(token, { ...LONDON_BILLING }));
  expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  const detail = (await session.server.merchant('GET', `/orders/${placed.body.order.order_id}`)).body;
  return detail.gifts[0].claim_url as string;
}

describe("a gift's claim link", () => {
  it('shows who the gift is from and their message, then says the gift was claimed once it is', async () => {
    const claimUrl = await giftedMug();
    const recipient = await shopper();
    await recipient.page.goto(claimUrl);
    const note = recipient.page.getByRole('region', { name: 'A gift from Ada Lovelace' });
    await note.waitFor();
    expect(await note.innerText()).toContain('Happy birthday, Grace!');
    expect(await recipient.axe()).toEqual([]);

    await recipient.fillContact('grace@example.com');
    await recipient.fillShipping({ ...ADA, fname: 'Grace', lname: 'Hopper' });
    await recipient.button('Claim your gift').click();
    await recipient.page.getByText('Your gift is claimed.').waitFor();

    // The link again, in another browser: the gift was claimed, and the page says so, not that the link is broken.
    const later = await shopper();
    await later.page.goto(claimUrl);
    const alert = later.page.getByRole('alert');
    await alert.getByRole('heading', { name: 'This gift has already been claimed' }).waitFor();
    expect(await alert.innerText()).toContain('this one has been used to claim the gift');
    expect(await alert.innerText()).not.toContain('not valid');
    expect(await later.axe()).toEqual([]);

    // A guessed code of the same shape reads as any unknown link.
    await later.page.goto(`${session.server.baseUrl}/checkout/__g__${'A'.repeat(32)}`);
    await later.page.getByRole('heading', { name: 'This checkout link is not valid' }).waitFor();
  });
});

describe('the page when it breaks after the payment went through', () => {
  it('says the order was placed and paid, with its number, under the store header', async () => {
    const checkout = await shopper();
    // The confirmation's chunk does not arrive (a dropped connection right after paying).
    await checkout.page.route('**/checkout/assets/confirmation-view-*.js', (route) => route.abort());
    await checkout.open(await session.server.newCart([{ item_id: 'BEANS-ETH-340' }]));
    await checkout.fillContact('ada@example.com');
    await checkout.fillShipping(ADA);
    await checkout.fillCard('4111 1111 1111 1111');
    await checkout.orderButton().click();
    const alert = checkout.page.getByRole('alert');
    await alert.getByRole('heading', { name: 'Your order is placed' }).waitFor();
    const text = await alert.innerText();
    expect(text).toMatch(/Your order #\d+ was placed and paid\./);
    expect(text).not.toMatch(/nothing was charged/i);
    expect(await checkout.page.getByRole('heading', { level: 1 }).innerText()).toContain('Secure Checkout');
    expect(await checkout.page.locator('.header__store').innerText()).toBe('Northwind Coffee Roasters');
    await checkout.button('Reload the page').waitFor();
    expect(await checkout.axe()).toEqual([]);
  });
});

describe('an express payment', () => {
  it('states the final total against the approved amount, and after "Pay another way" asks for billing', async () => {
    const checkout = await shopper();
    await checkout.open(
      await session.server.newCart([{ item_id: 'BEANS-ETH-340' }, { item_id: 'MUG-350' }]),
      {
        testMode: true,
      },
    );
    await checkout.button('Pay with PayPal').click();
    await checkout.page.getByRole('heading', { name: 'Approve your payment' }).waitFor();
    const approved = (await checkout.page.locator('.amount').innerText()).trim();
    await checkout.page.getByRole('button', { name: 'Approve and continue' }).click();
    const total = checkout.page.getByText(/^The total is/);
    await total.waitFor();
    // The payer approved the total before their address priced it: once the page has asked for the address's tax
    // and shipping (after the preview's pause, which the statement may come before), it says how the total differs.
    await expect
      .poll(() => total.innerText(), { timeout: 10_000 })
      .toContain(`than the ${approved} you approved at PayPal`);
    await checkout.waitForPreview();
    const said = await total.innerText();
    expect(said).toMatch(/^The total is \$[\d.]+, including \$[\d.]+ shipping and \$[\d.]+ tax\./);
    expect(await checkout.page.getByText('You approved this payment').count()).toBe(0);
    expect(await checkout.axe()).toEqual([]);

    await checkout.button('Pay another way').click();
    // Billing opens with its fields for the shopper to fill; it does not pass for done with a country alone.
    await checkout.field('Street address').waitFor();
    expect(await checkout.page.evaluate<string>("document.activeElement?.textContent ?? ''")).toMatch(
      /Billing address/,
    );
    await checkout.fillAddress({ ...ADA, address1: '9 Billing Way' });
    await checkout.button('Continue to payment').click();
    await checkout.cardReady();
    expect(await checkout.page.getByText(/Ada Lovelace, 9 Billing Way, Austin, TX 73301/).count()).toBe(1);
  });
});
