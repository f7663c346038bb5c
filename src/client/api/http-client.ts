import {
  authorizationErrorText,
  failureFromResponse,
  failureWithoutResponse,
  isAuthorizationRejection,
  missingCredentialsFailure,
  INVALID_ANSWER_MESSAGE,
  NO_RESPONSE_MESSAGE,
  rejectionErrorText,
  sayFailure,
  type ApiFailure,
  type Say,
} from '../../domain/api-error-catalogue.js';
import { CSRF_DEFAULT_EXPIRY_SECONDS } from '../../domain/csrf-schedule.js';
import { hasCredentials, initialAuthState, type AuthState } from './auth-state.js';
import { lazySchema, loadResponseSchemas, type LazySchema } from './lazy-schema.js';

const CSRF_ANSWER = lazySchema((schemas) => schemas.CsrfResponseSchema);
const AUTHORIZE_ANSWER = lazySchema((schemas) => schemas.AuthorizeResponseSchema);

/** A failed call: `failure` says what happened in the catalogue's terms. */
export class ApiRequestError extends Error {
  readonly failure: ApiFailure;

  constructor(failure: ApiFailure) {
    super(failure.message);
    this.name = 'ApiRequestError';
    this.failure = failure;
  }
}

/**
 * A failed call as the page shows it, `say` being the page's t(): the page's own words (no answer, the catalogue's
 * stand-ins) become sentences the shopper can act on, in the page's language.
 */
