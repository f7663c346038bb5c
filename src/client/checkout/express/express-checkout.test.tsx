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
    await waitFor(() =>
      expect(navigateTo).toHaveBeenCalledWith('/checkout/api/express/approve/pt_1?lang=en'),
    );
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
      body: {
        payment_token_id: 'pt_1',
        provider: 'test',
        status: 'approved',
        amount: 18,
        currency: 'USD',
        payer,
      },
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
    expect(screen.queryByRole('group', { name: 'Card details' })).toBeNull();
    screen.getByText('payer@example.com');
    await screen.findByText(/Grace Hopper, 2 Harbor Rd, Austin, TX 73301/);
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
      body: {
        payment_token_id: 'pt_2',
        provider: 'test',
        status: 'cancelled',
        amount: 18,
        currency: 'USD',
        payer: null,
      },
    }));
    renderCheckout({ api });
    await screen.findByText('You canceled the PayPal payment. Try PayPal again or pay another way.');
    expect(window.location.search).toBe('?cypress=1');
    screen.getByLabelText('Email');
  });

  it('lets the shopper leave an approved express payment and pay by card', async () => {
    window.history.replaceState(null, '', '/checkout/T?payment_token_id=pt_1');
    const api = createFakeShopperApi(cartFixture({ order: { order_id: 55, status: 'awaiting_payment' } }));
    api.on('GET', /\/payment_tokens\/pt_1$/, () => ({
      status: 200,
      body: {
        payment_token_id: 'pt_1',
        provider: 'test',
        status: 'approved',
        amount: 18,
        currency: 'USD',
        payer,
      },
    }));
    const { user } = renderCheckout({ api });
    await user.click(await screen.findByRole('button', { name: 'Pay another way' }));
    expect(window.location.search).toBe('');
    expect(screen.queryByText(/Paying with PayPal/)).toBeNull();
    // the payer's address stays; billing is asked for again since the box was set to false
    screen.getByRole('heading', { name: /Billing address/ });
  });

  it('after "Pay another way", opens billing for the shopper to fill instead of passing it for done', async () => {
    window.history.replaceState(null, '', '/checkout/T?payment_token_id=pt_1');
    const api = createFakeShopperApi(cartFixture({ order: { order_id: 55, status: 'awaiting_payment' } }));
    api.on('GET', /\/payment_tokens\/pt_1$/, () => ({
      status: 200,
      body: {
        payment_token_id: 'pt_1',
        provider: 'test',
        status: 'approved',
        amount: 18,
        currency: 'USD',
        payer,
      },
    }));
    const { user } = renderCheckout({ api });
    await user.click(await screen.findByRole('button', { name: 'Pay another way' }));
    // Billing is open with its fields (not a one-line summary of the country alone), and has the focus.
    const street = await screen.findByLabelText('Street address');
    expect(street.id).toMatch(/bill/);
    await waitFor(() => expect(document.activeElement?.textContent).toMatch(/Billing address/));
    expect(screen.queryByRole('button', { name: /Change.*Billing/ })).toBeNull();
    await user.type(screen.getByLabelText('First name'), 'Grace');
    await user.type(street, '2 Harbor Rd');
    await user.type(screen.getByLabelText('City'), 'Austin');
    await user.selectOptions(screen.getByLabelText(/^State/), 'TX');
    await user.type(screen.getByLabelText('ZIP code'), '73301');
    await user.type(screen.getByLabelText('Last name'), 'Hopper');
    await user.click(screen.getByRole('button', { name: 'Continue to payment' }));
    await screen.findByRole('group', { name: 'Card details' });
    // shipping (the payer's) and billing (the shopper's) now both read the same, complete and true
    expect(await screen.findAllByText(/Grace Hopper, 2 Harbor Rd, Austin, TX 73301/)).toHaveLength(2);
  });

  it('states the final total with shipping and tax, and says plainly that it differs from the approved amount', async () => {
    window.history.replaceState(null, '', '/checkout/T?payment_token_id=pt_1');
    const cart = cartFixture({
      order: { order_id: 55, status: 'awaiting_payment' },
      subtotal: 18,
      total_offer_shipping: 0,
      total_campaign_shipping: 5,
      total_tax: 1.49,
      total: 24.49,
      payment_method_id: 2,
    });
    const api = createFakeShopperApi(cart);
    api.on('GET', /\/payment_tokens\/pt_1$/, () => ({
      status: 200,
      body: {
        payment_token_id: 'pt_1',
        provider: 'test',
        status: 'approved',
        amount: 18,
        currency: 'USD',
        payer,
      },
    }));
    renderCheckout({ api, cart });
    const total = await screen.findByText(/^The total is/);
    expect(total.textContent).toBe(
      'The total is $24.49, including $5.00 shipping and $1.49 tax. That is $6.49 more than the $18.00 you approved at PayPal: PayPal charges $24.49 when you place the order.',
    );
    expect(document.body.textContent).not.toContain('You approved this payment');
    screen.getByRole('button', { name: 'Pay $24.49 with PayPal' });
  });

  it('says the total is the approved amount when it is', async () => {
    window.history.replaceState(null, '', '/checkout/T?payment_token_id=pt_1');
    const cart = cartFixture({ order: { order_id: 55, status: 'awaiting_payment' }, payment_method_id: 2 });
    const api = createFakeShopperApi(cart);
    api.on('GET', /\/payment_tokens\/pt_1$/, () => ({
      status: 200,
      body: {
        payment_token_id: 'pt_1',
        provider: 'test',
        status: 'approved',
        amount: cart.total,
        currency: 'USD',
        payer,
      },
    }));
    renderCheckout({ api, cart });
    const total = await screen.findByText(/^The total is/);
    expect(total.textContent).toContain('This is the amount you approved at PayPal');
  });
});
