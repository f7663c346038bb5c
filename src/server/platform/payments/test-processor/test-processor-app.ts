// The built-in test processor's own origin (docs/payments.md, "The built-in test processor"): the card frame the
// checkout embeds, its token endpoint, and the bank's 3-D Secure challenge. A Fastify app of its own, listened on a
// second port by server.ts, so the browser keeps the card fields out of reach of the checkout page's scripts.
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyRequest,
} from 'fastify';
import type { Logger } from 'pino';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/database.js';
import { AppError, validationError } from '../../errors.js';
import { createFrameworkErrorHandler, installErrorHandling } from '../../http/error-handler.js';
import { installJsonBodyParser } from '../../http/json-body-parser.js';
import { acceptedLanguage } from '../../http/answer-language.js';
import { checkTokenCard, parseTokenRequest, tokenCardOf } from './card-token-request.js';
import { createRequestWindows } from './request-window.js';
import { testProcessorHeaders } from './test-processor-headers.js';
import {
  loadProcessorTemplates,
  processorPageLanguage,
  renderProcessorPage,
} from './test-processor-pages.js';
import { decideChallenge, findChallenge, insertToken } from './test-processor-repository.js';

export interface TestProcessorAppOptions {
  db: Database;
  clock: Clock;
  logger: Logger;
  /** The checkout's origin: the only one that may frame the pages and hear their messages. */
  checkoutOrigin: string;
  /** The built client (dist/client): the frame's pages in card-frame/, the brand icons in images/cards/. */
  clientDir: string | null;
  /**
   * This app's own origin as browsers reach it (config.testProcessor.url); absent, the Host of each request stands
   * for it. Calls from the frame and the challenge page must come from it.
   */
  processorOrigin?: string;
  /** Token requests one IP may make per window (config.testProcessorTokensPerIp); TOKEN_REQUESTS_PER_IP's otherwise. */
  tokenRequestsPerIp?: number;
}

/** Tokenization is where card testing starts: a shopper makes a handful, a script thousands (docs/security.md). */
export const TOKEN_REQUESTS_PER_IP = { limit: 30, windowMs: 10 * 60_000 } as const;
export const CHALLENGE_REQUESTS_PER_IP = { limit: 30, windowMs: 10 * 60_000 } as const;

const BODY_LIMIT = 16 * 1024;

function requestOrigin(request: FastifyRequest): string | null {
  const origin = request.headers.origin;
  return typeof origin === 'string' && origin !== 'null' ? origin : null;
}

