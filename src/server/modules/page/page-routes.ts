import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { readCartTokenCookie } from '../../../domain/router-status.js';
import type { AppContext } from '../../platform/context.js';
import { isTestModeRequest } from '../organizations/request-context.js';
import { cardProcessorForPage } from '../../platform/payments/select-gateway.js';
import { CONFIG_PLACEHOLDER, renderPage, resolvePageBoot } from './page-service.js';

/** Used when the page has not been built (API tests): a valid page that says so, with the same config block. */
const UNBUILT_TEMPLATE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Secure Checkout</title>${CONFIG_PLACEHOLDER}</head>
<body><main><h1>Secure Checkout</h1><p>The page has not been built. Run npm run build.</p></main></body></html>`;

export async function registerPageRoutes(
  app: FastifyInstance,
  context: AppContext,
  clientDir: string | null,
): Promise<void> {
  const indexFile = clientDir ? path.join(clientDir, 'index.html') : null;
  const template = indexFile && existsSync(indexFile) ? await readFile(indexFile, 'utf8') : UNBUILT_TEMPLATE;
  if (!template.includes(CONFIG_PLACEHOLDER)) {
    throw new Error(`The page template ${indexFile ?? ''} lacks the ${CONFIG_PLACEHOLDER} placeholder.`);
  }

  if (clientDir && existsSync(path.join(clientDir, 'assets'))) {
    // Hashed file names: cache forever; .br/.gz siblings are served to clients that accept them.
    await app.register(fastifyStatic, {
      root: path.join(clientDir, 'assets'),
      prefix: '/checkout/assets/',
      preCompressed: true,
      immutable: true,
      maxAge: '365d',
      index: false,
    });
  }
  if (clientDir && existsSync(path.join(clientDir, 'images'))) {
    // Unhashed names (merchants link to them): cache for a day.
    await app.register(fastifyStatic, {
      root: path.join(clientDir, 'images'),
      prefix: '/checkout/images/',
      preCompressed: true,
      maxAge: '1d',
      index: false,
      decorateReply: false,
    });
  }

  const servePage = async (request: FastifyRequest, reply: FastifyReply, token: string | undefined) => {
    const lang = (request.query as { lang?: unknown }).lang;
    const { status, boot, language } = await resolvePageBoot(context.db, token, {
      testMode: isTestModeRequest(request),
      now: context.clock.now(),
      errorReportingDsn: context.config.errorReportingDsn,
      cardProcessor: cardProcessorForPage(context.config),
      requestedLanguage: typeof lang === 'string' ? lang : undefined,
      acceptLanguage: request.headers['accept-language'],
    });
    // Each page carries its cart's config: never cache it.
    return reply
      .code(status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(renderPage(template, boot, language));
  };

  app.get<{ Params: { token: string }; Querystring: { lang?: string } }>(
    '/checkout/:token',
    (request, reply) => servePage(request, reply, request.params.token),
  );

  // /checkout?cart_token=…, or /checkout alone: the cart this browser remembers (the page's checkout_cart cookie).
  app.get<{ Querystring: { cart_token?: string; lang?: string } }>('/checkout', (request, reply) =>
    servePage(
      request,
      reply,
      typeof request.query.cart_token === 'string'
        ? request.query.cart_token
        : (readCartTokenCookie(request.headers.cookie) ?? undefined),
    ),
  );
}
