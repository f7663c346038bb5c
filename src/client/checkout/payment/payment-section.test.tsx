import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PageConfig } from '../../../contract/page-config.js';
import { completedOrder, createFakeShopperApi, type FakeShopperApi } from '../../testing/fake-shopper-api.js';
import {
  cartFixture,
  FILLED_CUSTOMER,
  offerFixture,
  subscriptionOfferFixture,
} from '../../testing/fixtures.js';
import { renderCheckout } from '../../testing/render-checkout.js';

beforeEach(() => window.sessionStorage.clear());

const readyCart = () => cartFixture({ customer: FILLED_CUSTOMER });

async function openPayment(options: { api?: FakeShopperApi; config?: Partial<PageConfig> } = {}) {
  const api = options.api ?? createFakeShopperApi(readyCart());
  const view = renderCheckout({ api, cart: api.cart, ...(options.config ? { config: options.config } : {}) });
  await screen.findByLabelText('Card number');
  return view;
}

async function fillCard(user: Awaited<ReturnType<typeof openPayment>>['user'], number = '4111111111111111') {
  await user.type(screen.getByLabelText('Card number'), number);
  await user.type(screen.getByLabelText('Expiry date (MM / YY)'), '0428');
  await user.type(screen.getByLabelText('Security code (CVV)'), '123');
}

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

const brandIcon = () => document.querySelector('.card-fields__icon')?.getAttribute('src') ?? null;

describe('card fields', () => {
  it('autofill as card fields with the numeric keyboard', async () => {
    await openPayment();
    const number = screen.getByLabelText('Card number');
    expect(number.getAttribute('autocomplete')).toBe('cc-number');
    expect(number.getAttribute('inputmode')).toBe('numeric');
    expect(screen.getByLabelText('Expiry date (MM / YY)').getAttribute('autocomplete')).toBe('cc-exp');
    expect(screen.getByLabelText('Security code (CVV)').getAttribute('autocomplete')).toBe('cc-csc');
  });

  it('formats the number in groups and shows the brand after 4 digits', async () => {
    const { user } = await openPayment();
    const number = screen.getByLabelText<HTMLInputElement>('Card number');
    await user.type(number, '411');
    expect(brandIcon()).toBeNull();
    await user.type(number, '1111111111111');
    expect(number.value).toBe('4111 1111 1111 1111');
    expect(brandIcon()).toBe('/images/cards/visa.svg');
    screen.getByText('Visa');
    await user.clear(number);
    await user.type(number, '378282246310005');
    expect(number.value).toBe('3782 822463 10005');
    expect(brandIcon()).toBe('/images/cards/american-express.svg');
  });

  it("shows a test card from the client options as type 'testcard'", async () => {
    const { user } = await openPayment();
    await user.type(screen.getByLabelText('Card number'), '4242424242424242');
    expect(brandIcon()).toBe('/images/cards/testcard.svg');
    screen.getByText('Test card');
  });

  it('names the accepted brands for any other brand', async () => {
    const { user } = await openPayment();
    await user.type(screen.getByLabelText('Card number'), '3530111333300000');
    await user.tab();
    await screen.findByText(/^We accept Visa, Mastercard, Discover and American Express/, {
      selector: '.field__error',
    });
    expect(brandIcon()).toBeNull();
  });

  it('lists the test cards in test mode only, and fills one on request', async () => {
    const { user } = await openPayment({ config: { test_mode: true } });
    await user.click(screen.getByRole('button', { name: 'Use test card 4242 4242 4242 4242' }));
    expect(screen.getByLabelText<HTMLInputElement>('Card number').value).toBe('4242 4242 4242 4242');
  });

  it('hides the test cards outside test mode', async () => {
    await openPayment();
    expect(screen.queryByRole('button', { name: /Use test card/ })).toBeNull();
  });
});

