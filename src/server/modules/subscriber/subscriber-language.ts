// The self-service page's language on the server (docs/subscriptions.md, "Self-service"): the language the page is
// given (its subscription's cart's, else the store's default) and its refusals in the language the page asks for.
import type { FastifyRequest } from 'fastify';
import {
  acceptedTags,
  chooseLanguage,
  DEFAULT_LANGUAGE,
  languageOf,
  LANGUAGES,
  type Language,
} from '../../../i18n/languages.js';
import type { MessageKey } from '../../../i18n/message-keys.js';
import type { Queryable } from '../../platform/db/database.js';
import { AppError } from '../../platform/errors.js';
import { translatorFor } from '../../i18n/translator.js';
import { emailLanguageOf } from '../emails/email-language.js';

/** The page's language: the one of the cart the subscription's order came from, else the store's default. */
export async function subscriptionLanguage(
  db: Queryable,
  organizationId: number,
  subscriptionId: number,
): Promise<Language> {
  const { rows } = await db.query<{ language: string | null }>(
    `SELECT c.language FROM subscriptions s
       JOIN orders o ON o.organization_id = s.organization_id AND o.id = s.order_id
       JOIN carts c ON c.organization_id = o.organization_id AND c.id = o.cart_id
      WHERE s.organization_id = $1 AND s.id = $2`,
    [organizationId, subscriptionId],
  );
  return emailLanguageOf(rows[0]?.language);
}

/**
 * The language the server writes the page in (<html lang>, its title and loading line), which the page starts in:
 * ?lang=, else its subscription's (when the link is good), else the browser's first we speak, else English.
 */
export function managePageLanguage(choice: {
  requested: string | undefined;
  subscription: Language | null;
  acceptLanguage: string | undefined;
}): Language {
  return chooseLanguage({
    requested: choice.requested,
    remembered: choice.subscription,
    accepted: acceptedTags(choice.acceptLanguage),
    enabled: LANGUAGES,
    storeDefault: DEFAULT_LANGUAGE,
  });
}

/** Each refusal the page can meet, by its code, in the page's words. */
const REFUSALS: Readonly<Record<string, MessageKey>> = {
  subscriber_link_missing: 'manage.noLink',
  subscriber_link_invalid: 'manage.refusal.linkInvalid',
  subscriber_link_expired: 'manage.refusal.linkExpired',
  subscription_not_found: 'manage.refusal.notFound',
  subscription_cancelled: 'manage.refusal.cancelled',
  charge_in_progress: 'manage.refusal.chargeInProgress',
  charge_already_moved: 'manage.refusal.chargeMoved',
  subscription_cancel_scheduled: 'manage.refusal.cancelScheduled',
  subscription_paused: 'manage.refusal.paused',
  subscription_past_due: 'manage.refusal.pastDue',
  subscription_prepaid: 'manage.refusal.prepaid',
  card_update_unavailable: 'manage.refusal.cardUnavailable',
  processor_unavailable: 'manage.refusal.processorUnavailable',
  too_many_requests: 'manage.refusal.tooMany',
};

/** The language the page asks its answers in (it sends Accept-Language: <its language>); null for none we speak. */
export function requestedLanguage(request: Pick<FastifyRequest, 'headers'>): Language | null {
  const header = request.headers['accept-language'];
  return languageOf(acceptedTags(typeof header === 'string' ? header : null)[0]);
}

/**
 * A refusal in the page's language. English keeps the server's own words (they name the date, the exact reason);
 * another language says the same refusal, by its code, with the same status, code and headers.
 */
export function refusalIn(language: Language | null, error: AppError): AppError {
  // A refusal with a catalogue message is said in the request's language when it is answered.
  if (language === null || language === 'en' || error.said) return error;
  const key =
    REFUSALS[error.code] ?? (error.status === 402 ? 'manage.refusal.cardRefused' : 'manage.refusal.other');
  return new AppError(error.status, error.code, translatorFor(language)(key), {
    ...(error.fields ? { fields: error.fields } : {}),
    ...(error.headers ? { headers: error.headers } : {}),
  });
}

/** Runs a subscriber request, its refusals said in the language the page asked for. */
export async function inPageLanguage<T>(request: FastifyRequest, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AppError && error.status < 500) throw refusalIn(requestedLanguage(request), error);
    if (error instanceof AppError && error.code === 'processor_unavailable')
      throw refusalIn(requestedLanguage(request), error);
    throw error;
  }
}
