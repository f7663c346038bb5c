import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { cartFixture, FILLED_CUSTOMER } from '../../testing/fixtures.js';
import { renderCheckout } from '../../testing/render-checkout.js';

beforeEach(() => window.sessionStorage.clear());

describe('contact section', () => {
  it('opens first with labelled email and phone fields that autofill', async () => {
    renderCheckout();
    const email = await screen.findByLabelText('Email');
    expect(email.getAttribute('autocomplete')).toBe('email');
    expect(email.getAttribute('type')).toBe('email');
    expect(screen.getByLabelText(/Phone/).getAttribute('autocomplete')).toBe('tel');
    screen.getByRole('heading', { level: 2, name: /Contact/ });
  });

  it('checks the email when it loses focus and says what to do', async () => {
    const { user } = renderCheckout();
    const email = await screen.findByLabelText('Email');
    await user.type(email, 'ada@example');
    await user.tab();
    await screen.findByText('Enter an email address like name@example.com.');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    await user.type(email, '.com');
    await waitFor(() => expect(email.getAttribute('aria-invalid')).toBeNull());
  });

  it('on Continue shows an announced summary and focuses the first invalid field', async () => {
    const { user } = renderCheckout();
    await user.click(await screen.findByRole('button', { name: 'Continue to shipping' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Check 1 field:');
    expect(alert.textContent).toContain('Enter your email address.');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Email')));
  });

  it('keeps the summary where it is while the shopper types, and brings it into view when it changes', async () => {
    const scrolled: Element[] = [];
    const original = Element.prototype.scrollIntoView;
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this);
    };
    try {
      const { user } = renderCheckout();
      await user.click(await screen.findByRole('button', { name: 'Continue to shipping' }));
      const alert = await screen.findByRole('alert');
      const summaryScrolls = () => scrolled.filter((element) => element === alert).length;
      await waitFor(() => expect(summaryScrolls()).toBe(1));
      await user.type(screen.getByLabelText(/Phone/), '5125550100');
      expect(summaryScrolls()).toBe(1);
      await user.type(screen.getByLabelText('Email'), 'ada');
      await waitFor(() =>
        expect(alert.textContent).toContain('Enter an email address like name@example.com.'),
      );
      expect(summaryScrolls()).toBe(2);
    } finally {
      Element.prototype.scrollIntoView = original;
    }
  });

  it('moves to shipping on Continue, collapses to a summary with Change, and focuses the next heading', async () => {
    const { user } = renderCheckout();
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Continue to shipping' }));
    const heading = await screen.findByRole('heading', { name: /Shipping address/ });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    await waitFor(() =>
      expect(screen.getByRole('status', { name: '' }).textContent).toBe('Step 2: Shipping address is open.'),
    );
    screen.getByText('ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Change contact' }));
    expect((await screen.findByLabelText<HTMLInputElement>('Email')).value).toBe('ada@example.com');
  });

  it('starts past contact and shipping when the saved details are complete', async () => {
    renderCheckout({ cart: cartFixture({ customer: FILLED_CUSTOMER }) });
    await screen.findByRole('group', { name: 'Card details' });
    expect(screen.queryByLabelText('Email')).toBeNull();
  });
});