describe('placing the order', () => {
  it('sends one order with an Idempotency-Key and shows the confirmation', async () => {
    const api = createFakeShopperApi(readyCart());
    api.on('POST', /\/vrio\/orders$/, () => ({ status: 200, body: completedOrder(api.cart, 1001) }));
    const { user } = await openPayment({ api });
    await fillCard(user);
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
      payment: {
        method: 'card',
        card_number: '4111111111111111',
        card_cvv: '123',
        card_exp_month: 4,
        card_exp_year: 2028,
        card_type_id: 2,
      },
      subscription_terms_accepted: true,
      email_opt_in: false,
      from_checkout: true,
      _is_vrio_checkout: 1,
    });
    screen.getByText('#1001');
    // card data is gone from memory and storage once the order is done
    expect(JSON.stringify(window.sessionStorage)).not.toContain('4111');
  });

  it('shows a full-screen overlay while processing, with the page behind it inert', async () => {
    const api = createFakeShopperApi(readyCart());
    const order = holdOrder(api);
    const { user } = await openPayment({ api });
    await fillCard(user);
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
    const { user } = await openPayment({ api });
    await fillCard(user);
    const button = screen.getByRole('button', { name: 'Pay $18.00' });
    await user.dblClick(button);
    button.click();
    await waitFor(() => expect(order.started()).toBe(true));
    order.finish();
    await screen.findByRole('heading', { name: 'Thank you, Ada!' });
    expect(api.requestsTo('POST', /\/vrio\/orders$/)).toHaveLength(1);
  });

  it('shows a decline next to the card fields, keeps them filled, and retries the kept order with a new key', async () => {
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
    const { user } = await openPayment({ api });
    await fillCard(user, '4000000000000002');
    await user.click(screen.getByRole('button', { name: 'Pay $18.00' }));
    const alert = await screen.findByText('Your card was declined. Try another card or PayPal.');
    await waitFor(() => expect(document.activeElement).toBe(alert));
    expect(screen.getByLabelText<HTMLInputElement>('Card number').value).toBe('4000 0000 0000 0002');
    await user.clear(screen.getByLabelText('Card number'));
    await user.type(screen.getByLabelText('Card number'), '4111111111111111');
    await user.click(screen.getByRole('button', { name: 'Pay $18.00' }));
    await screen.findByRole('heading', { name: 'Thank you, Ada!' });
    const [first] = api.requestsTo('POST', /\/vrio\/orders$/);
    const [retry] = api.requestsTo('PUT', /\/vrio\/orders\/77$/);
    expect(retry?.headers['idempotency-key']).toBeTruthy();
    expect(retry?.headers['idempotency-key']).not.toBe(first?.headers['idempotency-key']);
    expect(retry?.body).not.toHaveProperty('offers');
    expect(retry?.body?.payment).toMatchObject({ card_number: '4111111111111111' });
  });

  it('sends nothing for a card that cannot be charged, and opens the fields to fix', async () => {
    const api = createFakeShopperApi(readyCart());
    const { user } = await openPayment({ api });
    await user.type(screen.getByLabelText('Card number'), '4111111111111112');
    await user.type(screen.getByLabelText('Expiry date (MM / YY)'), '0125');
    await user.type(screen.getByLabelText('Security code (CVV)'), '12');
    await user.click(screen.getByRole('button', { name: 'Pay $18.00' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Check 3 fields:');
    expect(alert.textContent).toContain('This card number is not valid. Check it for typos.');
    expect(alert.textContent).toContain('This card has expired. Use another card.');
    expect(alert.textContent).toContain('Enter the 3-digit security code on the back of the card.');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Card number')));
    expect(screen.getByLabelText('Card number').getAttribute('aria-invalid')).toBe('true');
    expect(api.requestsTo('POST', /\/vrio\/orders$/)).toHaveLength(0);
  });

  it('asks the shopper to wait when orders are refused for a while, saying how long', async () => {
    const api = createFakeShopperApi(readyCart());
    api.on('POST', /\/vrio\/orders$/, () => ({
      status: 429,
      headers: { 'retry-after': '90' },
      body: { status: 429, code: 'rate_limited', message: 'Too many attempts.' },
    }));
    const { user } = await openPayment({ api });
    await fillCard(user);
    await user.click(screen.getByRole('button', { name: 'Pay $18.00' }));
    const alert = await screen.findByText('Too many attempts. Try again in 2 minutes.');
    await waitFor(() => expect(document.activeElement).toBe(alert));
    expect(screen.getByLabelText<HTMLInputElement>('Card number').value).toBe('4111 1111 1111 1111');
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
    const { user } = await openPayment({ api });
    await fillCard(user);
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
    const { user } = await openPayment({ api });
    await fillCard(user);
    await user.click(screen.getByRole('button', { name: 'Pay $18.00' }));
    await screen.findByText(/you will not be charged twice/);
    await user.click(screen.getByRole('button', { name: 'Pay $18.00' }));
    await screen.findByRole('heading', { name: 'Thank you, Ada!' });
    const [first, second] = api.requestsTo('POST', /\/vrio\/orders$/);
    expect(second?.headers['idempotency-key']).toBe(first?.headers['idempotency-key']);
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
    const { user } = await openPayment({ api });
    await fillCard(user);
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
    const { user } = await openPayment({ api });
    await fillCard(user);
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
    const { user } = await openPayment({ api });
    await fillCard(user);
    await user.click(screen.getByRole('button', { name: 'Pay $18.00' }));
    await screen.findByText('SAVE5 needs a subtotal of $30.00. Remove it to place your order.');
    await screen.findByText('SAVE5 needs a subtotal of $30.00.');
  });

  it('checks every shown section first and opens the first one that is incomplete', async () => {
    // This store asks for gift details after payment: the order button finds them missing.
    const gift = offerFixture({ id: 41, item_name: 'Stoneware mug', is_giftable: true, is_gift: true });
    const api = createFakeShopperApi(cartFixture({ offers: [gift], customer: FILLED_CUSTOMER }));
    const { user } = await openPayment({
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
    await fillCard(user);
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
    const { user } = await openPayment({ api });
    await fillCard(user);
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

  it('places a free order without payment from the review step', async () => {
    const api = createFakeShopperApi(cartFixture({ total: 0, customer: FILLED_CUSTOMER }));
    api.on('POST', /\/vrio\/orders$/, () => ({ status: 200, body: completedOrder(api.cart) }));
    const { user } = renderCheckout({ api, cart: api.cart });
    await user.click(await screen.findByRole('button', { name: 'Place order' }));
    await screen.findByRole('heading', { name: 'Thank you, Ada!' });
    expect(api.requestsTo('POST', /\/vrio\/orders$/)[0]?.body?.payment).toEqual({ method: 'none' });
  });
});
