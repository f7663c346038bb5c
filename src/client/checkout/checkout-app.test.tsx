import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { completedOrder, createFakeShopperApi } from '../testing/fake-shopper-api.js';
import { cartFixture, FILLED_CUSTOMER } from '../testing/fixtures.js';
import { renderCheckout } from '../testing/render-checkout.js';

beforeEach(() => {
  window.sessionStorage.clear();
  window.history.replaceState(null, '', '/checkout/__c__coffee?cypress=1');
});

describe('start-up', () => {
  it('gets a CSRF token, authorizes as the organization, then loads the cart', async () => {
    const { api } = renderCheckout();
    await screen.findByLabelText('Email');
    expect(api.requests.slice(0, 3).map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /checkout/api/csrf',
      'POST /checkout/api/authorize',
      `GET /checkout/api/vrio/carts/${api.cart.cart_token}`,
    ]);
    expect(api.requests[1]?.body).toMatchObject({ organization: 'demo', _is_vrio_checkout: 1 });
    expect(api.requests[2]?.headers.authorization).toBe('Bearer access-token-1');
    expect(api.requests[2]?.headers['csrf-token']).toBe('csrf-token-1');
  });

  it("replaces a checkout link's token in the address bar with the new cart's own, keeping the query", async () => {
    const cart = cartFixture({ cart_token: 'FreshCartToken12345678' });
    const { api } = renderCheckout({ cart, routeToken: '__c__coffee' });
    await screen.findByLabelText('Email');
    await waitFor(() => expect(window.location.pathname).toBe('/checkout/FreshCartToken12345678'));
    expect(window.location.search).toBe('?cypress=1');
    // one cart: the link was read once, later calls use the new token
    expect(api.requestsTo('GET', /\/carts\/__c__coffee$/)).toHaveLength(1);
    expect(api.requestsTo('GET', /\/carts\/FreshCartToken12345678$/)).toHaveLength(0);
  });

  it("shows the server's message when the token names no cart", async () => {
    const api = createFakeShopperApi(cartFixture());
    api.on('GET', /\/carts\/[^/]+$/, () => ({
      status: 404,
      body: {
        status: 404,
        code: 'cart_not_found',
        message: 'This checkout link is no longer valid. Ask the store for a new one.',
      },
    }));
    renderCheckout({ api });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(
      'This checkout link is no longer valid. Ask the store for a new one.',
    );
  });

  it('offers to try again when the cart could not be loaded, and loads it on request', async () => {
    const api = createFakeShopperApi(cartFixture());
    let fail = true;
    api.on('GET', /\/carts\/[^/]+$/, () =>
      fail
        ? {
            status: 503,
            body: { status: 503, code: 'unavailable', message: 'The store is busy. Try again.' },
          }
        : { status: 200, body: api.cart },
    );
    const { user } = renderCheckout({ api });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Your order could not be loaded');
    expect(alert.textContent).toContain('The store is busy. Try again.');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByLabelText('Email');
  });

  it('shows the stored authorization error when the store cannot be authorized, and tries again', async () => {
    const api = createFakeShopperApi(cartFixture());
    let refuse = true;
    api.on('POST', /\/authorize$/, () =>
      refuse
        ? {
            status: 404,
            body: { status: 404, code: 'organization_not_found', message: 'This store could not be found.' },
          }
        : { status: 200, body: { access_token: 'a', token_type: 'Bearer', expires_in: 3600 } },
    );
    const { user } = renderCheckout({ api });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('This store could not be found.');
    refuse = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByLabelText('Email');
  });

  it('shows the confirmation for a cart that is already ordered', async () => {
    const cart = completedOrder(cartFixture({ customer: FILLED_CUSTOMER }), 4242);
    renderCheckout({ cart });
    await screen.findByRole('heading', { name: 'Thank you, Ada!' });
    expect(screen.getByText('#4242')).toBeTruthy();
  });

  it("is titled in the page's header as a secure checkout with the store's name", async () => {
    renderCheckout();
    await screen.findByLabelText('Email');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Secure Checkout');
    expect(screen.getByText('Northwind Coffee Roasters')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Terms of service' }).getAttribute('href')).toBe(
      'https://example.com/terms',
    );
  });
});
