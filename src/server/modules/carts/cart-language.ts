// The shopper's language, kept with the cart (docs/languages.md, "Which language").
import type { Cart } from '../../../contract/cart.js';
import type { Language } from '../../../i18n/languages.js';
import type { Database } from '../../platform/db/database.js';
import { refusal } from '../../platform/errors.js';
import type { ShopperContext } from '../organizations/request-context.js';
import { settingsOf } from '../organizations/organization-service.js';
import { setCartLanguage } from './carts-repository.js';
import { languageNotOfferedMessage } from './language-not-offered.js';
import { reloadCartState, requireCartState, viewCartState } from './cart-service.js';

/** PUT …/carts/{token}/language: the page's switcher (or ?lang=) chose it; the cart comes back in its words. */
export async function chooseCartLanguage(
  db: Database,
  shopper: ShopperContext,
  token: string,
  language: Language,
  now: Date,
): Promise<Cart> {
  return db.transaction(async (tx) => {
    const state = await requireCartState(tx, shopper, token, now, { lock: true });
    const { enabled } = settingsOf(state.organization).languages;
    if (!enabled.includes(language)) {
      // Said in the request's language, the store's languages named in it.
      throw refusal(422, 'language_not_offered', (reader) => languageNotOfferedMessage(enabled, reader), {
        fields: { language: { key: 'language.not_offered_field' } },
      });
    }
    if (state.cart.language !== language) {
      await setCartLanguage(tx, state.organization.id, state.cart.id, language, now);
    }
    return viewCartState(tx, await reloadCartState(tx, state), now, shopper.language);
  });
}
