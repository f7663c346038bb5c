import { describe, expect, it } from 'vitest';
import { useShopperBrowser } from './shopper-browser.js';
import { ADA, digitsOf, ordersOfCart, type AxeViolation } from './checkout-page.js';

// A shopper's whole paths through the built page, in Debian's Chromium, against the real server on a fresh database
// seeded with the demo store (PostgreSQL when TEST_DATABASE_URL is set, else PGlite).

const session = useShopperBrowser();
const shopper = session.shopper;

const coffeeAndMug = () => session.server.newCart([{ item_id: 'BEANS-ETH-340' }, { item_id: 'MUG-350' }]);

describe('one-off order by card', () => {
  it('goes from contact to confirmation and makes one complete order', async () => {
    const checkout = await shopper();
    const token = await coffeeAndMug();
    await checkout.open(token);
    await checkout.fillContact('ada@example.com');
    await checkout.fillShipping(ADA, /Express \(1-2 days\)/);
    await checkout.fillCard('4111 1111 1111 1111');
    const summary = await checkout.summaryText();
    expect(summary).toContain('Ethiopia Yirgacheffe coffee beans');
    expect(summary).toContain('Shipping');
    await checkout.orderButton().click();
    const orderNumber = await checkout.confirmation();
    expect(await checkout.page.getByText('Thank you, Ada!').count()).toBe(1);

    const orders = await ordersOfCart(session.server, token);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ order_id: orderNumber, status: 'complete', email: 'ada@example.com' });
    expect(orders[0].shipping_address).toMatchObject({ city: 'Austin', state: 'TX', zipcode: '73301' });
    expect(orders[0].payment_attempts.map((attempt: { status: string }) => attempt.status)).toEqual([
      'approved',
    ]);
  });
});

describe('subscription order with terms', () => {
  it('asks for the terms, says what recurs, and starts the subscription', async () => {
    const checkout = await shopper();
    await checkout.open('__c__club');
    // The link answered a cart of its own: the address bar now names it.
    const token = checkout.currentToken();
    expect(token).not.toBe('__c__club');
    expect(await checkout.summaryText()).toMatch(/then \$25\.00 every 30 days/);
    await checkout.fillContact('grace@example.com');
    await checkout.fillShipping({ ...ADA, fname: 'Grace', lname: 'Hopper' });
    await checkout.fillCard('5555 5555 5555 4444');
    const button = checkout.button(/^Start subscription · \$/);
    await button.click();
    await checkout.page
      .getByText('Agree to the subscription terms to start your subscription.')
      .first()
      .waitFor();
    await checkout.page.getByLabel(/I agree that my payment method will be charged automatically/).check();
    await button.click();
    await checkout.confirmation();
    await checkout.page.getByText(/next charge of \$\d+\.\d\d on .*then every 30 days/).waitFor();

    const [order] = await ordersOfCart(session.server, token);
    expect(order.status).toBe('complete');
    expect(order.consent.subscription_terms_accepted).toBe(true);
    expect(order.subscription_ids).toHaveLength(1);
  });
});

describe('coming back to the checkout', () => {
  it('resumes the cart a link opened at /checkout without a token, with nothing typed lost', async () => {
    const checkout = await shopper();
    await checkout.open('__c__coffee');
    const token = checkout.currentToken();
    expect(token).toMatch(/^[A-Za-z0-9]{24}$/);
    const cookies = await checkout.page.context().cookies();
    expect(cookies.find((cookie) => cookie.name === 'checkout_cart')).toMatchObject({
      value: token,
      path: '/checkout',
    });

    await checkout.field('Email').fill('ada@example.com');
    await checkout.field('Email').blur();

    await checkout.page.goto(`${session.server.baseUrl}/checkout`);
    expect(await checkout.summaryText()).toContain('Ethiopia Yirgacheffe coffee beans');
    // The contact step comes back completed, collapsed to its summary.
    await checkout.page.getByText('ada@example.com', { exact: true }).waitFor();
    // The same cart, not a new one from the link: no second cart was remembered.
    const after = await checkout.page.context().cookies();
    expect(after.filter((cookie) => cookie.name === 'checkout_cart').map((cookie) => cookie.value)).toEqual([
      token,
    ]);
  });
});

