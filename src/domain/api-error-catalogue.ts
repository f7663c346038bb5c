import type { MessageKey, MessageValues } from '../i18n/message-keys.js';

/**
 * The page's error catalogue (docs/checkout-rules.md#error-catalogue): every failed call becomes one ApiFailure with
 * a status the page can act on and a message a shopper can read.
 */
export interface ApiFailure {
  status: number;
  code: string;
  message: string;
  /** field name → what to fix, from a 422 answer */
  fields?: Record<string, string>;
  /** from a Retry-After header (429) */
  retryAfterSeconds?: number;
  /** the raw error text when there was no response */
  cause?: string;
}

export const NO_ACCESS_TOKEN_MESSAGE = 'No access token requested';
export const UNAUTHORIZED_MESSAGE = 'Unauthorized';
export const NO_ERROR_DATA_MESSAGE = 'No error data provided';
export const NO_RESPONSE_STATUS = 500;
export const GIFT_UPDATE_FAILURE_STATUS = 513;
export const NO_RESPONSE_MESSAGE = 'We could not reach the store. Check your connection and try again.';
export const INVALID_ANSWER_MESSAGE =
  'The store sent an answer this page does not understand. Reload the page and try again.';
const NOT_FOUND_MESSAGE = 'We could not find this checkout. Check the link from the store.';
const TOO_MANY_MESSAGE = 'Too many attempts. Wait a moment, then try again.';
const SERVER_FAILED_MESSAGE = 'Something went wrong on our side. Please try again.';
const FAILED_MESSAGE = 'Something went wrong. Please try again.';

/** The page's t() (src/client/i18n/use-t.tsx): what says a catalogue message in the page's language. */
export type Say = (key: MessageKey, values?: MessageValues) => string;

/**
 * The page's own words, where the store said nothing a shopper can read (no answer, an answer without a message, the
 * catalogue's stand-ins kept as they are in the stored error): each is a message the page says in its language
 * (docs/languages.md). The English texts stay what a failure and a stored error carry.
 */
const PAGE_WORDS: Readonly<Record<string, MessageKey>> = {
  [NO_ERROR_DATA_MESSAGE]: 'common.error_start_no_reason',
  [UNAUTHORIZED_MESSAGE]: 'common.error_session_refused',
  [NO_ACCESS_TOKEN_MESSAGE]: 'common.error_not_started',
  [NO_RESPONSE_MESSAGE]: 'common.error_no_response',
  [INVALID_ANSWER_MESSAGE]: 'common.error_invalid_answer',
  [NOT_FOUND_MESSAGE]: 'common.error_not_found',
  [TOO_MANY_MESSAGE]: 'common.error_too_many',
  [SERVER_FAILED_MESSAGE]: 'common.error_server',
  [FAILED_MESSAGE]: 'common.error_failed',
};

/** A stored or catalogue error as the shopper reads it: the page's own words in its language, anything else as is. */
export function shopperMessageOf(text: string, say: Say): string {
  const key = Object.hasOwn(PAGE_WORDS, text) ? PAGE_WORDS[text] : undefined;
  return key ? say(key) : text;
}

/** A failure as the shopper reads it: its message said in the page's language where it is the page's own. */
export function sayFailure(failure: ApiFailure, say: Say): ApiFailure {
  const message = shopperMessageOf(failure.message, say);
  return message === failure.message ? failure : { ...failure, message };
}

function record(data: unknown): Record<string, unknown> | null {
  return data !== null && typeof data === 'object' && !Array.isArray(data)
    ? (data as Record<string, unknown>)
    : null;
}

/** The message an answer's data carries: its `message`, or the data itself when it is text. */
export function messageOf(data: unknown): string | null {
  if (typeof data === 'string') return data.trim() === '' ? null : data;
  const message = record(data)?.message;
  return typeof message === 'string' && message !== '' ? message : null;
}

