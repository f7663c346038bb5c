import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { completedOrder } from '../testing/fake-shopper-api.js';
import { cartFixture, FILLED_CUSTOMER } from '../testing/fixtures.js';
import { renderCheckout } from '../testing/render-checkout.js';

// The confirmation's chunk fails to load (a dropped connection right after the payment went through).
vi.mock('../checkout/confirmation/confirmation-view.js', () => {
  throw new Error('Failed to fetch dynamically imported module');
});

beforeEach(() => {
  window.sessionStorage.clear();
  window.history.replaceState(null, '', '/checkout/Ab3dEf6hIj9kLm2nOp5qRs8t');
});

// The test ends on the error view: not while the page's other chunks (loaded beside the handshake) still import.
afterEach(async () => {
  await Promise.all([
    import('../checkout/checkout-view.js'),
    import('../checkout/shipping/shipping-section.js'),
    import('../checkout/billing/billing-section.js'),
  ]);
});

describe('the page when something breaks after the order was paid', () => {
  it('says the order was placed and paid, with its number, under the store header', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const cart = completedOrder(cartFixture({ customer: FILLED_CUSTOMER }), 4242);
    renderCheckout({ cart });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Your order is placed');
    expect(alert.textContent).toContain('Your order #4242 was placed and paid.');
    expect(alert.textContent).not.toMatch(/nothing was charged/i);
    expect(screen.getByRole('button', { name: 'Reload the page' })).toBeTruthy();
    // the store's header stays
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Secure Checkout');
    expect(screen.getByText('Northwind Coffee Roasters')).toBeTruthy();
    quiet.mockRestore();
  });
});
