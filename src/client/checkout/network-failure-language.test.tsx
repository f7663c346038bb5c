import { setupPageI18n } from '../../i18n/page-i18n.js';
import { I18nProvider } from '@lingui/react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import spanish from 'virtual:catalogue/checkout/es';
import { beforeEach, describe, expect, it } from 'vitest';
import { CheckoutApp } from './checkout-app.js';
import { createFakeCardProcessor } from '../testing/fake-card-processor.js';
import { createFakeShopperApi } from '../testing/fake-shopper-api.js';
import { cartFixture, pageConfigFixture } from '../testing/fixtures.js';
import { TEST_NOW } from '../testing/render-checkout.js';

// The page's own words for a call that got no answer are messages of its catalogues, said in its language
// (docs/languages.md).

beforeEach(() => window.sessionStorage.clear());

function renderInSpanish(api: ReturnType<typeof createFakeShopperApi>) {
  const cart = cartFixture();
  const i18n = setupPageI18n({ locale: 'es', messages: { es: spanish } });
  const user = userEvent.setup();
  render(
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
  return { user };
}

const NO_ANSWER_ES = 'No pudimos conectar con la tienda. Revisa tu conexión e inténtalo de nuevo.';

describe('a network failure on a Spanish page', () => {
  it('says that the store could not be reached in Spanish when a discount code gets no answer', async () => {
    const api = createFakeShopperApi(cartFixture());
    api.on('PUT', /\/discount_code$/, () => {
      throw new TypeError('Failed to fetch');
    });
    const { user } = renderInSpanish(api);
    await user.type(await screen.findByLabelText('Código de descuento'), 'welcome10');
    await user.click(screen.getByRole('button', { name: 'Aplicar' }));
    await screen.findByText(NO_ANSWER_ES);
    expect(screen.queryByText(/We could not reach the store/)).toBeNull();
  });

  it('says it in Spanish when the checkout cannot start for want of an answer', async () => {
    const api = createFakeShopperApi(cartFixture());
    api.on('POST', /^\/checkout\/api\/csrf$/, () => {
      throw new TypeError('Failed to fetch');
    });
    renderInSpanish(api);
    await screen.findByText(NO_ANSWER_ES);
  });
});