describe('gift order, then the recipient claims it', () => {
  it('saves both gifts, places the order, and the claim link opens a free claim for the recipient', async () => {
    const checkout = await shopper();
    await checkout.open('__c__gift');
    const token = checkout.currentToken();
    await checkout.fillContact('ada@example.com');
    // Gifts ship to their recipients once claimed: the buyer gives a billing address only.
    expect(await checkout.page.getByRole('heading', { name: /Shipping address/ }).count()).toBe(0);
    await checkout.fillAddress(ADA);
    await checkout.button('Continue to gift details').click();
    await checkout.page.getByRole('button', { name: /^Gift 1:/ }).waitFor();
    await checkout.field('Recipient’s name').fill('Grace Hopper');
    await checkout.field('Recipient’s email').fill('grace@example.com');
    await checkout.field(/^Gift message/).fill('Happy birthday!');
    await checkout.button('Next gift').click();
    await checkout.field('Recipient’s name').fill('Alan Turing');
    await checkout.field('Recipient’s email').fill('alan@example.com');
    await checkout.button('Continue to payment').click();
    await checkout.fillCard('4111 1111 1111 1111');
    // every offer is a gift: the buyer is not the subscriber, so no terms box
    expect(await checkout.page.getByLabel(/I agree that my payment method/).count()).toBe(0);
    await checkout.orderButton().click();
    await checkout.confirmation();
    await checkout.page.getByText(/we will email Grace Hopper \(grace@example.com\)/).waitFor();

    const [order] = await ordersOfCart(session.server, token);
    expect(order.gifts).toHaveLength(2);
    const mugGift = order.gifts.find((gift: { gift_name: string }) => gift.gift_name === 'Alan Turing');
    expect(mugGift.claim_url).toMatch(/\/checkout\/__g__/);

    const recipient = await shopper();
    await recipient.page.goto(mugGift.claim_url);
    await recipient.page.locator('.sections').waitFor();
    expect(recipient.currentToken()).not.toMatch(/^__g__/);
    await recipient.fillContact('alan@example.com');
    await recipient.fillShipping({ ...ADA, fname: 'Alan', lname: 'Turing', address1: '9 Bletchley Rd' });
    await recipient.button('Claim your gift').click();
    await recipient.page.getByText('Your gift is claimed.').waitFor();
    const claimed = (await session.server.merchant('GET', `/orders/${order.order_id}`)).body;
    expect(
      claimed.gifts.find((gift: { gift_name: string }) => gift.gift_name === 'Alan Turing').claimed_at,
    ).not.toBeNull();
  });
});

describe('discount codes', () => {
  it('shows why a code is refused, applies a valid one to the totals, and removes it', async () => {
    const checkout = await shopper();
    await checkout.open(await coffeeAndMug());
    const summary = checkout.page.locator('.summary__body');
    await summary.getByLabel('Discount code').fill('SUMMER24');
    await summary.getByRole('button', { name: 'Apply' }).click();
    await summary.locator('.field__error').waitFor();
    expect(await summary.locator('.field__error').innerText()).toMatch(/expired|ended|no longer/i);

    await summary.getByLabel('Discount code').fill('welcome10');
    await summary.getByRole('button', { name: 'Apply' }).click();
    await summary.getByText('WELCOME10', { exact: true }).waitFor();
    expect(await checkout.summaryText()).toMatch(/Discount \(WELCOME10\)\s*−\$3\.20/);

    await summary.getByRole('button', { name: /^Remove discount code/ }).click();
    await summary.getByLabel('Discount code').waitFor();
    expect(await checkout.summaryText()).not.toContain('WELCOME10');
  });
});

