import { I18nProvider } from '@lingui/react';
import { configure, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import type { Cart } from '../../contract/cart.js';
import type { PageConfig } from '../../contract/page-config.js';
import { CheckoutApp } from '../checkout/checkout-app.js';
import { checkoutLanguages } from '../i18n/checkout-languages.js';
import { createFakeCardProcessor, type FakeCardProcessor } from './fake-card-processor.js';
import { createFakeShopperApi, type FakeShopperApi } from './fake-shopper-api.js';
import { cartFixture, pageConfigFixture } from './fixtures.js';

// A whole shopper flow in jsdom takes seconds, and other suites share the machine's cores: give asynchronous UI
// and each test more room than the defaults (1 s and 5 s). These are limits for a hang, not timing assertions.
configure({ asyncUtilTimeout: 10_000 });
vi.setConfig({ testTimeout: 30_000 });

export const TEST_NOW = new Date(2026, 10, 15, 10, 0, 0);

/**
 * Renders the whole page against a fake shopper API and a fake card processor, as a shopper would see it, in the
 * checkout's active language (English unless a test turns it).
 */
export function renderCheckout(
  options: {
    cart?: Cart;
    config?: Partial<PageConfig>;
    api?: FakeShopperApi;
    routeToken?: string;
    cardProcessor?: FakeCardProcessor;
  } = {},
) {
  const cart = options.cart ?? cartFixture();
  const api = options.api ?? createFakeShopperApi(cart);
  const cardProcessor = options.cardProcessor ?? createFakeCardProcessor();
  const config = pageConfigFixture(options.config);
  const user = userEvent.setup();
  // The page's own messages (the checkout surface's catalogues), as main.tsx provides them.
  const view = render(
    <I18nProvider i18n={checkoutLanguages.i18n}>
      <CheckoutApp
        config={config}
        routeToken={options.routeToken ?? cart.cart_token}
        fetch={api.fetch as typeof fetch}
        now={() => new Date(TEST_NOW)}
        loadCardProcessor={cardProcessor.load}
      />
    </I18nProvider>,
  );
  return { ...view, api, user, config, card: cardProcessor };
}
