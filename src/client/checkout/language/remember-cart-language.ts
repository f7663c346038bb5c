import type { Cart } from '../../../contract/cart.js';
import type { Language } from '../../../i18n/languages.js';
import type { CheckoutApi } from '../../api/checkout-api.js';
import { lazySchema } from '../../api/lazy-schema.js';

const CartSchema = lazySchema((schemas) => schemas.CartSchema);

/**
 * Keeps the page's language with the cart (docs/languages.md, "Which language"): a reload without ?lang= speaks it
 * and the order's emails go out in it. The cart comes back with the store's catalogue text in that language; the
 * server writes nothing when the cart already has it.
 */
export function rememberCartLanguage(api: CheckoutApi, token: string, language: Language): Promise<Cart> {
  return api.http.request({
    method: 'PUT',
    path: `carts/${encodeURIComponent(token)}/language`,
    body: { language },
    schema: CartSchema,
  });
}
