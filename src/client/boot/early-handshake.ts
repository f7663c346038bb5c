import { createHttpClient, type HttpClient, type HttpClientOptions } from '../api/http-client.js';

/** The session's handshake, started as soon as the page's script runs (see startEarlyHandshake). */
export interface EarlyHandshake {
  http: HttpClient;
  /** what it was started with: the checked config must say the same for the page to use it */
  started: Pick<HttpClientOptions, 'apiBase' | 'organization' | 'testMode'>;
  /** Hears each new CSRF token's expiry; one that came before anybody listened is told at once. */
  onCsrfToken(listener: (expirySeconds: number) => void): void;
}

/**
 * Starts the handshake (CSRF token, then authorization: two calls before the cart can be asked for) from the page's
 * raw config, while the config's schema is still downloading: the calls need only three of its values. The page uses
 * it only if the checked config names the same (handshakeFor); otherwise it starts its own.
 */
export function startEarlyHandshake(doc: Document): EarlyHandshake | null {
  let raw: unknown;
  try {
    raw = JSON.parse(doc.getElementById('checkout-config')?.textContent ?? '');
  } catch {
    return null;
  }
  if (typeof raw !== 'object' || raw === null) return null;
  const { api_base: apiBase, organization, test_mode: testMode } = raw as Record<string, unknown>;
  if (typeof apiBase !== 'string' || typeof organization !== 'string' || typeof testMode !== 'boolean')
    return null;

  let listener: ((expirySeconds: number) => void) | null = null;
  let untold: number | null = null;
  const http = createHttpClient({
    apiBase,
    organization,
    testMode,
    onCsrfToken: (expiry) => {
      if (listener) listener(expiry);
      else untold = expiry;
    },
  });
  void http.start();
  return {
    http,
    started: { apiBase, organization, testMode },
    onCsrfToken(next) {
      listener = next;
      if (untold !== null) next(untold);
      untold = null;
    },
  };
}

/** The early handshake when it was started with what the checked config says, else null. */
export function handshakeFor(
  early: EarlyHandshake | null | undefined,
  config: { api_base: string; organization: string; test_mode: boolean },
): EarlyHandshake | null {
  if (!early) return null;
  const { apiBase, organization, testMode } = early.started;
  return apiBase === config.api_base && organization === config.organization && testMode === config.test_mode
    ? early
    : null;
}
