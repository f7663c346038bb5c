import type { QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Language } from '../../../i18n/languages.js';
import { setCachedCart } from '../../api/cart-queries.js';
import type { CheckoutApi } from '../../api/checkout-api.js';
import { rememberCartLanguage } from './remember-cart-language.js';

// One page load has one API client: a remount (the error view's retry) does not tell the cart again.
const told = new WeakSet<CheckoutApi>();

/**
 * The language the page opened in (asked for, kept, the browser's or the store's default) is the one the shopper
 * uses: the cart keeps it once the page has its cart, once per load, whether or not the store offers a switcher
 * (docs/languages.md). A cart that already keeps it (`kept_language` in the page config) is not told again, so a
 * reload costs no call and no second render.
 */
export function useKeepOpeningLanguage(
  api: CheckoutApi,
  queryClient: QueryClient,
  token: string | null,
  language: Language,
  keptLanguage: Language | null,
): void {
  useEffect(() => {
    if (token === null || told.has(api) || keptLanguage === language) return;
    told.add(api);
    void rememberCartLanguage(api, token, language).then(
      (cart) => setCachedCart(queryClient, token, cart),
      // The page works as it is; only a reload would open in another language.
      () => undefined,
    );
  }, [api, queryClient, token, language, keptLanguage]);
}
