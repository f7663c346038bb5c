import { cleanup, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PageConfig } from '../../../contract/page-config.js';
import { completedOrder, createFakeShopperApi, type FakeShopperApi } from '../../testing/fake-shopper-api.js';
import {
  cartFixture,
  FILLED_CUSTOMER,
  offerFixture,
  subscriptionOfferFixture,
} from '../../testing/fixtures.js';
import { createFakeCardProcessor, type FakeCardProcessor } from '../../testing/fake-card-processor.js';
import { renderCheckout } from '../../testing/render-checkout.js';

beforeEach(() => window.sessionStorage.clear());

const readyCart = () => cartFixture({ customer: FILLED_CUSTOMER });

async function openPayment(
  options: { api?: FakeShopperApi; config?: Partial<PageConfig>; card?: FakeCardProcessor } = {},
) {
  const api = options.api ?? createFakeShopperApi(readyCart());
  const view = renderCheckout({
    api,
    cart: api.cart,
    ...(options.config ? { config: options.config } : {}),
    ...(options.card ? { cardProcessor: options.card } : {}),
  });
  await screen.findByRole('group', { name: 'Card details' });
  // The processor's fields are mounted once the adapter answered.
  await waitFor(() => expect(screen.queryByText('Loading the card fields…')).toBeNull());
  return view;
}

const cardGroup = () => screen.getByRole('group', { name: 'Card details' });

/** The order answers only once finish() is called: the page stays in its processing state meanwhile. */
function holdOrder(api: FakeShopperApi) {
  let release: (() => void) | null = null;
  api.on('POST', /\/vrio\/orders$/, async () => {
    await new Promise<void>((resolve) => {
      release = resolve;
    });
    return { status: 200, body: completedOrder(api.cart) };
  });
  return {
    started: () => release !== null,
    finish: () => (release as (() => void) | null)?.(),
  };
}

const brandIcon = () => document.querySelector('.card-frame__icon')?.getAttribute('src') ?? null;
const liveRegion = () => document.querySelector('[aria-live="polite"]')?.textContent ?? '';