export async function buildTestProcessorApp(options: TestProcessorAppOptions): Promise<FastifyInstance> {
  const checkoutOrigin = new URL(options.checkoutOrigin).origin;
  const ownOrigin = options.processorOrigin ? new URL(options.processorOrigin).origin : null;
  const frameDir = options.clientDir ? path.join(options.clientDir, 'card-frame') : null;
  const templates = await loadProcessorTemplates(frameDir);

  const app = Fastify({
    loggerInstance: options.logger as FastifyBaseLogger,
    // No request lines: nothing here needs them, and no body (a card) can reach a log this way.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    requestTimeout: 30_000,
    return503OnClosing: true,
    routerOptions: { maxParamLength: 100 },
    // Refused before routing (a broken %-escape, an overlong id): the same headers, and the address not echoed.
    frameworkErrors: createFrameworkErrorHandler((_request, reply) => {
      reply.headers(testProcessorHeaders('resource', checkoutOrigin));
    }),
  });
  app.removeContentTypeParser('text/plain');
  installJsonBodyParser(app);
  // The frame sends its language as Accept-Language: a card's field messages come back in it (docs/languages.md).
  installErrorHandling(app, BODY_LIMIT, (request) => acceptedLanguage(request.headers['accept-language']));
  app.addHook('onSend', async (_request, reply, payload) => {
    const type = String(reply.getHeader('content-type') ?? '');
    reply.headers(
      testProcessorHeaders(
        type.startsWith('text/html') ? 'framed-page' : 'resource',
        checkoutOrigin,
        templates.styleHashes,
      ),
    );
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });

  /** The frame and the challenge page call from this origin only: a call from anywhere else is refused. */
  const refuseOtherOrigins = async (request: FastifyRequest) => {
    const origin = requestOrigin(request);
    const expected = ownOrigin ?? `${request.protocol}://${request.host}`;
    if (origin !== expected) {
      throw new AppError(403, 'origin_refused', 'Only the card fields of this processor may call it.');
    }
  };
  const limiter = (rule: { limit: number; windowMs: number }) => {
    const windows = createRequestWindows(rule);
    return async (request: FastifyRequest) => {
      const { allowed, retryAfterMs } = windows.take(request.ip, options.clock.now().getTime());
      if (!allowed) {
        throw new AppError(429, 'too_many_requests', 'Too many attempts. Wait a few minutes and try again.', {
          headers: { 'retry-after': String(Math.ceil(retryAfterMs / 1000)) },
        });
      }
    };
  };

  if (frameDir && existsSync(path.join(frameDir, 'assets'))) {
    // The frame's own build only (hashed names: cached for good), never the checkout page's assets.
    await app.register(fastifyStatic, {
      root: path.join(frameDir, 'assets'),
      prefix: '/assets/',
      preCompressed: true,
      immutable: true,
      maxAge: '365d',
      index: false,
    });
  }
  if (options.clientDir && existsSync(path.join(options.clientDir, 'images', 'cards'))) {
    await app.register(fastifyStatic, {
      root: path.join(options.clientDir, 'images', 'cards'),
      prefix: '/images/cards/',
      preCompressed: true,
      maxAge: '1d',
      index: false,
      decorateReply: false,
    });
  }

  app.get<{ Querystring: { lang?: unknown } }>('/frame', async (request, reply) =>
    reply
      .header('content-type', 'text/html; charset=utf-8')
      .send(
        renderProcessorPage(templates.frame, { checkoutOrigin }, processorPageLanguage(request.query.lang)),
      ),
  );

  const tokenLimit = limiter({
    ...TOKEN_REQUESTS_PER_IP,
    limit: options.tokenRequestsPerIp ?? TOKEN_REQUESTS_PER_IP.limit,
  });
  app.post('/v1/tokens', { preHandler: [refuseOtherOrigins, tokenLimit] }, async (request) => {
    const tokenRequest = parseTokenRequest(request.body);
    if (!tokenRequest) {
      throw new AppError(
        400,
        'invalid_request',
        'Send number, cvv, exp_month and exp_year as text, and test_cards as a list of numbers.',
      );
    }
    const now = options.clock.now();
    const errors = checkTokenCard(tokenRequest, now);
    if (Object.keys(errors).length > 0) throw validationError(errors);
    const token = await insertToken(options.db, tokenCardOf(tokenRequest), now);
    return {
      token: token.token,
      brand: token.brand,
      last4: token.last4,
      exp_month: token.exp_month,
      exp_year: token.exp_year,
    };
  });

  app.get<{ Params: { id: string }; Querystring: { lang?: unknown } }>(
    '/challenge/:id',
    async (request, reply) => {
      const challenge = await findChallenge(options.db, request.params.id);
      if (!challenge) throw new AppError(404, 'challenge_not_found', 'This authentication is not known.');
      return reply
        .header('content-type', 'text/html; charset=utf-8')
        .send(
          renderProcessorPage(
            templates.challenge,
            { checkoutOrigin, challenge: { id: challenge.id, status: challenge.status } },
            processorPageLanguage(request.query.lang),
          ),
        );
    },
  );

  const challengeLimit = limiter(CHALLENGE_REQUESTS_PER_IP);
  app.post<{ Params: { id: string } }>(
    '/challenge/:id',
    { preHandler: [refuseOtherOrigins, challengeLimit] },
    async (request) => {
      const result = (request.body as { result?: unknown } | null)?.result;
      if (result !== 'complete' && result !== 'fail') {
        throw new AppError(400, 'invalid_request', 'Send result: "complete" or "fail".');
      }
      const status = result === 'complete' ? 'succeeded' : 'failed';
      const challenge = await decideChallenge(options.db, request.params.id, status, options.clock.now());
      if (!challenge) throw new AppError(404, 'challenge_not_found', 'This authentication is not known.');
      // Decided once: a second answer gets the first decision back, as a bank's challenge would.
      return { status: challenge.status };
    },
  );

  return app;
}
