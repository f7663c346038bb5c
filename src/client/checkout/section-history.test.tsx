import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderCheckout } from '../testing/render-checkout.js';

const TOKEN = 'Ab3dEf6hIj9kLm2nOp5qRs8t';

beforeEach(() => {
  window.sessionStorage.clear();
  window.history.replaceState(null, '', `/checkout/${TOKEN}`);
});

const heading = (name: RegExp) => screen.findByRole('heading', { level: 2, name });
const live = () => document.querySelector('[aria-live="polite"]')?.textContent;
const entry = () => window.history.state as { checkoutSection?: string; checkoutPrevious?: string | null };

describe('moving between steps', () => {
  it('gives each step a history entry; Back and the browser’s Back and Forward move between them', async () => {
    const { user } = renderCheckout();
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    expect(screen.queryByRole('button', { name: /^Back to / })).toBeNull();
    await waitFor(() => expect(entry().checkoutSection).toBe('contact'));
    const length = window.history.length;

    await user.click(screen.getByRole('button', { name: 'Continue to shipping' }));
    const shipping = await heading(/Shipping address/);
    await waitFor(() => expect(document.activeElement).toBe(shipping));
    expect(entry()).toMatchObject({ checkoutSection: 'shipping', checkoutPrevious: 'contact' });
    expect(window.history.length).toBe(length + 1);
    // The address keeps the cart's token.
    expect(window.location.pathname).toBe(`/checkout/${TOKEN}`);

    // The page's Back is the browser's Back here: no entry is added.
    await user.click(await screen.findByRole('button', { name: 'Back to contact' }));
    const contact = await heading(/Contact/);
    await waitFor(() => expect(document.activeElement).toBe(contact));
    await waitFor(() => expect(live()).toBe('Step 1: Contact is open.'));
    expect(entry().checkoutSection).toBe('contact');
    expect(window.history.length).toBe(length + 1);
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('ada@example.com');

    window.history.forward();
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: /Shipping/ })),
    );
    await waitFor(() => expect(live()).toBe('Step 2: Shipping address is open.'));

    window.history.back();
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: /Contact/ })),
    );
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('ada@example.com');
  });

  it('reopens the step its history entry names after a reload, no further than the shopper has finished', async () => {
    window.sessionStorage.setItem(
      `secure-checkout:${TOKEN}`,
      JSON.stringify({ text: { email: 'ada@example.com' }, sameAddress: true }),
    );
    window.history.replaceState({ checkoutSection: 'payment', checkoutPrevious: 'shipping' }, '');
    renderCheckout();
    // Contact is complete, shipping is not: the entry's payment step cannot open yet.
    await heading(/Shipping address/);
    expect(screen.getByRole('button', { name: 'Back to contact' })).toBeTruthy();
    await waitFor(() => expect(entry().checkoutSection).toBe('shipping'));
  });
});
