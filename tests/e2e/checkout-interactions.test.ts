import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useShopperBrowser } from './shopper-browser.js';
import { ADA, ordersOfCart } from './checkout-page.js';

// How the built page answers the shopper's hands, in Debian's Chromium against the real server: what the page shows
// while it works, moving between its sections, clicks that must land, and the cart's lines.

const session = useShopperBrowser();
const shopper = session.shopper;

const coffeeAndMug = () => session.server.newCart([{ item_id: 'BEANS-ETH-340' }, { item_id: 'MUG-350' }]);

describe('the processing overlay', () => {
  it('blurs the page behind it while the order is processed', async () => {
    const checkout = await shopper();
    await checkout.open(await coffeeAndMug());
    await checkout.fillContact('ada@example.com');
    await checkout.fillShipping();
    await checkout.fillCard('4111 1111 1111 1111');
    // The order's answer waits until the overlay was looked at.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await checkout.page.route('**/checkout/api/vrio/orders**', async (route) => {
      await held;
      await route.continue();
    });
    await checkout.orderButton().click();
    const overlay = checkout.page.getByRole('dialog', { name: 'Processing your order…' });
    await overlay.waitFor();
    const backdrop = await overlay.evaluate(
      (element) => (globalThis as any).getComputedStyle(element).backdropFilter as string,
    );
    expect(backdrop).toMatch(/blur\(\d+(\.\d+)?px\)/);
    release();
    await checkout.confirmation();
  });
});

describe("the cart's lines", () => {
  it('stay editable after a declined card; a line is removed and put back by keyboard, then paid', async () => {
    const checkout = await shopper();
    const token = await coffeeAndMug();
    await checkout.open(token);
    await checkout.fillContact('ada@example.com');
    await checkout.fillShipping();
    await checkout.fillCard('4000 0000 0000 0002');
    await checkout.orderButton().click();
    await checkout.page.locator('.section-form > [role="alert"].notice--error').waitFor();

    // The decline left the order open: its lines can still change.
    const summary = checkout.page.locator('.summary__body');
    await summary.getByRole('button', { name: 'Increase quantity of Stoneware mug' }).waitFor();
    await summary.getByRole('button', { name: 'Remove Stoneware mug' }).focus();
    await checkout.page.keyboard.press('Enter');
    const undo = summary.getByRole('button', { name: 'Undo: put Stoneware mug back' });
    await undo.waitFor();
    expect(await undo.evaluate((element) => element === (globalThis as any).document.activeElement)).toBe(
      true,
    );
    await checkout.page.getByText('Stoneware mug was removed from your order.').waitFor();
    expect(await summary.getByRole('button', { name: /^Remove / }).count()).toBe(0);

    await checkout.page.keyboard.press('Enter');
    await summary.getByRole('button', { name: 'Remove Stoneware mug' }).waitFor();
    await summary.getByRole('button', { name: 'Increase quantity of Stoneware mug' }).click();
    await checkout.page.getByText('Stoneware mug: quantity 2.').waitFor();

    // The card is corrected in the processor's frame; the next press makes a new token of it.
    await checkout.typeCardNumber('4111 1111 1111 1111');
    await checkout.cardState('complete');
    await checkout.orderButton().click();
    await checkout.confirmation();
    const [order] = await ordersOfCart(session.server, token);
    expect(order.status).toBe('complete');
    expect(order.lines.map((line: { quantity: number }) => line.quantity)).toEqual([1, 2]);
  });
});

