// The organization's shopper-facing text in a page's language (docs/api.md, "Translations"): the translation the
// merchant gave for that language, field by field, else the store's default text.
import type { LegalLinks, OrganizationSettings, SubscriptionTerms } from '../../../contract/organization.js';
import type { Language } from '../../../i18n/languages.js';
import { localizedText } from '../../../i18n/localized-text.js';
import { settingsOf } from './organization-service.js';

/** The language a cart's text is in: its shopper's choice, else the store's default. */
export function cartLanguageOf(
  cart: { language: Language | null },
  settings: Pick<OrganizationSettings, 'languages'>,
): Language {
  return cart.language ?? settings.languages.default;
}

/**
 * The subscription terms a shopper of `language` reads, with the language their text is really in: `language` when
 * the merchant translated them, else the store's default (the consent records both with the version).
 */
export function localizedTerms(
  settings: Pick<OrganizationSettings, 'subscriptionTerms' | 'languages'>,
  language: Language,
): SubscriptionTerms & { language: Language } {
  const { text, version, translations } = settings.subscriptionTerms;
  const localized = localizedText(text, translations, language, 'text');
  return { text: localized, version, language: localized === text ? settings.languages.default : language };
}

/** The legal links for a page in `language`, each its translation or the store's default. */
export function localizedLegal(
  settings: Pick<OrganizationSettings, 'legal'>,
  language: Language,
): LegalLinks {
  const { translations, ...base } = settings.legal;
  const link = (field: keyof LegalLinks) => {
    const value = localizedText(base[field] ?? null, translations, language, field);
    return value === null ? {} : { [field]: value };
  };
  return { ...link('refund_policy_url'), ...link('terms_url'), ...link('privacy_url') };
}

/** The version and language of the subscription terms a cart's page showed, as its order's consent records them. */
export function termsShownFor(state: {
  cart: { language: Language | null };
  organization: Parameters<typeof settingsOf>[0];
}): { version: string; language: Language } {
  const settings = settingsOf(state.organization);
  const { version, language } = localizedTerms(settings, cartLanguageOf(state.cart, settings));
  return { version, language };
}
