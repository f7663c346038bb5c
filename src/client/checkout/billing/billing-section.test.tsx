import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { cartFixture, FILLED_CUSTOMER, offerFixture } from '../../testing/fixtures.js';
import { renderCheckout } from '../../testing/render-checkout.js';

beforeEach(() => window.sessionStorage.clear());

describe('billing section', () => {
  it('is hidden while the same-address box is checked, and appears when it is unchecked', async () => {
    const { user } = renderCheckout({
      cart: cartFixture({ customer: { ...FILLED_CUSTOMER, email: 'ada@example.com' } }),
    });
    await screen.findByRole('group', { name: 'Card details' });
    expect(screen.queryByRole('heading', { name: /Billing address/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Change shipping address' }));
    await user.click(await screen.findByLabelText(/billing address is the same/));
    await screen.findByRole('heading', { name: /Billing address/ });
    await user.click(screen.getByRole('button', { name: 'Continue to billing' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Country or region').getAttribute('autocomplete')).toBe('billing country'),
    );
  });

  it('is shown when nothing ships, whatever the box says', async () => {
    const guide = offerFixture({ item_name: 'Home brewing guide (PDF)' });
    const cart = cartFixture({
      offers: [guide],
      order: { shipping_information_required: false },
      customer: { ...cartFixture().customer, email: 'ada@example.com' },
    });
    renderCheckout({ cart });
    await screen.findByRole('heading', { name: /Billing address/ });
    expect(screen.queryByRole('heading', { name: /Shipping address/ })).toBeNull();
    expect(screen.getByLabelText('First name').getAttribute('autocomplete')).toBe('billing given-name');
  });

  it('is hidden for a free one-off order, with the payment section', async () => {
    const cart = cartFixture({ total: 0, customer: { ...cartFixture().customer, same_address: false } });
    renderCheckout({ cart });
    await screen.findByLabelText('Email');
    expect(screen.queryByRole('heading', { name: /Billing address/ })).toBeNull();
    expect(screen.queryByRole('heading', { name: /Payment/ })).toBeNull();
    screen.getByRole('heading', { name: /Review and place your order/ });
  });

  it('copies the shipping address on request', async () => {
    const { user } = renderCheckout({
      cart: cartFixture({ customer: { ...FILLED_CUSTOMER, same_address: false } }),
    });
    await user.click(await screen.findByRole('button', { name: 'Copy my shipping address' }));
    await waitFor(() =>
      expect((screen.getByLabelText('Street address') as HTMLInputElement).value).toBe('1 Main St'),
    );
  });
});
