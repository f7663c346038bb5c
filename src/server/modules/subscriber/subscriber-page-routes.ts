// The subscriber's self-service page at /checkout/manage/<token> (docs/subscriptions.md, "Self-service"): a build of
// its own (vite.manage.config.ts, dist/client/manage), so the checkout page loads none of it. Whatever the token, the
// page is served: it asks the API, which says whether the link is good, and the page tells the subscriber. The page is
// written in its subscription's language (docs/languages.md), so its loading line and title are, before it runs.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Language } from '../../../i18n/languages.js';
import { writePageLanguage } from '../../i18n/page-words.js';
import type { AppContext } from '../../platform/context.js';
import type { TokenService } from '../../platform/security/tokens.js';
import { SUBSCRIBER_PAGE_PATH } from './subscriber-link.js';
import { managePageLanguage, subscriptionLanguage } from './subscriber-language.js';

/** The folder of the page's build inside the client's (dist/client/manage). */
export const SUBSCRIBER_PAGE_DIR = 'manage';

/** Used when the page has not been built (API tests): a valid page that says so. */
const UNBUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title data-t="manage.title"></title></head>
<body><main><h1 data-t="manage.title"></h1><p data-t="manage.notBuilt"></p></main></body></html>`;

/** The token in the page's address (/checkout/manage/<token>), as the page reads it. */
function linkTokenOf(url: string): string | undefined {
  const match = /^\/checkout\/manage\/([^/?#]+)\/?(?:[?#]|$)/.exec(url);
  if (!match?.[1]) return undefined;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return undefined;
  }
}

export async function registerSubscriberPageRoutes(
  app: FastifyInstance,
  context: AppContext,
  tokens: Pick<TokenService, 'verifySubscriberToken'>,
  clientDir: string | null,
): Promise<void> {
  const pageDir = clientDir ? path.join(clientDir, SUBSCRIBER_PAGE_DIR) : null;
  const indexFile = pageDir ? path.join(pageDir, 'index.html') : null;
  const page = indexFile && existsSync(indexFile) ? await readFile(indexFile, 'utf8') : UNBUILT_PAGE;

  if (pageDir && existsSync(path.join(pageDir, 'assets'))) {
    await app.register(fastifyStatic, {
      root: path.join(pageDir, 'assets'),
      prefix: `${SUBSCRIBER_PAGE_PATH}assets/`,
      preCompressed: true,
      immutable: true,
      maxAge: '365d',
      index: false,
      decorateReply: false,
    });
  }

  // A wildcard, not :token: a signed token is longer than the router's limit on a path parameter, and the page reads
  // it from its own address. The route's pattern is what the access log writes (app.ts), never the token;
  // Referrer-Policy is no-referrer on every answer (security-headers.ts), so it never leaves in a Referer either.
  const languageOf = async (request: FastifyRequest): Promise<Language> => {
    const checked = await tokens.verifySubscriberToken(linkTokenOf(request.url));
    const lang = (request.query as { lang?: unknown } | undefined)?.lang;
    return managePageLanguage({
      requested: typeof lang === 'string' ? lang : undefined,
      subscription: checked.ok
        ? await subscriptionLanguage(context.db, checked.value.organizationId, checked.value.subscriptionId)
        : null,
      acceptLanguage: request.headers['accept-language'],
    });
  };
  app.get(`${SUBSCRIBER_PAGE_PATH}*`, async (request, reply) =>
    reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(writePageLanguage(page, await languageOf(request))),
  );
}