describe('express payment', () => {
  it('approves at the provider, comes back with the payer filled in, and pays without a card', async () => {
    const checkout = await shopper();
    const token = await coffeeAndMug();
    await checkout.open(token, { testMode: true });
    await checkout.button('Pay with PayPal').click();
    await checkout.page.getByRole('heading', { name: 'Approve your payment' }).waitFor();
    await checkout.page.getByRole('button', { name: 'Approve and continue' }).click();
    await checkout.page.getByText(/Paying with PayPal/).waitFor();
    expect(new URL(checkout.page.url()).searchParams.get('payment_token_id')).toBeTruthy();
    // billing is the provider's: hidden while express is active
    expect(await checkout.page.getByRole('heading', { name: /Billing address/ }).count()).toBe(0);
    expect(await checkout.page.locator('.section__summary').first().innerText()).toContain(
      'payer@example.com',
    );
    await checkout.button(/^Pay \$.* with PayPal$/).click();
    await checkout.confirmation();

    const orders = await ordersOfCart(session.server, token);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ status: 'complete', email: 'payer@example.com' });
    expect(orders[0].payment_attempts.at(-1)).toMatchObject({ method: 'paypal', status: 'approved' });
  });

  it('lets the shopper pay another way after cancelling at the provider', async () => {
    const checkout = await shopper();
    await checkout.open(await coffeeAndMug(), { testMode: true });
    await checkout.button('Pay with PayPal').click();
    await checkout.page.getByRole('button', { name: 'Cancel and return' }).click();
    await checkout.page
      .getByText('You canceled the PayPal payment. Try PayPal again or pay another way.')
      .waitFor();
    await checkout.field('Email').waitFor();
  });
});

describe('a declined card, then a successful retry', () => {
  it('shows the decline by the card fields and completes the same order with another card', async () => {
    const checkout = await shopper();
    const token = await coffeeAndMug();
    await checkout.open(token);
    await checkout.fillContact('ada@example.com');
    await checkout.fillShipping();
    await checkout.fillCard('4000 0000 0000 0002');
    await checkout.orderButton().click();
    const decline = checkout.page.locator('.section-form > [role="alert"].notice--error');
    await decline.waitFor();
    expect(await decline.innerText()).toMatch(/declined/i);
    expect(await decline.evaluate((element) => element === (globalThis as any).document.activeElement)).toBe(
      true,
    );
    // The frame keeps what was typed: the shopper corrects the card there, and the next press makes a new token.
    expect(digitsOf(await checkout.cardField('number').inputValue())).toBe('4000000000000002');

    await checkout.typeCardNumber('4111 1111 1111 1111');
    await checkout.cardState('complete');
    await checkout.orderButton().click();
    await checkout.confirmation();
    const orders = await ordersOfCart(session.server, token);
    expect(orders).toHaveLength(1);
    expect(orders[0].status).toBe('complete');
    expect(orders[0].payment_attempts.map((attempt: { status: string }) => attempt.status)).toEqual([
      'declined',
      'approved',
    ]);
  });
});

describe('a double click on the order button', () => {
  it('places exactly one order and charges once', async () => {
    const checkout = await shopper();
    const token = await coffeeAndMug();
    await checkout.open(token);
    await checkout.fillContact('ada@example.com');
    await checkout.fillShipping();
    await checkout.fillCard('4111 1111 1111 1111');
    await checkout.orderButton().dblclick();
    await checkout.confirmation();
    const orders = await ordersOfCart(session.server, token);
    expect(orders).toHaveLength(1);
    expect(orders[0].payment_attempts).toHaveLength(1);
  });
});

