// The subscriber's self-service page at /checkout/manage/<token> (docs/subscriptions.md, "Self-service"): a build of
// its own (vite.manage.config.ts, dist/client/manage), so the checkout page loads none of it. Whatever the token, the
// page is served: it asks the API, which says whether the link is good, and the page tells the subscriber.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { SUBSCRIBER_PAGE_PATH } from './subscriber-link.js';

/** The folder of the page's build inside the client's (dist/client/manage). */
export const SUBSCRIBER_PAGE_DIR = 'manage';

/** Used when the page has not been built (API tests): a valid page that says so. */
const UNBUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Your subscription</title></head>
<body><main><h1>Your subscription</h1><p>The page has not been built. Run npm run build.</p></main></body></html>`;

export async function registerSubscriberPageRoutes(
  app: FastifyInstance,
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
  app.get(`${SUBSCRIBER_PAGE_PATH}*`, (_request, reply) =>
    reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(page),
  );
}
