import { randomUUID } from 'node:crypto';
import { maxHeaderSize, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { systemClock, type Clock } from './platform/clock.js';
import type { Config } from './platform/config.js';
import type { AppContext } from './platform/context.js';
import type { Database } from './platform/db/database.js';
import { createClientErrorHandler } from './platform/http/client-errors.js';
import { createFrameworkErrorHandler, installErrorHandling } from './platform/http/error-handler.js';
import { createGuards } from './modules/organizations/guards.js';
import { installJsonBodyParser } from './platform/http/json-body-parser.js';
import { createMetrics, type Metrics } from './platform/observability/metrics.js';
import { installBodyIdleDeadline, requestDeadlineOptions } from './platform/http/request-deadlines.js';
import { refuseUnstorableCharacters } from './platform/http/unstorable-characters.js';
import { buildOpenApi } from './platform/http/openapi.js';
import { createRouter } from './platform/http/router.js';
import {
  createSecurityHeaders,
  installSecurityHeaders,
  pageCardProcessorOf,
} from './platform/http/security-headers.js';
import { accessLogOf, createLogger, lazyChildLogger } from './platform/logging.js';
import { registerHandshakeRoutes } from './modules/handshake/handshake-routes.js';
import { registerHealthRoutes } from './platform/observability/health-routes.js';
import { registerMerchantRoutes } from './modules/merchant/merchant-routes.js';
import { registerEmailRoutes } from './modules/emails/email-routes.js';
import { registerWebhookRoutes } from './modules/webhooks/webhook-routes.js';
import { registerMetricsRoutes } from './platform/observability/metrics-routes.js';
import { registerPageRoutes } from './modules/page/page-routes.js';
import { registerCspReportRoutes } from './modules/page/csp-report-routes.js';
import { readPageManifest } from './modules/page/page-manifest.js';
import { registerCartRoutes } from './modules/carts/cart-routes.js';
import { registerOrderRoutes } from './modules/orders/order-routes.js';
import { registerUpsellRoutes } from './modules/upsells/upsell-routes.js';
import { registerRefundRoutes } from './modules/refunds/refund-routes.js';
import { registerStaffRoutes } from './modules/staff/staff-routes.js';
import { registerAdminPageRoutes } from './modules/staff/admin-page-routes.js';
import { registerDashboardRoutes } from './modules/dashboard/dashboard-routes.js';
import fastifyCookie from '@fastify/cookie';
import { registerTestGatewayRoutes } from './modules/express/test-gateway-routes.js';
import { registerPaymentWebhookRoutes } from './modules/payment-webhooks/stripe-webhook-routes.js';
import { createPaymentGateways, type PaymentGateways } from './platform/payments/select-gateway.js';
import { ABUSE_LIMITS_RETENTION_MS, createAbuseLimits } from './platform/security/abuse-limits.js';
import { createPostgresRateLimitStore } from './platform/security/postgres-rate-limit-store.js';
import type { RateLimitStore } from './platform/security/rate-limit-store.js';
import { createRedisRateLimitStore } from './platform/security/redis-rate-limit-store.js';
import { createTokenService } from './platform/security/tokens.js';
import { idempotencyKeySecret } from './modules/orders/idempotency.js';
import { createSubscriberLinks } from './modules/subscriber/subscriber-link.js';
import { registerSubscriberPageRoutes } from './modules/subscriber/subscriber-page-routes.js';
import { registerSubscriberRoutes } from './modules/subscriber/subscriber-routes.js';

export interface AppOptions {
  config: Config;
  db: Database;
  clock?: Clock;
  logger?: Logger;
  /** Signs CSRF and access tokens; previous still verifies during a rotation. */
  tokenSecrets: { current: string; previous: string | null };
  /** The built page (dist/client); null serves a placeholder page (API tests). */
  clientDir?: string | null;
  version?: string;
  /** Payment gateways; the configured ones (createPaymentGateways) when absent. */
  gateways?: PaymentGateways;
  /** What GET /metrics shows; server.ts shares it with the rebill runner. A new registry when absent. */
  metrics?: Metrics;
}

/** Builds the whole HTTP app from injected parts. It never listens: server.ts does, tests use inject(). */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const logger = options.logger ?? createLogger({ level: options.config.logLevel });
  const clock = options.clock ?? systemClock;
  // Rate-limit events are shared by every instance: in Redis when configured, else in the database.
  const rateLimitStore: RateLimitStore = options.config.redisUrl
    ? createRedisRateLimitStore({
        url: options.config.redisUrl,
        keyPrefix: options.config.redisKeyPrefix,
        logger,
      })
    : createPostgresRateLimitStore(options.db, { retentionMs: ABUSE_LIMITS_RETENTION_MS });
  const context: AppContext = {
    config: options.config,
    db: options.db,
    clock,
    logger,
    limits: createAbuseLimits({
      store: rateLimitStore,
      clock,
      logger,
      ipv6PrefixLength: options.config.rateLimitIpv6Prefix,
    }),
    gateways: options.gateways ?? createPaymentGateways(options.config, { db: options.db, clock, logger }),
  };

  // The built page's import map is its one inline script: the policy allows it by the hash the build wrote down.
  const pageManifest = await readPageManifest(options.clientDir ?? null);
  const securityHeaders = createSecurityHeaders({
    errorReportingDsn: options.config.errorReportingDsn,
    trustedProxies: options.config.trustedProxies,
    cardProcessor: pageCardProcessorOf(options.config),
    pageScriptHashes: pageManifest?.scriptHashes ?? [],
  });

  // The answer in progress on each connection, so a late parser error never writes into it.
  const responses = new WeakMap<Socket, ServerResponse>();
  const app: FastifyInstance = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    ...requestDeadlineOptions(options.config.requestTimeoutMs),
    clientErrorHandler: createClientErrorHandler({
      limits: { requestTimeoutMs: options.config.requestTimeoutMs, maxHeaderBytes: maxHeaderSize },
      logger,
      responses,
    }),
    bodyLimit: options.config.bodyLimit,
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => randomUUID(),
    childLoggerFactory: (parent, bindings, childOptions) =>
      lazyChildLogger(parent as Logger, bindings, childOptions) as FastifyBaseLogger,
    return503OnClosing: true,
    routerOptions: { maxParamLength: 200 },
    frameworkErrors: createFrameworkErrorHandler(securityHeaders),
  });
  // JSON only: a text/plain body is answered 415 rather than half-parsed.
  app.removeContentTypeParser('text/plain');
  installJsonBodyParser(app);
  app.addHook('onRequest', async (request, reply) => {
    responses.set(request.raw.socket, reply.raw);
  });
  installBodyIdleDeadline(app, options.config.bodyIdleTimeoutMs);
  refuseUnstorableCharacters(app);
  app.addHook('onClose', () => rateLimitStore.close());

  installErrorHandling(app, options.config.bodyLimit);
  installSecurityHeaders(app, securityHeaders);

  const metrics = options.metrics ?? createMetrics();
  // One line per request, route pattern only: paths carry cart tokens, query strings a shopper's address.
  const accessLog = accessLogOf(logger);
  app.addHook('onResponse', async (request, reply) => {
    metrics.observe(request, reply);
    accessLog({
      reqId: request.id,
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
    });
  });

  await app.register(fastifyCookie);
  const tokens = createTokenService(options.tokenSecrets, context.clock);
  const router = createRouter(app, createGuards(context, tokens));

  registerHealthRoutes(app, context);
  registerMetricsRoutes(app, context, metrics);
  registerHandshakeRoutes(router, context, tokens);
  registerMerchantRoutes(router, context);
  registerEmailRoutes(router, context);
  registerWebhookRoutes(router, context);
  registerStaffRoutes(app, router, context);
  registerDashboardRoutes(router, context);
  registerCartRoutes(router, context);
  registerOrderRoutes(router, context, {
    db: context.db,
    gateways: context.gateways,
    limits: context.limits,
    publicUrl: options.config.publicUrl,
    paymentLeaseMs: options.config.paymentLeaseSeconds * 1000,
    idempotencySecret: idempotencyKeySecret(options.tokenSecrets.current),
  });
  registerUpsellRoutes(router, context, {
    db: context.db,
    gateways: context.gateways,
    paymentLeaseMs: options.config.paymentLeaseSeconds * 1000,
    idempotencySecret: idempotencyKeySecret(options.tokenSecrets.current),
  });
  registerSubscriberRoutes(router, context, {
    tokens,
    links: createSubscriberLinks(tokens, options.config.publicUrl, () => clock.now()),
  });
  registerRefundRoutes(router, context, {
    idempotencySecret: idempotencyKeySecret(options.tokenSecrets.current),
    leaseMs: options.config.paymentLeaseSeconds * 1000,
  });
  await registerTestGatewayRoutes(app, context);
  await registerPaymentWebhookRoutes(app, context);
  await registerPageRoutes(app, context, options.clientDir ?? null);
  await registerSubscriberPageRoutes(app, context, tokens, options.clientDir ?? null);
  await registerAdminPageRoutes(app, options.clientDir ?? null);
  await registerCspReportRoutes(app, context, metrics);

  const openapi = buildOpenApi(router, {
    version: options.version ?? '0.1.0',
    serverUrl: options.config.publicUrl,
  });
  app.get('/checkout/api/docs', async () => openapi);

  return app;
}
