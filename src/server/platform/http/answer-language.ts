// Which language an error answer speaks (docs/languages.md): the shopper's API answers in the page's language, which
// the page sends as Accept-Language on every call; the merchant's API and everything else stay English, for developers.
import type { FastifyRequest } from 'fastify';
import {
  acceptedTags,
  chooseLanguage,
  DEFAULT_LANGUAGE,
  LANGUAGES,
  type Language,
} from '../../../i18n/languages.js';

const SHOPPER_API = '/checkout/api/';
const NOT_SHOPPER = ['/checkout/api/merchant/', '/checkout/api/webhooks/', '/checkout/api/docs'];

/** Whether a request's address is the shopper's API (the page's calls), not the merchant's or a webhook. */
export function isShopperApi(url: string): boolean {
  return url.startsWith(SHOPPER_API) && !NOT_SHOPPER.some((prefix) => url.startsWith(prefix));
}

/** The first language of an Accept-Language header we speak; English without one. */
export function acceptedLanguage(header: string | string[] | undefined): Language {
  const value = Array.isArray(header) ? header.join(',') : header;
  return chooseLanguage({
    accepted: acceptedTags(value),
    enabled: LANGUAGES,
    storeDefault: DEFAULT_LANGUAGE,
  });
}

/** The language a request's error answer is said in. */
export function answerLanguage(request: Pick<FastifyRequest, 'url' | 'headers'>): Language {
  return isShopperApi(request.url) ? acceptedLanguage(request.headers['accept-language']) : DEFAULT_LANGUAGE;
}