describe('a click that moves focus out of a field with a mistake', () => {
  // The field's message appeared on blur, between the press and the release, and pushed the button away from under
  // the pointer: the click was lost.
  it('still presses "Next gift" after a past gift date', async () => {
    const checkout = await shopper();
    await checkout.open('__c__gift');
    await checkout.fillContact('ada@example.com');
    await checkout.fillAddress(ADA);
    await checkout.button('Continue to gift details').click();
    await checkout.page.getByRole('button', { name: /^Gift 1:/ }).waitFor();
    await checkout.field('Recipient’s name').fill('Grace Hopper');
    await checkout.field('Recipient’s email').fill('grace@example.com');
    await checkout.field('Send the gift notice on').fill('2020-01-01');
    await checkout.button('Next gift').click();
    await checkout.page.getByRole('button', { name: /^Gift 2:/, expanded: true }).waitFor({ timeout: 5_000 });
    // The message is still given: announced, and by the field when the shopper goes back to it.
    await checkout.page
      .locator('[aria-live="polite"]')
      .getByText('Send the gift notice on: Choose today or a later date.')
      .waitFor();
    await checkout.page.getByRole('button', { name: /^Gift 1:/ }).click();
    expect(await checkout.page.locator('.field__error').allInnerTexts()).toEqual([
      'Choose today or a later date.',
    ]);
  });

  it('still presses "Pay" after a card number the store does not accept, on a 375 px phone', async () => {
    const checkout = await shopper({ width: 375, height: 700 });
    await checkout.open(await coffeeAndMug());
    await checkout.fillContact('ada@example.com');
    await checkout.fillShipping();
    await checkout.cardReady();
    await checkout.cardField('expiry').fill('12 / 30');
    await checkout.cardField('cvv').fill('123');
    // A JCB card: a real card number, of a brand this store does not take.
    await checkout.typeCardNumber('3530 1113 3330 0000');
    await checkout.page.locator('.card-frame__hint--refused').waitFor();
    await checkout.orderButton().click();
    // The press reached the button: the payment section lists what to fix and puts the shopper in the card fields.
    const summary = checkout.page.locator('.error-summary[role="alert"]');
    await summary.waitFor({ timeout: 5_000 });
    expect(await summary.innerText()).toMatch(/Check 1 field/);
    expect(await summary.innerText()).toContain(
      'We accept Visa, Mastercard, Discover and American Express. Use one of those cards.',
    );
    await expect
      .poll(() => checkout.page.evaluate<string>("document.activeElement?.tagName ?? ''"))
      .toBe('IFRAME');
  });
});

describe('Back and Forward', () => {
  const isFocused = (locator: Locator) =>
    locator.evaluate((element) => element === (globalThis as any).document.activeElement);

  it("move between the steps with the page's Back and the browser's, keeping what was typed", async () => {
    const checkout = await shopper();
    const token = await coffeeAndMug();
    await checkout.open(token);
    const address = checkout.page.url();
    expect(await checkout.page.getByRole('button', { name: /^Back to / }).count()).toBe(0);
    await checkout.fillContact('ada@example.com');
    const shipping = checkout.page.getByRole('heading', { level: 2, name: /Shipping address/ });
    await checkout.field('First name').fill('Ada');
    await checkout.field('Street address').fill('1 Main St');

    // The browser's Back: the contact step, in the checkout still.
    await checkout.page.goBack();
    const contact = checkout.page.getByRole('heading', { level: 2, name: /Contact/ });
    await checkout.field('Email').waitFor();
    expect(checkout.page.url()).toBe(address);
    expect(await isFocused(contact)).toBe(true);
    expect(await checkout.field('Email').inputValue()).toBe('ada@example.com');
    await checkout.page.locator('[aria-live="polite"]').getByText('Step 1: Contact is open.').waitFor();

    // Forward: the shipping step again, as it was left.
    await checkout.page.goForward();
    await checkout.field('First name').waitFor();
    expect(await isFocused(shipping)).toBe(true);
    expect(await checkout.field('First name').inputValue()).toBe('Ada');
    expect(await checkout.field('Street address').inputValue()).toBe('1 Main St');

    // The page's Back button does the same.
    await checkout.button('Back to contact').click();
    await checkout.field('Email').waitFor();
    expect(await isFocused(contact)).toBe(true);
    await checkout.button('Continue to shipping').click();
    await checkout.field('First name').waitFor();

    // A reload opens the same step with what was typed.
    await checkout.page.reload();
    await checkout.field('First name').waitFor();
    expect(await checkout.field('First name').inputValue()).toBe('Ada');
    expect(checkout.page.url()).toBe(address);
    await checkout.page.goBack();
    await checkout.field('Email').waitFor();
    expect(await checkout.field('Email').inputValue()).toBe('ada@example.com');
  });
});
