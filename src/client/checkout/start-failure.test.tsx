import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeShopperApi } from '../testing/fake-shopper-api.js';
import { cartFixture } from '../testing/fixtures.js';
import { renderCheckout } from '../testing/render-checkout.js';

beforeEach(() => {
  window.sessionStorage.clear();
  window.history.replaceState(null, '', '/checkout/Ab3dEf6hIj9kLm2nOp5qRs8t');
});

// A test that ends on an error view must not end while the page's chunks (loaded beside the handshake) still import.
afterEach(async () => {
  await Promise.all([
    import('./checkout-view.js'),
    import('./shipping/shipping-section.js'),
    import('./billing/billing-section.js'),
  ]);
});

describe('a start-up the store refuses without saying why', () => {
  it("tells the shopper what to do instead of 'No error data provided', and starts when they try again", async () => {
    const api = createFakeShopperApi(cartFixture());
    let refuse = true;
    api.on('POST', /\/csrf$/, () =>
      refuse
        ? { status: 502, body: undefined }
        : { status: 200, body: { csrfToken: 'csrf-token-1', csrfTokenExpiry: 3600 } },
    );
    const { user } = renderCheckout({ api });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).not.toContain('No error data provided');
    expect(alert.textContent).toContain('The store could not start this checkout and did not say why.');
    refuse = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByLabelText('Email');
  });
});