export function failureOf(error: unknown, say: Say): ApiFailure {
  return sayFailure(error instanceof ApiRequestError ? error.failure : failureWithoutResponse(error), say);
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions<T> {
  method: HttpMethod;
  /** under {apiBase}/vrio/ */
  path: string;
  query?: Record<string, string>;
  body?: object;
  headers?: Record<string, string>;
  /** parses the answer; null for answers without a body (204) */
  schema: LazySchema<T> | null;
}

export interface HttpClientOptions {
  /** "/checkout/api" */
  apiBase: string;
  organization: string;
  testMode: boolean;
  fetch?: typeof fetch;
  csrfTokenExpiry?: number;
  /** called with the expiry of each new CSRF token (the scheduler plans the next one) */
  onCsrfToken?: (expirySeconds: number) => void;
  /**
   * The page's language now, sent as Accept-Language on every call so the store's refusals speak it
   * (docs/languages.md); by default <html lang>, which the page sets when it turns to a language.
   */
  language?: () => string | null;
}

function documentLanguage(): string | null {
  return typeof document === 'undefined' ? null : document.documentElement.lang || null;
}

export interface HttpClient {
  readonly auth: Readonly<AuthState>;
  /**
   * What the page tells the shopper when start() failed: the stored authorization error when the store answered (its
   * own words), and the catalogue's words for no answer at all (the network, or a chunk of the page that did not
   * download), where the stored error is the browser's raw text (docs/checkout-rules.md#error-catalogue); the
   * catalogue's stand-ins ("No error data provided"), which the page says as sentences the shopper can act on with
   * shopperMessageOf(text, t). Null while no error is stored.
   */
  readonly startError: string | null;
  /** CSRF token, then authorization; false (with auth.error set) when either fails. Runs once unless it failed. */
  start(): Promise<boolean>;
  regenerateCsrf(): Promise<boolean>;
  authorize(): Promise<boolean>;
  request<T = undefined>(options: RequestOptions<T>): Promise<T>;
}

const INVALID_ANSWER: ApiFailure = {
  status: 500,
  code: 'invalid_response',
  message: INVALID_ANSWER_MESSAGE,
};

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * The page's one HTTP client: every call carries the authorization and CSRF headers, same-origin credentials, the
 * checkout marker (and the visitor IP when known) in non-GET bodies, and cypress=1 in test mode. A 401/403 answer
 * triggers one fresh authorization; failures become ApiRequestErrors from the error catalogue.
 */
export function createHttpClient(options: HttpClientOptions): HttpClient {
  const auth = initialAuthState(options.organization);
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const language = options.language ?? documentLanguage;
  const languageHeader = (): Record<string, string> => {
    const tag = language();
    return tag ? { 'accept-language': tag } : {};
  };
  let starting: Promise<boolean> | null = null;
  /** Whether the handshake call that failed last got no answer at all: auth.error then holds the browser's words. */
  let unanswered = false;
  /** The stored authorization error as the shopper reads it: the catalogue's words where nothing answered. */
  const shopperError = () => (auth.error !== null && unanswered ? NO_RESPONSE_MESSAGE : auth.error);
  let reauthorizing: Promise<boolean> | null = null;

  const url = (path: string, query: Record<string, string> = {}) => {
    const params = new URLSearchParams(query);
    if (options.testMode) params.set('cypress', '1');
    const search = params.toString();
    return `${options.apiBase}/${path}${search ? `?${search}` : ''}`;
  };

  const markedBody = (body: object = {}) => ({
    ...body,
    _is_vrio_checkout: 1,
    ...(auth.ip_address ? { ip_address: auth.ip_address } : {}),
  });

  /** One handshake call; any failure is stored as the authorization error. */
  async function handshake<T>(
    path: string,
    body: object,
    headers: Record<string, string>,
    schema: LazySchema<T>,
  ): Promise<T | null> {
    unanswered = false;
    const noAnswer = (raw: unknown) => {
      auth.error = authorizationErrorText({ raw });
      unanswered = true;
      return null;
    };
    let response: Response;
    try {
      response = await doFetch(url(path), {
        method: 'POST',
        credentials: 'same-origin',
        headers: {
          accept: 'application/json',
          'content-type': 'application/json',
          ...languageHeader(),
          ...headers,
        },
        body: JSON.stringify(markedBody(body)),
      });
    } catch (raw) {
      return noAnswer(raw);
    }
    const data = await readBody(response);
    if (!response.ok) {
      auth.error = authorizationErrorText({ response: { status: response.status, data } });
      return null;
    }
    let check: Awaited<ReturnType<typeof schema>>;
    try {
      check = await schema();
    } catch (raw) {
      // The schemas could not be downloaded: as if the answer had not come.
      return noAnswer(raw);
    }
    const parsed = check.safeParse(data);
    if (!parsed.success) {
      auth.error = INVALID_ANSWER.message;
      return null;
    }
    return parsed.data;
  }

  async function regenerateCsrf(): Promise<boolean> {
    const answer = await handshake(
      'csrf',
      { csrfTokenExpiry: options.csrfTokenExpiry ?? CSRF_DEFAULT_EXPIRY_SECONDS },
      {},
      CSRF_ANSWER,
    );
    if (!answer) return false;
    auth.csrfToken = answer.csrfToken;
    auth.csrfTokenExpiry = answer.csrfTokenExpiry;
    options.onCsrfToken?.(answer.csrfTokenExpiry);
    return true;
  }

  async function authorize(): Promise<boolean> {
    const answer = await handshake(
      'authorize',
      { organization: auth.organization },
      auth.csrfToken ? { 'CSRF-Token': auth.csrfToken } : {},
      AUTHORIZE_ANSWER,
    );
    if (!answer) {
      auth.access_token = null;
      auth.token_type = null;
      auth.expires_in = null;
      return false;
    }
    auth.access_token = answer.access_token;
    auth.token_type = answer.token_type;
    auth.expires_in = answer.expires_in;
    auth.error = null;
    return true;
  }

  /** One fresh authorization shared by every call that was refused meanwhile. */
  function reauthorize(): Promise<boolean> {
    reauthorizing ??= (async () => (await regenerateCsrf()) && (await authorize()))().finally(() => {
      reauthorizing = null;
    });
    return reauthorizing;
  }

  async function request<T>(call: RequestOptions<T>, isRetry = false): Promise<T> {
    if (!hasCredentials(auth)) throw new ApiRequestError(missingCredentialsFailure(auth.error));
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...languageHeader(),
      authorization: `${auth.token_type} ${auth.access_token}`,
      'CSRF-Token': auth.csrfToken ?? '',
      ...call.headers,
    };
    const init: RequestInit = { method: call.method, credentials: 'same-origin', headers };
    if (call.method !== 'GET') {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(markedBody(call.body));
    }
    let response: Response;
    try {
      response = await doFetch(url(`vrio/${call.path}`, call.query), init);
    } catch (raw) {
      throw new ApiRequestError(failureWithoutResponse(raw));
    }
    const data = await readBody(response);
    if (isAuthorizationRejection(response.status)) {
      auth.error = rejectionErrorText(data);
      const rejection = failureFromResponse(response.status, data);
      if (!isRetry && (await reauthorize())) return request(call, true);
      throw new ApiRequestError({ ...rejection, message: shopperError() ?? rejection.message });
    }
    if (!response.ok) {
      throw new ApiRequestError(
        failureFromResponse(response.status, data, response.headers.get('retry-after')),
      );
    }
    if (call.schema === null) return undefined as T;
    let check: Awaited<ReturnType<typeof call.schema>>;
    try {
      check = await call.schema();
    } catch (raw) {
      // The schemas could not be downloaded: as if the answer had not come.
      throw new ApiRequestError(failureWithoutResponse(raw));
    }
    const parsed = check.safeParse(data);
    if (!parsed.success) throw new ApiRequestError(INVALID_ANSWER);
    return parsed.data;
  }

  // Every answer is checked against the contract: fetch its schemas while the first calls travel.
  loadResponseSchemas().catch(() => undefined);

  return {
    auth,
    get startError() {
      return shopperError();
    },
    start() {
      // One start at a time; after a failure the next call tries again.
      starting ??= (async () => (await regenerateCsrf()) && (await authorize()))().then((ok) => {
        if (!ok) starting = null;
        return ok;
      });
      return starting;
    },
    regenerateCsrf,
    authorize,
    request: (options) => request(options),
  };
}
