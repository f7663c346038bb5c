// The language of the test provider's approval page (docs/languages.md, "Which language"): the checkout page's, so a
// shopper who pays by express reads the same language on both sides of the redirect.
import {
  acceptedTags,
  chooseLanguage,
  DEFAULT_LANGUAGE,
  LANGUAGES,
  type Language,
} from '../../../i18n/languages.js';

export interface ApprovalPageLanguageChoice {
  /** `?lang=` on the page's address: the form carries the language the page was shown in to its answer */
  requested?: string | undefined;
  /** the cart's language, which the checkout page keeps with it as soon as it opens; null for no known payment */
  cartLanguage: string | null;
  /** the request's Accept-Language header */
  acceptLanguage: string | undefined;
  /** the store's languages; null for no known payment (then every language, English by default) */
  store: { default: Language; enabled: readonly Language[] } | null;
}

/** Which language the approval page speaks: asked for, then the cart's, then the browser's, then the store's default. */
export function approvalPageLanguage(choice: ApprovalPageLanguageChoice): Language {
  return chooseLanguage({
    requested: choice.requested,
    remembered: choice.cartLanguage,
    accepted: acceptedTags(choice.acceptLanguage),
    enabled: choice.store?.enabled ?? LANGUAGES,
    storeDefault: choice.store?.default ?? DEFAULT_LANGUAGE,
  });
}
