import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { checkServedPage, describeChanges, type PageChange, type PageGet } from './page-check.js';
import type { PageManifest } from './page-manifest.js';

/** The page without a cart token: the same template, scripts and headers as every checkout, and no database read. */
export const SELF_CHECK_PAGE = '/checkout';

/** An answer's headers as single strings (the check compares text). */
function flatHeaders(headers: Record<string, unknown>): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.join(', ') : value === undefined ? undefined : String(value),
    ]),
  );
}

/**
 * The server's own page check (PAGE_CHECK_INTERVAL_SECONDS; docs/security.md, "Page scripts"): renders the page
 * and fetches its files through the app itself, as a browser would get them, and compares them with the build's
 * manifest and the policy the server sets. A change is logged at error and counted; nothing changed logs nothing.
 */
export function createPageSelfCheck(options: {
  app: Pick<FastifyInstance, 'inject'>;
  manifest: PageManifest;
  /** The page's Content-Security-Policy as this server's settings make it (pageContentSecurityPolicy). */
  expectedPolicy: () => string;
  logger: Pick<Logger, 'error'>;
  onChanges: (count: number) => void;
}): () => Promise<PageChange[]> {
  const get: PageGet = async (url, acceptEncoding) => {
    const answer = await options.app.inject({
      method: 'GET',
      url: new URL(url).pathname,
      headers: { 'accept-encoding': acceptEncoding },
    });
    const encoding = answer.headers['content-encoding'];
    const body =
      encoding === 'br'
        ? brotliDecompressSync(answer.rawPayload)
        : encoding === 'gzip'
          ? gunzipSync(answer.rawPayload)
          : answer.rawPayload;
    return { status: answer.statusCode, headers: flatHeaders(answer.headers), body };
  };
  return async () => {
    const { changes } = await checkServedPage(
      get,
      `http://self-check${SELF_CHECK_PAGE}`,
      options.manifest,
      options.expectedPolicy(),
    );
    if (changes.length > 0) {
      options.onChanges(changes.length);
      options.logger.error(
        { pageChanges: describeChanges(changes) },
        "the served checkout page differs from the build's manifest",
      );
    }
    return changes;
  };
}
