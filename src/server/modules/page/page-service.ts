import { localizedLegal, localizedTerms } from '../organizations/localized-settings.js';
import type { CardProcessorConfig, PageConfig, PageError } from '../../../contract/page-config.js';
import { addressFormatOf } from '../../../domain/address/address-data.js';
import type { AddressFormat } from '../../../domain/address/address-format.js';
import { parseCartToken } from '../../../domain/cart-token.js';
import { GIFT_ALREADY_CLAIMED_CODE } from '../../../domain/link-errors.js';
import { describeMoneyFormat } from '../../../domain/money.js';
import {
  acceptedTags,
  chooseLanguage,
  DEFAULT_LANGUAGE,
  formattingLocaleOf,
  LANGUAGES,
  languageOf,
  type Language,
} from '../../../i18n/languages.js';
import { writePageLanguage } from '../../i18n/page-words.js';
import { translatorFor } from '../../i18n/translator.js';
import type { Queryable } from '../../platform/db/database.js';
import { findOrganizationById } from '../organizations/organizations-repository.js';
import { findCartForPage, findGiftClaimOrganization, findOrganizationIdForLink } from './page-repository.js';
import { settingsOf } from '../organizations/organization-service.js';
import { renderPageShell, SHELL_PLACEHOLDER } from './page-shell.js';

export const CONFIG_PLACEHOLDER = '<!--checkout-config-->';

/** The shopper API's refusal of such a cart (said in the request's language by the error handler). */
export const LINK_NO_LONGER_VALID = 'This checkout link is no longer valid. Ask the store for a new one.';

/** The page's JSON config for a cart token, or the error the page shows (served with 404). */
export async function resolvePageBoot(
  db: Queryable,
  cartToken: string | undefined,
  options: {
    testMode: boolean;
    now: Date;
    errorReportingDsn: string | null;
    cardProcessor: CardProcessorConfig;
    /** `?lang=` on the page's URL */
    requestedLanguage?: string | undefined;
    /** the request's Accept-Language header */
    acceptLanguage?: string | undefined;
  },
): Promise<
  { status: 200; boot: PageConfig; language: Language } | { status: 404; boot: PageError; language: Language }
> {
  const parsed = parseCartToken(cartToken);
  let organizationId: number | null = null;
  let remembered: string | null = null;
  let addressCountries: string[] = [];
  if (parsed.kind === 'cart') {
    const cart = await findCartForPage(db, parsed.token, options.now);
    organizationId = cart?.organization_id ?? null;
    remembered = cart?.language ?? null;
    addressCountries = cart?.address_countries ?? [];
  }
  if (parsed.kind === 'checkout_link')
    organizationId = await findOrganizationIdForLink(db, parsed.linkId, options.now);
  // A page with no store speaks what the shopper asked for or their browser's language.
  const noStore = () =>
    chooseLanguage({
      requested: options.requestedLanguage,
      accepted: acceptedTags(options.acceptLanguage),
      enabled: LANGUAGES,
      storeDefault: DEFAULT_LANGUAGE,
    });
  if (parsed.kind === 'gift_claim') {
    const gift = await findGiftClaimOrganization(db, parsed.claimCode);
    if (gift?.claimed) {
      const language = noStore();
      const message = translatorFor(language)('common.gift_claimed_message');
      return { status: 404, language, boot: { error: { code: GIFT_ALREADY_CLAIMED_CODE, message } } };
    }
    organizationId = gift?.organization_id ?? null;
  }
  const organization = organizationId === null ? null : await findOrganizationById(db, organizationId);
  if (!organization) {
    const language = noStore();
    const t = translatorFor(language);
    return {
      status: 404,
      language,
      boot: {
        error: {
          code: cartToken ? 'cart_not_found' : 'cart_token_missing',
          message: t(cartToken ? 'common.link_no_longer_valid' : 'common.needs_checkout_link'),
        },
      },
    };
  }
  const settings = settingsOf(organization);
  const language = chooseLanguage({
    requested: options.requestedLanguage,
    remembered,
    accepted: acceptedTags(options.acceptLanguage),
    enabled: settings.languages.enabled,
    storeDefault: settings.languages.default,
  });
  return {
    status: 200,
    language,
    boot: {
      organization: organization.public_id,
      organization_name: organization.name,
      logo_url: settings.logoUrl,
      currency: organization.currency,
      money_format: describeMoneyFormat(organization.currency, formattingLocaleOf(language)),
      client_options: settings.clientOptions,
      sections: settings.sections,
      // The merchant's text in the page's language, else the store's default (docs/api.md, "Translations").
      subscription_terms: {
        text: localizedTerms(settings, language).text,
        version: settings.subscriptionTerms.version,
      },
      legal: localizedLegal(settings, language),
      api_base: '/checkout/api',
      test_mode: options.testMode,
      error_reporting_dsn: options.errorReportingDsn,
      card_processor: options.cardProcessor,
      language,
      languages: settings.languages.enabled,
      kept_language: languageOf(remembered),
      address_formats: addressFormatsOf(addressCountries),
    },
  };
}

/** The formats of the countries given, by code; a code that names no country is left out. */
function addressFormatsOf(countries: readonly string[]): Record<string, AddressFormat> {
  const formats: Record<string, AddressFormat> = {};
  for (const country of countries) {
    const format = addressFormatOf(country);
    if (format) formats[format.country] = format;
  }
  return formats;
}

/** JSON that is safe inside a <script type="application/json"> element: nothing can close the element early. */
export function jsonForHtml(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * The template with the page's config block and, inside #root, its first view (a template without one gets none), in
 * the page's language: <html lang dir>, its title and the first view's words.
 */
export function renderPage(template: string, boot: PageConfig | PageError, language: Language): string {
  const block = `<script type="application/json" id="checkout-config">${jsonForHtml(boot)}</script>`;
  // <html lang dir> and the marked words (the title) first: the config block and first view carry no markers.
  return writePageLanguage(template, language)
    .replace(CONFIG_PLACEHOLDER, () => block)
    .replace(SHELL_PLACEHOLDER, () => renderPageShell(boot, translatorFor(language)));
}
