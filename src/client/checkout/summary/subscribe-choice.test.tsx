import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { createFakeShopperApi } from '../../testing/fake-shopper-api.js';
import { cartFixture, offerFixture } from '../../testing/fixtures.js';
import { renderCheckout } from '../../testing/render-checkout.js';

beforeEach(() => window.sessionStorage.clear());

const terms = { interval_days: 30, percent_off: 10, once_price: 20, subscribe_price: 18 };
const once = offerFixture({
  id: 21,
  item_name: 'Green tea',
  item_price: 20,
  order_offer_price: 20,
  subtotal_offer: 20,
  total: 20,
  subscribe_and_save: terms,
});
const subscribed = offerFixture({
  ...once,
  order_offer_price: 18,
  subtotal_offer: 18,
  total: 18,
  is_recurring: true,
  billing_interval_days: 30,
  next_price: 18,
  next_cycle_total: 18,
  subscribed: true,
});
const onceCart = cartFixture({ offers: [once], subtotal: 20, subtotal_items: 20, total: 20 });
const subscribedCart = cartFixture({
  offers: [subscribed],
  subtotal: 18,
  subtotal_items: 18,
  total: 18,
  order: { ...onceCart.order, is_recurring: true },
});

const group = async () => within(await screen.findByRole('group', { name: 'How to buy Green tea' }));

describe('subscribe and save', () => {
  it('offers buying once or subscribing, and shows the server’s answer with the choice announced', async () => {
    const api = createFakeShopperApi(onceCart);
    api.on('PUT', /\/subscribe$/, (request) => ({
      status: 200,
      body: request.body?.subscribe ? subscribedCart : onceCart,
    }));
    const { user } = renderCheckout({ cart: onceCart, api });
    const choice = await group();
    expect((choice.getByRole('radio', { name: /^Buy once/ }) as HTMLInputElement).checked).toBe(true);
    choice.getByText('$20.00');
    choice.getByText('$18.00');
    await user.click(choice.getByRole('radio', { name: /^Subscribe every 30 days and save 10 %/ }));
    await screen.findByText('Today $18.00, then $18.00 every 30 days');
    expect(api.requestsTo('PUT', /\/subscribe$/)[0]?.body).toMatchObject({ id: 21, subscribe: true });
    await waitFor(() =>
      expect(document.querySelector('[aria-live="polite"]')?.textContent).toBe(
        'Green tea: subscribed every 30 days at $18.00. Total today $18.00.',
      ),
    );
    expect((choice.getByRole('radio', { name: /^Subscribe every/ }) as HTMLInputElement).checked).toBe(true);
  });

  it('shows a refusal under the choice and keeps what the server has', async () => {
    const api = createFakeShopperApi(onceCart);
    api.on('PUT', /\/subscribe$/, () => ({
      status: 409,
      body: {
        status: 409,
        code: 'payment_in_progress',
        message: 'Your payment is being processed. Wait a moment before changing your items.',
      },
    }));
    const { user } = renderCheckout({ cart: onceCart, api });
    const choice = await group();
    await user.click(choice.getByRole('radio', { name: /^Subscribe every/ }));
    await choice.findByText('Your payment is being processed. Wait a moment before changing your items.');
    expect((choice.getByRole('radio', { name: /^Buy once/ }) as HTMLInputElement).checked).toBe(true);
  });

  it('is not offered for lines that cannot subscribe', async () => {
    renderCheckout();
    await screen.findByRole('complementary', { name: 'Order summary' });
    expect(screen.queryByRole('group', { name: /^How to buy/ })).toBeNull();
  });
});