export function rawErrorText(raw: unknown): string {
  if (raw instanceof Error) return raw.message || raw.name;
  if (typeof raw === 'string') return raw;
  return String(raw);
}

/** Without an access token, token type and CSRF token every call fails here, before any request. */
export function missingCredentialsFailure(storedError: string | null): ApiFailure {
  return { status: 401, code: 'not_authorized', message: storedError ?? NO_ACCESS_TOKEN_MESSAGE };
}

function fieldsOf(data: unknown): Record<string, string> | undefined {
  const fields = record(record(data)?.fields);
  if (!fields) return undefined;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(fields)) if (typeof value === 'string') out[key] = value;
  return out;
}

function defaultMessage(status: number): string {
  if (status === 404) return NOT_FOUND_MESSAGE;
  if (status === 429) return TOO_MANY_MESSAGE;
  if (status >= 500) return SERVER_FAILED_MESSAGE;
  return FAILED_MESSAGE;
}

/** An answer with an error status: its status and data (the contract's {status, code, message, fields}). */
export function failureFromResponse(status: number, data: unknown, retryAfter?: string | null): ApiFailure {
  const code = record(data)?.code;
  const failure: ApiFailure = {
    status,
    code: typeof code === 'string' ? code : `http_${status}`,
    message: messageOf(data) ?? defaultMessage(status),
  };
  const fields = fieldsOf(data);
  if (fields) failure.fields = fields;
  const seconds = retryAfter ? Number(retryAfter) : Number.NaN;
  if (Number.isFinite(seconds) && seconds >= 0) failure.retryAfterSeconds = seconds;
  return failure;
}

/** No answer at all (network down, aborted): status 500 with the raw error kept. */
export function failureWithoutResponse(raw: unknown): ApiFailure {
  return {
    status: NO_RESPONSE_STATUS,
    code: 'no_response',
    message: NO_RESPONSE_MESSAGE,
    cause: rawErrorText(raw),
  };
}

export function isAuthorizationRejection(status: number): boolean {
  return status === 401 || status === 403;
}

/** What is stored after a 401/403 answer: its data's message, or 'Unauthorized' when it has none. */
export function rejectionErrorText(data: unknown): string {
  return messageOf(data) ?? UNAUTHORIZED_MESSAGE;
}

/** What is stored when authorizing fails: the raw error as text without a response, else the data or a default. */
export function authorizationErrorText(
  outcome: { response: { status: number; data: unknown } } | { raw: unknown },
): string {
  if ('raw' in outcome) return rawErrorText(outcome.raw);
  const { data } = outcome.response;
  if (data === undefined || data === null || data === '') return NO_ERROR_DATA_MESSAGE;
  return messageOf(data) ?? JSON.stringify(data);
}

/**
 * Gift details are saved with one call per gift offer; when any fails the whole save fails with status 513, the
 * failed offers' messages (already said in the page's language) one after another, each once, and their field errors
 * keyed like the form (gift_name_{id}).
 */
export function giftUpdateFailure(
  failures: readonly { orderOfferId: number; failure: ApiFailure }[],
): ApiFailure {
  const messages = [...new Set(failures.map(({ failure }) => failure.message.trim()))];
  const fields: Record<string, string> = {};
  for (const { orderOfferId, failure } of failures) {
    for (const [name, message] of Object.entries(failure.fields ?? {}))
      fields[`${name}_${orderOfferId}`] = message;
  }
  const failure: ApiFailure = {
    status: GIFT_UPDATE_FAILURE_STATUS,
    code: 'gift_update_failed',
    message: messages.join(' '),
  };
  if (Object.keys(fields).length > 0) failure.fields = fields;
  return failure;
}

/** A failure worth retrying with the same request (and the same idempotency key): no answer or a server error. */
export function isRetryableFailure(failure: ApiFailure): boolean {
  return failure.status >= 500 && failure.status !== GIFT_UPDATE_FAILURE_STATUS;
}