describe('the first view', () => {
  it('comes in the HTML, and the page takes it over with the same markup (nothing moves)', async () => {
    const checkout = await shopper({ width: 412, height: 823 });
    const url = `${session.server.baseUrl}/checkout/${await coffeeAndMug()}`;
    const html = await (await fetch(url)).text();
    expect(html).toContain('<p class="header__store">Northwind Coffee Roasters</p>');
    expect(html).toContain('Loading your order…');
    // The handshake waits, so the page's own loading view stays on screen to compare.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await checkout.page.route('**/checkout/api/csrf', async (route) => {
      await held;
      await route.continue();
    });
    await checkout.page.goto(url);
    // The live region is the page's own: React has replaced the server's markup.
    await checkout.page.locator('#root > [aria-live]').waitFor({ state: 'attached' });
    // Both as the browser serialises them (the test runs in Node, without the DOM's types).
    const rendered = await checkout.page.evaluate<string>(
      "document.querySelector('#root > .shell').outerHTML",
    );
    const served = await checkout.page.evaluate<string>(
      `new DOMParser().parseFromString(${JSON.stringify(html)}, 'text/html').querySelector('#root > .shell').outerHTML`,
    );
    expect(rendered).toBe(served);
    release();
    await checkout.page.locator('.sections').waitFor();
  });

  it("says so when the answers' schemas cannot be downloaded, and starts when the shopper tries again", async () => {
    const checkout = await shopper();
    // The chunk of schemas every answer is checked with fails to download, until the network is back.
    let blocked = 0;
    let networkBack = false;
    await checkout.page.route('**/assets/response-schemas-*.js', async (route) => {
      if (networkBack) return route.continue();
      blocked++;
      return route.abort('internetdisconnected');
    });
    await checkout.open(await coffeeAndMug());
    const alert = checkout.page.locator('.page-error[role="alert"]');
    await alert.waitFor();
    expect(await alert.getByRole('heading').textContent()).toBe('This checkout could not start');
    // In the shopper's words, not the browser's ("Failed to fetch dynamically imported module: http://…").
    expect(await alert.locator('p').textContent()).toBe(
      'We could not reach the store. Check your connection and try again.',
    );
    expect(blocked).toBeGreaterThan(0);
    expect(await checkout.page.locator('.sections').count()).toBe(0);

    networkBack = true;
    await checkout.button('Try again').click();
    await checkout.page.locator('.sections').waitFor();
    expect(await alert.count()).toBe(0);
  });

  it("writes a cart's given address in its country's format without loading every country's data", async () => {
    const checkout = await shopper();
    const assets: string[] = [];
    checkout.page.on('request', (request) => {
      if (request.url().includes('/assets/')) assets.push(new URL(request.url()).pathname);
    });
    const token = await session.server.newCart([{ item_id: 'BEANS-ETH-340' }], {
      customer: {
        email: 'ada@example.com',
        ship_fname: 'Ada',
        ship_lname: 'Lovelace',
        ship_address1: '1 Congress Ave',
        ship_city: 'Austin',
        ship_state: 'TX',
        ship_zipcode: '73301',
        ship_country: 'US',
      },
    });
    await checkout.open(token);
    // The page opens at payment; the finished shipping step is written as the US writes it ("Austin, TX 73301").
    await checkout.page
      .getByText(/^Ada Lovelace, 1 Congress Ave, Austin, TX 73301, United States · /)
      .waitFor();
    await checkout.cardReady();
    expect(assets.filter((asset) => asset.includes('address-data'))).toEqual([]);
    // Editing the address brings the form, and with it every country's data.
    await checkout.page.getByRole('button', { name: 'Change shipping address' }).click();
    await checkout.page.getByRole('combobox', { name: 'State' }).waitFor();
    expect(assets.filter((asset) => asset.includes('address-data'))).toHaveLength(1);
  });

  it('writes its amounts and counts without starting an Intl number formatter', async () => {
    const checkout = await shopper();
    // A page's first Intl number formatter loads ICU's data (30 to 120 ms of main thread): the first render's amounts
    // use the server's description, its counts ("2 items") are written by the page (docs/languages.md, "Counts").
    await checkout.page.addInitScript(`(() => {
      const made = (window.__numberFormats = []);
      const NumberFormat = Intl.NumberFormat;
      Intl.NumberFormat = function (...args) {
        made.push(JSON.stringify(args));
        return new NumberFormat(...args);
      };
    })()`);
    await checkout.open(await coffeeAndMug());
    const summary = await checkout.summaryText();
    // The demo store sells in USD: en-US writes it as $1,234.56.
    expect(summary).toMatch(/\$\d{1,3}(,\d{3})*\.\d{2}/);
    const made = (await checkout.page.evaluate('window.__numberFormats')) as string[];
    expect(summary).toMatch(/\b2 items\b/);
    expect(made).toEqual([]);
  });
});