describe('card fields', () => {
  it("mount the configured processor's fields in a group labelled Card details, with the order's amount", async () => {
    const { card } = await openPayment();
    expect(card.configs).toEqual([{ name: 'test', origin: 'https://cards.example.test' }]);
    expect(card.mounted?.container).toBe(cardGroup());
    expect(card.mounted?.options).toMatchObject({
      amount: 1800,
      currency: 'USD',
      testCards: ['4242424242424242'],
    });
    expect(cardGroup().getAttribute('aria-describedby')).toBe('field-card_details-hint');
    screen.getByText('We accept Visa, Mastercard, Discover and American Express.');
    // The page has no card input of its own.
    expect(document.querySelector('input[autocomplete^="cc-"]')).toBeNull();
  });

  it('show the brand the frame reports, with its icon', async () => {
    const { card } = await openPayment();
    expect(brandIcon()).toBeNull();
    await card.change({ brand: 'visa', empty: false });
    expect(brandIcon()).toBe('/images/cards/visa.svg');
    screen.getByText('Visa');
    await card.change({ brand: 'american-express', empty: false });
    expect(brandIcon()).toBe('/images/cards/american-express.svg');
    await card.change({ brand: 'testcard', empty: false });
    expect(brandIcon()).toBe('/images/cards/testcard.svg');
    screen.getByText('Test card');
  });

  it('name the accepted brands for any other brand, and say so aloud', async () => {
    const { card } = await openPayment();
    await card.change({ brand: 'other', empty: false });
    expect(brandIcon()).toBeNull();
    expect(
      screen.getByText('We accept Visa, Mastercard, Discover and American Express.').className,
    ).toContain('card-frame__hint--refused');
    await waitFor(() =>
      expect(liveRegion()).toBe('We accept Visa, Mastercard, Discover and American Express.'),
    );
  });

  it("show the frame's error under the fields and announce it", async () => {
    const { card } = await openPayment();
    await card.change({ brand: 'visa', empty: false, error: 'Your card number is incomplete.' });
    const error = await screen.findByText('Your card number is incomplete.', { selector: '.field__error' });
    expect(cardGroup().getAttribute('aria-describedby')).toContain(error.id);
    await waitFor(() => expect(liveRegion()).toBe('Card details: Your card number is incomplete.'));
    await card.change({ brand: 'visa', empty: false, error: null });
    expect(screen.queryByText('Your card number is incomplete.')).toBeNull();
  });

  it('list the test cards in test mode, and put one into the framed field on request', async () => {
    const { user, card } = await openPayment({ config: { test_mode: true } });
    await user.click(screen.getByRole('button', { name: 'Use test card 4242 4242 4242 4242' }));
    expect(card.filled).toEqual(['4242424242424242']);
  });

  it('hide the test cards outside test mode, and where the processor cannot fill them', async () => {
    await openPayment();
    expect(screen.queryByRole('button', { name: /Use test card/ })).toBeNull();
    cleanup();
    await openPayment({ config: { test_mode: true }, card: createFakeCardProcessor({ fillable: false }) });
    expect(screen.queryByRole('button', { name: /Use test card/ })).toBeNull();
  });

  it('say when the fields could not load, and mount them on Try again', async () => {
    const card = createFakeCardProcessor();
    card.failMount = true;
    const api = createFakeShopperApi(readyCart());
    const { user } = renderCheckout({ api, cart: api.cart, cardProcessor: card });
    await screen.findByText('The card fields could not be loaded. Check your connection, then try again.');
    card.failMount = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(card.mounted).not.toBeNull());
    expect(
      screen.queryByText('The card fields could not be loaded. Check your connection, then try again.'),
    ).toBeNull();
  });

  it('are taken down when the shopper goes back, and mounted empty on return', async () => {
    const { user, card } = await openPayment();
    await card.enterCard();
    await user.click(screen.getByRole('button', { name: 'Back to shipping address' }));
    await waitFor(() => expect(card.destroyed).toBe(1));
    expect(card.mounted).toBeNull();
    await user.click(await screen.findByRole('button', { name: 'Continue to payment' }));
    await waitFor(() => expect(card.mounts).toBe(2));
  });
});

