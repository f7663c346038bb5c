import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OrderResponseSchema } from '../../../contract/order.js';
import { navigateTo } from '../../boot/navigate-to.js';
import { completedOrder, createFakeShopperApi } from '../../testing/fake-shopper-api.js';
import { cartFixture } from '../../testing/fixtures.js';
import { renderCheckout } from '../../testing/render-checkout.js';

vi.mock('../../boot/navigate-to.js', () => ({ navigateTo: vi.fn() }));

beforeEach(() => {
  window.sessionStorage.clear();
  vi.mocked(navigateTo).mockClear();
});
afterEach(() => window.history.replaceState(null, '', '/'));

const payer = {
  email: 'payer@example.com',
  fname: 'Grace',
  lname: 'Hopper',
  ship_fname: 'Grace',
  ship_lname: 'Hopper',
  ship_address1: '2 Harbor Rd',
  ship_address2: '',
  ship_city: 'Austin',
  ship_state: 'TX',
  ship_zipcode: '73301',
  ship_country: 'US',
};

describe('express checkout', () => {
  it('sits above the contact details and sends the shopper to the approval page', async () => {
    const api = createFakeShopperApi(cartFixture());
    api.on('POST', /\/vrio\/orders$/, () => ({
      status: 200,
      body: OrderResponseSchema.parse({
        ...api.cart,
        order: { ...api.cart.order, order_id: 55, status: 'awaiting_payment' },
        action: { type: 'redirect', url: '/checkout/api/express/approve/pt_1' },
      }),
    }));
    const { user } = renderCheckout({ api });
    const button = await screen.findByRole('button', { name: 'Pay with PayPal' });
    expect(
      button.compareDocumentPosition(screen.getByLabelText('Email')) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    screen.getByText('or continue below');
    await user.click(button);
    await waitFor(() => expect(navigateTo).toHaveBeenCalledWith('/checkout/api/express/approve/pt_1'));
    const [order] = api.requestsTo('POST', /\/vrio\/orders$/);
    expect(order?.body).toMatchObject({ cart_token: api.cart.cart_token, payment: { method: 'paypal' } });
    expect(order?.body).not.toHaveProperty('email');
    expect(order?.headers['idempotency-key']).toBeTruthy();
  });

  it('back from an approval: fills contact and shipping from the payer, hides billing, pays with the token', async () => {
    window.history.replaceState(null, '', '/checkout/T?payment_token_id=pt_1');
    const cart = cartFixture({ order: { order_id: 55, status: 'awaiting_payment' }, payment_method_id: 2 });
    const api = createFakeShopperApi(cart);
    api.on('GET', /\/payment_tokens\/pt_1$/, () => ({
      status: 200,
      body: { payment_token_id: 'pt_1', provider: 'test', status: 'approved', payer },
    }));
    api.on('PUT', /\/vrio\/orders\/55$/, (request) => ({
      status: 200,
      body: completedOrder(
        { ...api.cart, customer: { ...api.cart.customer, ship_fname: String(request.body?.ship_fname) } },
        55,
      ),
    }));
    const { user } = renderCheckout({ api, cart });
    await screen.findByText(/as payer@example.com/);
    expect(screen.queryByRole('heading', { name: /Billing address/ })).toBeNull();
    expect(screen.queryByLabelText('Card number')).toBeNull();
    screen.getByText('payer@example.com');
    screen.getByText(/Grace Hopper, 2 Harbor Rd, Austin TX 73301/);
    await user.click(screen.getByRole('button', { name: 'Pay $18.00 with PayPal' }));
    await screen.findByRole('heading', { name: 'Thank you, Grace!' });
    expect(api.requestsTo('PUT', /\/vrio\/orders\/55$/)[0]?.body).toMatchObject({
      email: 'payer@example.com',
      same_address: false,
      ship_address1: '2 Harbor Rd',
      payment: { method: 'paypal', payment_token_id: 'pt_1' },
    });
  });

  it('says why a cancelled approval cannot be used and leaves the card form', async () => {
    window.history.replaceState(null, '', '/checkout/T?cypress=1&payment_token_id=pt_2');
    const api = createFakeShopperApi(cartFixture());
    api.on('GET', /\/payment_tokens\/pt_2$/, () => ({
      status: 200,
      body: { payment_token_id: 'pt_2', provider: 'test', status: 'cancelled', payer: null },
    }));
    renderCheckout({ api });
    await screen.findByText('You cancelled the PayPal payment. Try PayPal again or pay another way.');
    expect(window.location.search).toBe('?cypress=1');
    screen.getByLabelText('Email');
  });

  it('lets the shopper leave an approved express payment and pay by card', async () => {
    window.history.replaceState(null, '', '/checkout/T?payment_token_id=pt_1');
    const api = createFakeShopperApi(cartFixture({ order: { order_id: 55, status: 'awaiting_payment' } }));
    api.on('GET', /\/payment_tokens\/pt_1$/, () => ({
      status: 200,
      body: { payment_token_id: 'pt_1', provider: 'test', status: 'approved', payer },
    }));
    const { user } = renderCheckout({ api });
    await user.click(await screen.findByRole('button', { name: 'Pay another way' }));
    await screen.findByLabelText('Card number');
    expect(window.location.search).toBe('');
    // the payer's address stays; billing is asked for again since the box was set to false
    screen.getByRole('heading', { name: /Billing address/ });
  });
});
