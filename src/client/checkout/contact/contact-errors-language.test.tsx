import { setupPageI18n } from '../../../i18n/page-i18n.js';
import { I18nProvider } from '@lingui/react';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import french from 'virtual:catalogue/checkout/fr';
import { beforeEach, describe, expect, it } from 'vitest';
import { CheckoutApp } from '../checkout-app.js';
import { createFakeCardProcessor } from '../../testing/fake-card-processor.js';
import { createFakeShopperApi } from '../../testing/fake-shopper-api.js';
import { cartFixture, pageConfigFixture } from '../../testing/fixtures.js';
import { TEST_NOW } from '../../testing/render-checkout.js';

beforeEach(() => window.sessionStorage.clear());

/** The page as a French shopper sees it: the checkout surface's French catalogue, as the page loads it. */
function renderInFrench() {
  const cart = cartFixture();
  const api = createFakeShopperApi(cart);
  const i18n = setupPageI18n({ locale: 'fr', messages: { fr: french } });
  const user = userEvent.setup();
  const view = render(
    <I18nProvider i18n={i18n}>
      <CheckoutApp
        config={pageConfigFixture()}
        routeToken={cart.cart_token}
        fetch={api.fetch as typeof fetch}
        now={() => new Date(TEST_NOW)}
        loadCardProcessor={createFakeCardProcessor().load}
      />
    </I18nProvider>,
  );
  return { ...view, user };
}

describe('field errors in the page’s language', () => {
  it('says the shared email rule’s error in French after the page checks the field', async () => {
    const { container, user } = renderInFrench();
    // Found by what it is, not by its label: the label is another message of the page.
    const email = await waitFor(() => {
      const input = container.querySelector<HTMLInputElement>('input[autocomplete="email"]');
      if (!input) throw new Error('The email field is not there yet.');
      return input;
    });
    await user.type(email, 'ada@example');
    await user.tab();
    await screen.findByText('Saisissez une adresse e-mail du type nom@exemple.com.');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByText('Enter an email address like name@example.com.')).toBeNull();
  });
});
