import { I18nProvider } from '@lingui/react';
import { startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { adoptMoneyFormat } from '../domain/money.js';
import { languageOf } from '../i18n/languages.js';
import { afterFirstPaint } from './boot/after-first-paint.js';
import { startEarlyHandshake } from './boot/early-handshake.js';
import { readPageBoot } from './boot/read-page-boot.js';
import { readCartTokenCookie } from '../domain/router-status.js';
import { readRouteToken } from './boot/route-token.js';
import { CheckoutApp, LinkErrorMessage } from './checkout/checkout-app.js';
import { preloadPageChunks } from './checkout/page-chunks.js';
import { giveAddressFormats } from './checkout/shipping/address-data-chunk.js';
import { checkoutLanguages } from './i18n/checkout-languages.js';
import './theme/theme.css';
import './theme/base.css';

const root = document.getElementById('root');
// The route or the cart_token query names the cart; /checkout alone resumes the cart this browser remembers.
const routeToken = root
  ? (readRouteToken(window.location)?.token ?? readCartTokenCookie(document.cookie))
  : null;
// The handshake's calls go out now, beside the first paint and the config's schema (early-handshake.ts).
const handshake = routeToken ? startEarlyHandshake(document) : null;
// And the code the cart's first view needs, beside those calls rather than after the config is checked.
if (routeToken) preloadPageChunks();
if (root) {
  // The server's first view (page-shell.ts) comes first: once the browser has painted it, the schemas load, the
  // config is checked, and React replaces that view with the same markup. On a slow network the paint is long done
  // when this script arrives; on a fast one nothing else competes with it.
  void afterFirstPaint()
    .then(() => readPageBoot(document))
    .then(async (boot) => {
      // The page's language before its first render: a language other than English is a chunk of its own.
      if (boot.ok) await checkoutLanguages.activate(boot.config.language);
      // Without a config, the language the server wrote on <html lang>; English when its messages cannot load either.
      else
        await checkoutLanguages
          .activate(languageOf(document.documentElement.lang) ?? 'en')
          .catch(() => undefined);
      // Amounts are written as the server described its currency: no Intl formatter (ICU's data) on the first render.
      if (boot.ok && boot.config.money_format) adoptMoneyFormat(boot.config.money_format);
      // The cart's own addresses are written in their countries' formats without loading every country's data.
      if (boot.ok) giveAddressFormats(boot.config.address_formats);
      const reactRoot = createRoot(root);
      // A transition renders in slices: no long task before the shopper can interact.
      startTransition(() =>
        reactRoot.render(
          <I18nProvider i18n={checkoutLanguages.i18n}>
            {boot.ok && routeToken ? (
              <CheckoutApp config={boot.config} routeToken={routeToken} handshake={handshake} />
            ) : (
              <LinkErrorMessage
                config={boot.ok ? boot.config : null}
                code={boot.ok ? null : boot.code}
                message={boot.ok ? { key: 'common.needs_checkout_link' } : boot.message}
              />
            )}
          </I18nProvider>,
        ),
      );
    });
}
