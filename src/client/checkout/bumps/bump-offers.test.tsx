import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Cart, CartBump } from '../../../contract/cart.js';
import { createFakeShopperApi } from '../../testing/fake-shopper-api.js';
import {
  cartFixture,
  FILLED_CUSTOMER,
  offerFixture,
  subscriptionOfferFixture,
} from '../../testing/fixtures.js';
import { renderCheckout } from '../../testing/render-checkout.js';

beforeEach(() => window.sessionStorage.clear());

const MUG: CartBump = {
  offer_id: 7,
  item_name: 'Travel mug',
  item_image: '/checkout/images/mug.svg',
  text: 'Keep it hot on the way',
  price: 12,
  is_recurring: false,
  billing_interval_days: null,
  next_price: null,
  selected: false,
};

const liveRegion = () => document.querySelector('[aria-live="polite"]')?.textContent ?? '';

/** The cart the server answers once the mug's box is ticked: its line added, the totals with it. */
function withMug(cart: Cart): Cart {
  const line = offerFixture({
    id: 31,
    order_offer_id: 31,
    offer_id: 7,
    item_name: 'Travel mug',
    item_price: 12,
    order_offer_price: 12,
    subtotal_offer: 12,
    total: 12,
    is_bump: true,
  });
  return {
    ...cart,
    offers: [...cart.offers, line],
    subtotal: 30,
    subtotal_items: 30,
    total: 30,
    total_items: 2,
    bumps: [{ ...MUG, selected: true }],
  };
}

describe('order bump boxes', () => {
  it('are not there for a cart without bumps', async () => {
    renderCheckout({ cart: cartFixture({ customer: FILLED_CUSTOMER }) });
    await screen.findByRole('group', { name: 'Card details' });
    expect(screen.queryByRole('region', { name: 'Add to your order' })).toBeNull();
  });

  it('show the image, the line and the price, and tick through the API with the totals announced', async () => {
    const cart = cartFixture({ customer: FILLED_CUSTOMER, bumps: [MUG] });
    const api = createFakeShopperApi(cart);
    api.on('PUT', /\/carts\/[^/]+\/bumps$/, (request) => ({
      status: 200,
      body: request.body?.selected ? withMug(cart) : cart,
    }));
    const { user } = renderCheckout({ api, cart });
    const box = await screen.findByRole('checkbox', { name: 'Add Travel mug for $12.00' });
    expect(screen.getByRole('img', { name: 'Travel mug' })).toBeTruthy();
    expect(box.getAttribute('aria-describedby')).toBe('bump-7-text');
    expect(document.getElementById('bump-7-text')?.textContent).toBe('Keep it hot on the way');

    await user.click(box);
    await screen.findByRole('button', { name: 'Pay $30.00' });
    expect(api.requestsTo('PUT', /\/bumps$/)[0]?.body).toMatchObject({ offer_id: 7, selected: true });
    await waitFor(() => expect(liveRegion()).toBe('Travel mug added to your order. Total $30.00.'));
    expect((box as HTMLInputElement).checked).toBe(true);

    await user.click(box);
    await screen.findByRole('button', { name: 'Pay $18.00' });
    await waitFor(() => expect(liveRegion()).toBe('Travel mug removed from your order. Total $18.00.'));
    expect((box as HTMLInputElement).checked).toBe(false);
  });

  it('bring the subscription terms box with a recurring bump, and say what it charges later', async () => {
    const club: CartBump = {
      ...MUG,
      offer_id: 8,
      item_name: 'Coffee club',
      text: 'Join the club',
      price: 29,
      is_recurring: true,
      billing_interval_days: 30,
      next_price: 25,
    };
    const cart = cartFixture({ customer: FILLED_CUSTOMER, bumps: [club] });
    const api = createFakeShopperApi(cart);
    const line = subscriptionOfferFixture({ id: 32, order_offer_id: 32, offer_id: 8, is_bump: true });
    api.on('PUT', /\/bumps$/, () => ({
      status: 200,
      body: {
        ...cart,
        offers: [...cart.offers, line],
        order: { ...cart.order, is_recurring: true },
        subtotal: 47,
        subtotal_items: 47,
        total: 47,
        bumps: [{ ...club, selected: true }],
      },
    }));
    const { user } = renderCheckout({ api, cart });
    const box = await screen.findByRole('checkbox', {
      name: 'Add Coffee club for $29.00, then $25.00 every 30 days',
    });
    expect(screen.queryByRole('checkbox', { name: /I agree/ })).toBeNull();
    await user.click(box);
    await screen.findByRole('checkbox', { name: /I agree/ });
    await screen.findByRole('button', { name: 'Start subscription · $47.00' });
  });

  it('say why a refused tick did not happen, and leave the box as it was', async () => {
    const cart = cartFixture({ customer: FILLED_CUSTOMER, bumps: [MUG] });
    const api = createFakeShopperApi(cart);
    const message = 'This order has already been placed. Nothing more can change in it.';
    api.on('PUT', /\/bumps$/, () => ({ status: 409, body: { status: 409, code: 'cart_ordered', message } }));
    const { user } = renderCheckout({ api, cart });
    const box = await screen.findByRole('checkbox', { name: 'Add Travel mug for $12.00' });
    await user.click(box);
    expect((await screen.findByRole('alert')).textContent).toBe(message);
    expect((box as HTMLInputElement).checked).toBe(false);
    expect(box.getAttribute('aria-describedby')).toBe('bump-7-text bump-7-error');
  });
});