describe('placing the order', () => {
  it('sends one order with an Idempotency-Key and shows the confirmation', async () => {
    const api = createFakeShopperApi(readyCart());
    api.on('POST', /\/vrio\/orders$/, () => ({ status: 200, body: completedOrder(api.cart, 1001) }));
    const { user, card } = await openPayment({ api });
    await card.enterCard();
    await user.click(screen.getByRole('button', { name: 'Pay $18.00' }));
    await screen.findByRole('heading', { name: 'Thank you, Ada!' });
    const [order] = api.requestsTo('POST', /\/vrio\/orders$/);
    expect(order?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(order?.body).toMatchObject({
      cart_token: api.cart.cart_token,
      email: 'ada@example.com',
      ship_zipcode: '73301',
      same_address: true,
      offers: [{ order_offer_id: 11, order_offer_quantity: 1 }],
      payment: { method: 'card', card_token: 'tok_1' },
      subscription_terms_accepted: true,
      email_opt_in: false,
      from_checkout: true,
      _is_vrio_checkout: 1,
    });
    screen.getByText('#1001');
    expect(card.tokenized).toBe(1);
    // The fields are the frame's: their numbers never were the page's to send.
    expect(JSON.stringify(order?.body)).not.toMatch(/card_number|card_cvv|card_exp/);
    expect(card.destroyed).toBe(1);
  });

  it('shows a full-screen overlay while processing, with the page behind it inert', async () => {
    const api = createFakeShopperApi(readyCart());
    const order = holdOrder(api);
    const { user, card } = await openPayment({ api });
    await card.enterCard();
    await user.click(screen.getByRole('button', { name: 'Pay $18.00' }));
    const overlay = await screen.findByRole('dialog', { name: 'Processing your order…' });
    await waitFor(() => expect(document.activeElement).toBe(overlay));
    expect(document.querySelector('.shell')?.hasAttribute('inert')).toBe(true);
    await user.tab();
    expect(document.activeElement).toBe(overlay);
    order.finish();
    await screen.findByRole('heading', { name: 'Thank you, Ada!' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('sends exactly one order when the button is pressed twice', async () => {
    const api = createFakeShopperApi(readyCart());
    const order = holdOrder(api);
    const { user, card } = await openPayment({ api });
    await card.enterCard();
    const button = screen.getByRole('button', { name: 'Pay $18.00' });
    await user.dblClick(button);
    button.click();
    await waitFor(() => expect(order.started()).toBe(true));
    order.finish();
    await screen.findByRole('heading', { name: 'Thank you, Ada!' });
    expect(api.requestsTo('POST', /\/vrio\/orders$/)).toHaveLength(1);
    expect(card.tokenized).toBe(1);
  });

  it('shows a decline next to the card fields, and retries the kept order with a new key and a new token', async () => {
    const api = createFakeShopperApi(readyCart());
    api.on('POST', /\/vrio\/orders$/, () => {
      api.setCart({ ...api.cart, order: { ...api.cart.order, order_id: 77, status: 'declined' } });
      return {
        status: 402,
        body: {
          status: 402,
          code: 'card_declined',
          message: 'Your card was declined. Try another card or PayPal.',
        },
      };
    });
    api.on('PUT', /\/vrio\/orders\/77$/, () => ({ status: 200, body: completedOrder(api.cart, 77) }));
    const { user, card } = await openPayment({ api });
    await card.enterCard();
    await user.click(screen.getByRole('button', { name: 'Pay $18.00' }));
    const alert = await screen.findByText('Your card was declined. Try another card or PayPal.');
    await waitFor(() => expect(document.activeElement).toBe(alert));
    // The frame stays as it was: the shopper corrects the card there.
    expect(card.mounts).toBe(1);
    expect(card.destroyed).toBe(0);
    await card.enterCard('mastercard');
    await user.click(screen.getByRole('button', { name: 'Pay $18.00' }));
    await screen.findByRole('heading', { name: 'Thank you, Ada!' });
    const [first] = api.requestsTo('POST', /\/vrio\/orders$/);
    const [retry] = api.requestsTo('PUT', /\/vrio\/orders\/77$/);
    expect(first?.body?.payment).toEqual({ method: 'card', card_token: 'tok_1' });
    expect(retry?.headers['idempotency-key']).toBeTruthy();
    expect(retry?.headers['idempotency-key']).not.toBe(first?.headers['idempotency-key']);
    expect(retry?.body).not.toHaveProperty('offers');
    expect(retry?.body?.payment).toEqual({ method: 'card', card_token: 'tok_2' });
  });

  it('sends nothing while the card fields are incomplete, and puts the shopper in them', async () => {
    const api = createFakeShopperApi(readyCart());
    const { user, card } = await openPayment({ api });
    await user.click(screen.getByRole('button', { name: 'Pay $18.00' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Check 1 field:');
    expect(alert.textContent).toContain('Enter your card number.');
    await waitFor(() => expect(document.activeElement).toBe(cardGroup()));
    expect(card.focused).toBeGreaterThan(0);
    await card.change({ brand: 'visa', empty: false, complete: false });
    // The message follows what the frame says, as a field's does.
    await screen.findByText('Enter the card number, expiry date and security code.', {
      selector: '.field__error',
    });
    await card.enterCard();
    await waitFor(() => expect(document.querySelector('.field__error')).toBeNull());
    expect(card.tokenized).toBe(0);
    expect(api.requestsTo('POST', /\/vrio\/orders$/)).toHaveLength(0);
    // Fixed, the card leaves the section's list of what to fix.
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('refuses a brand the store does not take before anything is sent', async () => {
    const api = createFakeShopperApi(readyCart());
    const { user, card } = await openPayment({ api });
    await card.enterCard('other');
    await user.click(screen.getByRole('button', { name: 'Pay $18.00' }));
    await screen.findByText(
      'We accept Visa, Mastercard, Discover and American Express. Use one of those cards.',
      {
        selector: '.field__error',
      },
    );
    expect(card.tokenized).toBe(0);
    expect(api.requestsTo('POST', /\/vrio\/orders$/)).toHaveLength(0);
  });

  it("shows the frame's refusal to make a token as the fields' error, and sends nothing", async () => {
    const api = createFakeShopperApi(readyCart());
    const card = createFakeCardProcessor();
    card.tokenizeAnswers.push({ ok: false, message: 'Your card’s security code is incomplete.' });
    const { user } = await openPayment({ api, card });
    await card.enterCard();
    await user.click(screen.getByRole('button', { name: 'Pay $18.00' }));
    await screen.findByText('Your card’s security code is incomplete.', { selector: '.field__error' });
    await waitFor(() => expect(document.activeElement).toBe(cardGroup()));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.requestsTo('POST', /\/vrio\/orders$/)).toHaveLength(0);
    // The next press asks for a new token.
    await card.enterCard();
    api.on('POST', /\/vrio\/orders$/, () => ({ status: 200, body: completedOrder(api.cart) }));
    await user.click(screen.getByRole('button', { name: 'Pay $18.00' }));
    await screen.findByRole('heading', { name: 'Thank you, Ada!' });
    expect(api.requestsTo('POST', /\/vrio\/orders$/)[0]?.body?.payment).toEqual({
      method: 'card',
      card_token: 'tok_2',
    });
  });

  it("puts the server's refusal of the card under the card fields", async () => {
    const api = createFakeShopperApi(readyCart());
    api.on('POST', /\/vrio\/orders$/, () => ({
      status: 422,
      body: {
        status: 422,
        code: 'validation_failed',
        message: 'Check the card.',
        fields: { 'payment.card_token': 'This card can no longer be used. Enter it again.' },
      },
    }));
    const { user, card } = await openPayment({ api });
    await card.enterCard();
    await user.click(screen.getByRole('button', { name: 'Pay $18.00' }));
    await screen.findByText('This card can no longer be used. Enter it again.', {
      selector: '.field__error',
    });
    await waitFor(() => expect(document.activeElement).toBe(cardGroup()));
  });

  it('asks the shopper to wait when orders are refused for a while, saying how long', async () => {
    const api = createFakeShopperApi(readyCart());
    api.on('POST', /\/vrio\/orders$/, () => ({
      status: 429,
      headers: { 'retry-after': '90' },
      body: { status: 429, code: 'rate_limited', message: 'Too many attempts.' },
    }));
    const { user, card } = await openPayment({ api });
    await card.enterCard();
    await user.click(screen.getByRole('button', { name: 'Pay $18.00' }));
    const alert = await screen.findByText('Too many attempts. Try again in 2 minutes.');
    await waitFor(() => expect(document.activeElement).toBe(alert));
  });

  it("says once how long payment is paused when the store's own limit refuses it", async () => {
    const message =
      'Too many payment attempts were declined. For your security, payment is paused; please try again in 40 minutes.';
    const api = createFakeShopperApi(readyCart());
    api.on('POST', /\/vrio\/orders$/, () => ({
      status: 429,
      headers: { 'retry-after': '2400' },
      body: { status: 429, code: 'too_many_failed_payments', message },
    }));
    const { user, card } = await openPayment({ api });
    await card.enterCard();
    await user.click(screen.getByRole('button', { name: 'Pay $18.00' }));
    const alert = await screen.findByText(message);
    expect(alert.textContent).toBe(message);
  });

  it('retries a failure without an answer as the same attempt, with the same key', async () => {
    const api = createFakeShopperApi(readyCart());
    let calls = 0;
    api.on('POST', /\/vrio\/orders$/, () => {
      calls += 1;
      return calls === 1
        ? { status: 503, body: { status: 503, code: 'unavailable', message: 'Try again.' } }
        : { status: 200, body: completedOrder(api.cart) };
    });
    const { user, card } = await openPayment({ api });
    await card.enterCard();
    await user.click(screen.getByRole('button', { name: 'Pay $18.00' }));
    await screen.findByText(/you will not be charged twice/);
    await user.click(screen.getByRole('button', { name: 'Pay $18.00' }));
    await screen.findByRole('heading', { name: 'Thank you, Ada!' });
    const [first, second] = api.requestsTo('POST', /\/vrio\/orders$/);
    expect(second?.headers['idempotency-key']).toBe(first?.headers['idempotency-key']);
    // The same attempt sends the same token: a new one under the same key would be another request.
    expect(card.tokenized).toBe(1);
    expect(second?.body?.payment).toEqual(first?.body?.payment);
  });

  it("opens the section of a field the server refused, with the server's words", async () => {
    const api = createFakeShopperApi(readyCart());
    api.on('POST', /\/vrio\/orders$/, () => ({
      status: 422,
      body: {
        status: 422,
        code: 'validation_failed',
        message: 'Check the highlighted field.',
        fields: { ship_zipcode: 'This ZIP code is not in Texas.' },
      },
    }));
    const { user, card } = await openPayment({ api });
    await card.enterCard();
    await user.click(screen.getByRole('button', { name: 'Pay $18.00' }));
    await screen.findAllByText('This ZIP code is not in Texas.');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('ZIP code')));
  });

  it('says so when a payment for this order is already in progress', async () => {
    const api = createFakeShopperApi(readyCart());
    api.on('POST', /\/vrio\/orders$/, () => ({
      status: 409,
      body: {
        status: 409,
        code: 'payment_in_progress',
        message: 'Your payment is being processed. Wait a moment before trying again.',
      },
    }));
    const { user, card } = await openPayment({ api });
    await card.enterCard();
    await user.click(screen.getByRole('button', { name: 'Pay $18.00' }));
    const alert = await screen.findByText(
      'Your payment is being processed. Wait a moment before trying again.',
    );
    await waitFor(() => expect(document.activeElement).toBe(alert));
  });

  it('refreshes the cart and explains a refusal that is not about a field', async () => {
    const api = createFakeShopperApi(readyCart());
    api.on('POST', /\/vrio\/orders$/, () => {
      api.setCart({
        ...api.cart,
        discount_code: 'SAVE5',
        discount_notice: {
          code: 'discount_code_minimum_not_met',
          message: 'SAVE5 needs a subtotal of $30.00.',
        },
      });
      return {
        status: 422,
        body: {
          status: 422,
          code: 'discount_code_minimum_not_met',
          message: 'SAVE5 needs a subtotal of $30.00. Remove it to place your order.',
        },
      };
    });
    const { user, card } = await openPayment({ api });
    await card.enterCard();
    await user.click(screen.getByRole('button', { name: 'Pay $18.00' }));
    await screen.findByText('SAVE5 needs a subtotal of $30.00. Remove it to place your order.');
    await screen.findByText('SAVE5 needs a subtotal of $30.00.');
  });

  it('checks every shown section first and opens the first one that is incomplete', async () => {
    // This store asks for gift details after payment: the order button finds them missing.
    const gift = offerFixture({ id: 41, item_name: 'Stoneware mug', is_giftable: true, is_gift: true });
    const api = createFakeShopperApi(cartFixture({ offers: [gift], customer: FILLED_CUSTOMER }));
    const { user, card } = await openPayment({
      api,
      config: {
        sections: [
          { id: 'contact', component: 'ContactInformation' },
          { id: 'shipping', component: 'ShippingAddress' },
          { id: 'payment', component: 'PaymentInformation' },
          { id: 'gifts', component: 'GiftInformation' },
        ],
      },
    });
    await card.enterCard();
    await user.click(screen.getByRole('button', { name: 'Pay $18.00' }));
    await waitFor(() => expect(document.activeElement?.getAttribute('name')).toBe('gift_name_41'));
    expect((await screen.findByRole('alert')).textContent).toContain('Enter the recipient’s name.');
    expect(api.requestsTo('POST', /\/vrio\/orders$/)).toHaveLength(0);
  });

  it('asks for the subscription terms on a recurring order and sends the acceptance', async () => {
    const api = createFakeShopperApi(
      cartFixture({ offers: [subscriptionOfferFixture({ id: 31 })], customer: FILLED_CUSTOMER }),
    );
    api.on('POST', /\/vrio\/orders$/, () => ({ status: 200, body: completedOrder(api.cart) }));
    const { user, card } = await openPayment({ api });
    await card.enterCard();
    const button = screen.getByRole('button', { name: 'Start subscription · $29.00' });
    await user.click(button);
    await screen.findAllByText('Agree to the subscription terms to start your subscription.');
    expect(api.requestsTo('POST', /\/vrio\/orders$/)).toHaveLength(0);
    await user.click(screen.getByLabelText(/I agree to be charged every cycle/));
    await user.click(button);
    await screen.findByRole('heading', { name: 'Thank you, Ada!' });
    expect(api.requestsTo('POST', /\/vrio\/orders$/)[0]?.body).toMatchObject({
      subscription_terms_accepted: true,
    });
  });

  it('does not show the terms box when every offer is a gift, and starts the opt-in from its option', async () => {
    const api = createFakeShopperApi(
      cartFixture({
        offers: [
          subscriptionOfferFixture({
            id: 31,
            is_gift: true,
            gift_name: 'Grace',
            gift_email: 'g@example.com',
            gift_date: '2026-12-24',
          }),
        ],
        customer: FILLED_CUSTOMER,
      }),
    );
    await openPayment({
      api,
      config: {
        client_options: {
          cart: { editable: { value: false, override: null } },
          testCards: [],
          subscriptionTermsCheckbox: { display: true, autoChecked: false },
          emailOptInCheckbox: { display: true, autoChecked: true },
        },
      },
    });
    expect(screen.queryByLabelText(/I agree to be charged/)).toBeNull();
    expect(screen.getByLabelText<HTMLInputElement>(/Email me news and offers/).checked).toBe(true);
  });

  describe('when the bank asks the shopper to authenticate (3-D Secure)', () => {
    const CHALLENGE = { type: 'challenge' as const, url: 'https://cards.example.test/challenge/ch_1' };

    /** POST orders answers the authentication request; the cart's order then waits for it. */
    function askForAuthentication(api: FakeShopperApi) {
      api.on('POST', /\/vrio\/orders$/, () => {
        api.setCart({ ...api.cart, order: { ...api.cart.order, order_id: 88, status: 'awaiting_payment' } });
        return {
          status: 200,
          body: {
            ...api.cart,
            action: { type: 'authenticate', reference: 'pay_ref_1', payment_action: CHALLENGE },
          },
        };
      });
    }

    it("shows the bank's challenge, then sends the authenticated payment as a new attempt", async () => {
      const api = createFakeShopperApi(readyCart());
      askForAuthentication(api);
      api.on('PUT', /\/vrio\/orders\/88$/, () => ({ status: 200, body: completedOrder(api.cart, 88) }));
      const { user, card } = await openPayment({ api });
      await card.enterCard();
      await user.click(screen.getByRole('button', { name: 'Pay $18.00' }));
      await screen.findByRole('heading', { name: 'Thank you, Ada!' });
      expect(card.authentications).toEqual([CHALLENGE]);
      const [first] = api.requestsTo('POST', /\/vrio\/orders$/);
      const [second] = api.requestsTo('PUT', /\/vrio\/orders\/88$/);
      expect(first?.body?.payment).toEqual({ method: 'card', card_token: 'tok_1' });
      expect(second?.body?.payment).toEqual({ method: 'card', authenticated_payment: 'pay_ref_1' });
      expect(second?.body).not.toHaveProperty('offers');
      expect(second?.headers['idempotency-key']).toBeTruthy();
      expect(second?.headers['idempotency-key']).not.toBe(first?.headers['idempotency-key']);
      expect(card.tokenized).toBe(1);
    });

    it('lowers the processing overlay while the challenge shows, and claims nothing before the server does', async () => {
      const api = createFakeShopperApi(readyCart());
      askForAuthentication(api);
      api.on('PUT', /\/vrio\/orders\/88$/, () => ({
        status: 200,
        body: { ...api.cart, order: { ...api.cart.order, status: 'pending' } },
      }));
      const card = createFakeCardProcessor();
      let answerChallenge = (_outcome: { ok: true }) => {};
      const held = new Promise<{ ok: true }>((resolve) => (answerChallenge = resolve));
      const authenticate = vi.fn(() => held);
      card.onAuthenticate = authenticate;
      const { user } = await openPayment({ api, card });
      await card.enterCard();
      await user.click(screen.getByRole('button', { name: 'Pay $18.00' }));
      await waitFor(() => expect(authenticate).toHaveBeenCalled());
      expect(screen.queryByRole('dialog', { name: 'Processing your order…' })).toBeNull();
      expect(screen.queryByRole('heading', { name: /Thank you/ })).toBeNull();
      answerChallenge({ ok: true });
      await waitFor(() => expect(api.requestsTo('PUT', /\/vrio\/orders\/88$/)).toHaveLength(1));
      // The server has not said complete: no confirmation.
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      expect(screen.queryByRole('heading', { name: /Thank you/ })).toBeNull();
    });

    it('says when authentication failed, keeps the order open, and pays it with a new token', async () => {
      const api = createFakeShopperApi(readyCart());
      askForAuthentication(api);
      const card = createFakeCardProcessor();
      card.authenticateAnswers.push({ ok: false, message: 'You did not complete the check with your bank.' });
      const { user } = await openPayment({ api, card });
      await card.enterCard();
      await user.click(screen.getByRole('button', { name: 'Pay $18.00' }));
      const alert = await screen.findByText('You did not complete the check with your bank.');
      await waitFor(() => expect(document.activeElement).toBe(alert));
      expect(api.requestsTo('PUT', /\/vrio\/orders\/88$/)).toHaveLength(0);
      // Another try: the kept order is updated with a new token under a new key.
      api.on('PUT', /\/vrio\/orders\/88$/, () => ({ status: 200, body: completedOrder(api.cart, 88) }));
      await user.click(screen.getByRole('button', { name: 'Pay $18.00' }));
      await screen.findByRole('heading', { name: 'Thank you, Ada!' });
      const [first] = api.requestsTo('POST', /\/vrio\/orders$/);
      const [retry] = api.requestsTo('PUT', /\/vrio\/orders\/88$/);
      expect(retry?.body?.payment).toEqual({ method: 'card', card_token: 'tok_2' });
      expect(retry?.headers['idempotency-key']).not.toBe(first?.headers['idempotency-key']);
    });

    it('sends the authenticated payment again with the same key when its answer was lost', async () => {
      const api = createFakeShopperApi(readyCart());
      askForAuthentication(api);
      let puts = 0;
      api.on('PUT', /\/vrio\/orders\/88$/, () => {
        puts += 1;
        return puts === 1
          ? { status: 503, body: { status: 503, code: 'unavailable', message: 'Try again.' } }
          : { status: 200, body: completedOrder(api.cart, 88) };
      });
      const { user, card } = await openPayment({ api });
      await card.enterCard();
      await user.click(screen.getByRole('button', { name: 'Pay $18.00' }));
      await screen.findByText(/you will not be charged twice/);
      await user.click(screen.getByRole('button', { name: 'Pay $18.00' }));
      await screen.findByRole('heading', { name: 'Thank you, Ada!' });
      const [lost, again] = api.requestsTo('PUT', /\/vrio\/orders\/88$/);
      expect(again?.headers['idempotency-key']).toBe(lost?.headers['idempotency-key']);
      expect(again?.body?.payment).toEqual({ method: 'card', authenticated_payment: 'pay_ref_1' });
      expect(card.tokenized).toBe(1);
      expect(card.authentications).toHaveLength(1);
    });
  });

  it('places a free order without payment from the review step', async () => {
    const api = createFakeShopperApi(cartFixture({ total: 0, customer: FILLED_CUSTOMER }));
    api.on('POST', /\/vrio\/orders$/, () => ({ status: 200, body: completedOrder(api.cart) }));
    const { user } = renderCheckout({ api, cart: api.cart });
    await user.click(await screen.findByRole('button', { name: 'Place order' }));
    await screen.findByRole('heading', { name: 'Thank you, Ada!' });
    expect(api.requestsTo('POST', /\/vrio\/orders$/)[0]?.body?.payment).toEqual({ method: 'none' });
    expect(screen.queryByRole('group', { name: 'Card details' })).toBeNull();
  });
});
