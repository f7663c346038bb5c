import { I18nProvider } from '@lingui/react';
import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, it } from 'vitest';
import type { Cart } from '../../../contract/cart.js';
import type { Language } from '../../../i18n/languages.js';
import { checkoutLanguages } from '../../i18n/checkout-languages.js';
import { createFakeCardProcessor } from '../../testing/fake-card-processor.js';
import { createFakeShopperApi } from '../../testing/fake-shopper-api.js';
import { cartFixture, FILLED_CUSTOMER, pageConfigFixture } from '../../testing/fixtures.js';
import { TEST_NOW } from '../../testing/render-checkout.js';
import { CheckoutApp } from '../checkout-app.js';

beforeEach(() => window.sessionStorage.clear());
afterEach(() => checkoutLanguages.activate('en'));

async function renderIn(language: Language, cart: Cart) {
  await checkoutLanguages.activate(language);
  const api = createFakeShopperApi(cart);
  render(
    <I18nProvider i18n={checkoutLanguages.i18n}>
      <CheckoutApp
        config={pageConfigFixture({ language })}
        routeToken={cart.cart_token}
        fetch={api.fetch as typeof fetch}
        now={() => new Date(TEST_NOW)}
        loadCardProcessor={createFakeCardProcessor().load}
      />
    </I18nProvider>,
  );
}

const TOKYO: Cart['customer'] = {
  ...FILLED_CUSTOMER,
  ship_fname: '太郎',
  ship_lname: '山田',
  ship_address1: '千代田区千代田1-1',
  ship_city: '',
  ship_state: '13',
  ship_zipcode: '100-0001',
  ship_country: 'JP',
};

describe('the finished shipping step', () => {
  it('writes a Japanese address as Japan does, the prefecture by its name', async () => {
    await renderIn('ja', cartFixture({ customer: TOKYO }));
    await screen.findByText(/〒100-0001 東京都 千代田区千代田1-1 太郎 山田 日本/);
  });

  it('names the prefecture in Latin script on a page in another language', async () => {
    await renderIn('en', cartFixture({ customer: TOKYO }));
    await screen.findByText(/〒100-0001, TOKYO, 千代田区千代田1-1, 太郎 山田, Japan/);
  });
});