describe('accessibility', () => {
  function report(state: string, violations: AxeViolation[]) {
    return violations.map(
      (violation) =>
        `${state}: ${violation.id} (${violation.impact}) ${violation.help} at ${violation.nodes
          .map((node) => node.target.join(' '))
          .join(', ')}`,
    );
  }

  it('has no axe violations in any section state, on desktop and on a 320 px phone', async () => {
    const found: string[] = [];
    for (const viewport of [
      { width: 1280, height: 900 },
      { width: 320, height: 700 },
    ]) {
      const label = `${viewport.width}px`;
      const checkout = await shopper(viewport);
      // Something that ships and a gift: every section appears.
      const token = await session.server.newCart([
        { item_id: 'BEANS-ETH-340' },
        { item_id: 'MUG-350', is_gift: true },
      ]);
      await checkout.open(token, { testMode: true });
      found.push(...report(`${label} contact`, await checkout.axe()));
      await checkout.button('Continue to shipping').click();
      await checkout.page.getByRole('alert').waitFor();
      found.push(...report(`${label} contact errors`, await checkout.axe()));
      await checkout.fillContact('ada@example.com');
      await checkout.fillAddress(ADA);
      found.push(...report(`${label} shipping`, await checkout.axe()));
      await checkout.page.getByLabel(/billing address is the same/).uncheck();
      await checkout.button('Continue to billing').click();
      await checkout.field('Country or region').waitFor();
      found.push(...report(`${label} billing`, await checkout.axe()));
      await checkout.button('Copy my shipping address').click();
      await checkout.button('Continue to gift details').click();
      await checkout.page.getByRole('button', { name: /^Gift 1:/ }).waitFor();
      found.push(...report(`${label} gifts`, await checkout.axe()));
      await checkout.field('Recipient’s name').fill('Grace Hopper');
      await checkout.field('Recipient’s email').fill('grace@example.com');
      await checkout.button('Continue to payment').click();
      await checkout.cardReady();
      if (viewport.width < 992) await checkout.button(/Show order summary/).click();
      found.push(...report(`${label} payment (test mode)`, await checkout.axe()));
      await checkout.fillCard('4000 0000 0000 0002');
      await checkout.orderButton().click();
      await checkout.page.locator('.notice--error[role="alert"]').waitFor();
      found.push(...report(`${label} declined`, await checkout.axe()));
      await checkout.typeCardNumber('4242 4242 4242 4242');
      await checkout.cardState('complete');
      await checkout.orderButton().click();
      await checkout.confirmation();
      found.push(...report(`${label} confirmation`, await checkout.axe()));

      const express = await shopper(viewport);
      await express.open(await coffeeAndMug(), { testMode: true });
      await express.button('Pay with PayPal').click();
      await express.page.getByRole('button', { name: 'Approve and continue' }).click();
      await express.page.getByText(/Paying with PayPal/).waitFor();
      found.push(...report(`${label} express active`, await express.axe()));

      const missing = await shopper(viewport);
      await missing.page.goto(`${session.server.baseUrl}/checkout/NoSuchCartToken1234567890`);
      await missing.page.getByRole('alert').waitFor();
      found.push(...report(`${label} unknown link`, await missing.axe()));
    }
    expect(found).toEqual([]);
  });
});
