import type { TLSSocket } from 'node:tls';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isInRanges } from '../../../domain/client-ip.js';
import type { Config } from '../config.js';

/** Where browsers send the page's policy violations (report-uri, and report-to through Reporting-Endpoints). */
export const CSP_REPORT_PATH = '/checkout/api/csp-reports';
export const CSP_REPORT_GROUP = 'csp';
/** Reporting-Endpoints of the page: the report-to group named in its policy (docs/security.md, "Page scripts"). */
export const REPORTING_ENDPOINTS = `${CSP_REPORT_GROUP}="${CSP_REPORT_PATH}"`;

/** Stripe.js and its frames are served from these; its API is called from them (docs/payments.md, "Stripe"). */
export const STRIPE_JS_ORIGIN = 'https://js.stripe.com';
export const STRIPE_FRAME_ORIGINS = ['https://js.stripe.com', 'https://hooks.stripe.com'] as const;
export const STRIPE_API_ORIGIN = 'https://api.stripe.com';

/**
 * Whose card fields the page frames: the built-in test processor on its own origin, or Stripe. The test processor's
 * origin is known once its listener is bound (PORT=0), so createSecurityHeaders also takes a getter.
 */
export type PageCardProcessor = { name: 'test'; origin: string } | { name: 'stripe' };

/** The card processor the configuration names: Stripe when its keys are set, else the test processor at its URL. */
export function pageCardProcessorOf(
  config: Pick<Config, 'stripe' | 'testProcessor'>,
): PageCardProcessor | null {
  if (config.stripe !== null) return { name: 'stripe' };
  return config.testProcessor.url === null
    ? null
    : { name: 'test', origin: new URL(config.testProcessor.url).origin };
}

/**
 * The page's policy: its own scripts, styles and fonts only (no inline script but the import map the build names by
 * hash: the page's config is a JSON block),
 * images from itself or any https host (merchants' offer images and logos), API calls to itself and to the
 * error-reporting endpoint when one is configured; frames of the card processor only (none while it is unknown);
 * Stripe.js and its API only when Stripe takes the cards; never framed, never posting forms elsewhere. Violations
 * are reported to CSP_REPORT_PATH.
 */
export function pageContentSecurityPolicy(
  errorReportingDsn: string | null,
  cardProcessor: PageCardProcessor | null = null,
  /** The hash sources of the page's own inline scripts (its import map), from the build's page manifest. */
  scriptHashes: readonly string[] = [],
): string {
  const script = ["'self'", ...scriptHashes];
  const connect = ["'self'"];
  const frame: string[] = [];
  if (errorReportingDsn !== null) connect.push(new URL(errorReportingDsn).origin);
  if (cardProcessor?.name === 'test') frame.push(new URL(cardProcessor.origin).origin);
  if (cardProcessor?.name === 'stripe') {
    script.push(STRIPE_JS_ORIGIN);
    frame.push(...STRIPE_FRAME_ORIGINS);
    connect.push(STRIPE_API_ORIGIN);
  }
  return [
    "default-src 'self'",
    `script-src ${script.join(' ')}`,
    "style-src 'self'",
    "img-src 'self' data: https:",
    `connect-src ${connect.join(' ')}`,
    `frame-src ${frame.length > 0 ? frame.join(' ') : "'none'"}`,
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    `report-uri ${CSP_REPORT_PATH}`,
    `report-to ${CSP_REPORT_GROUP}`,
  ].join('; ');
}

/** Everything that is not the page (JSON, assets, images): it may load nothing and is never framed. */
export const RESOURCE_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * Payment Request (Apple Pay, Google Pay) only for the page and Stripe's frames, which the page frames only when Stripe
 * takes the cards (frame-src): its wallets run inside them.
 */
export const PERMISSIONS_POLICY =
  'accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(self "https://js.stripe.com"), usb=()';

/** The headers every answer carries as they are; the policy, Cache-Control and HSTS depend on the answer. */
export const FIXED_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'permissions-policy': PERMISSIONS_POLICY,
};

/** Two years, subdomains included: once a browser has seen the checkout over HTTPS it never falls back to HTTP. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=63072000; includeSubDomains';

/**
 * Whether the shopper's connection is encrypted: the socket is TLS, or a trusted proxy says it terminated TLS
 * (X-Forwarded-Proto: https, first value). Anyone else's X-Forwarded-Proto is ignored.
 */
export function isTlsRequest(input: {
  socketEncrypted: boolean;
  remoteAddress: string | undefined;
  forwardedProto: string | string[] | undefined;
  trustedProxies: readonly string[];
}): boolean {
  if (input.socketEncrypted) return true;
  if (input.forwardedProto === undefined || input.remoteAddress === undefined) return false;
  if (!isInRanges(input.remoteAddress, input.trustedProxies)) return false;
  const header = Array.isArray(input.forwardedProto) ? input.forwardedProto.join(',') : input.forwardedProto;
  return header.split(',')[0]?.trim().toLowerCase() === 'https';
}

function isHtml(reply: FastifyReply): boolean {
  const type = reply.getHeader('content-type');
  return typeof type === 'string' && type.toLowerCase().startsWith('text/html');
}

/** The page's policy, made again only when the card processor's answer changes (a getter is asked on each page). */
function pagePolicyOf(
  errorReportingDsn: string | null,
  cardProcessor: PageCardProcessor | null | (() => PageCardProcessor | null),
  scriptHashes: readonly string[],
): () => string {
  if (typeof cardProcessor !== 'function') {
    const policy = pageContentSecurityPolicy(errorReportingDsn, cardProcessor, scriptHashes);
    return () => policy;
  }
  let last: { key: string; policy: string } | null = null;
  return () => {
    const processor = cardProcessor();
    const key = JSON.stringify(processor);
    if (last?.key !== key)
      last = { key, policy: pageContentSecurityPolicy(errorReportingDsn, processor, scriptHashes) };
    return last.policy;
  };
}

export type SecurityHeaders = (request: FastifyRequest, reply: FastifyReply) => void;

/**
 * Sets the security headers of an answer (page, API, assets, errors) from what it is about to send.
 * Referrer-Policy is no-referrer: checkout URLs carry the cart token, which must not travel to image hosts or the
 * merchant's links, and the checkout needs no referrer of its own.
 */
export function createSecurityHeaders(options: {
  errorReportingDsn: string | null;
  trustedProxies: readonly string[];
  /** Whose frames the page may load; a getter when it is known only later (the test processor's port). */
  cardProcessor?: PageCardProcessor | null | (() => PageCardProcessor | null);
  /** The page's inline scripts the policy allows by hash (the build's page manifest, scriptHashes). */
  pageScriptHashes?: readonly string[];
}): SecurityHeaders {
  const pagePolicy = pagePolicyOf(
    options.errorReportingDsn,
    options.cardProcessor ?? null,
    options.pageScriptHashes ?? [],
  );
  return (request, reply) => {
    const html = isHtml(reply);
    reply.header('content-security-policy', html ? pagePolicy() : RESOURCE_CONTENT_SECURITY_POLICY);
    if (html) reply.header('reporting-endpoints', REPORTING_ENDPOINTS);
    reply.headers(FIXED_SECURITY_HEADERS);
    reply.removeHeader('x-powered-by');
    // Tokens and carts are answered here: no shared cache may keep them.
    if (request.url.startsWith('/checkout/api/') && !reply.hasHeader('cache-control')) {
      reply.header('cache-control', 'no-store');
    }
    const tls = isTlsRequest({
      socketEncrypted: (request.raw.socket as Partial<TLSSocket> | null)?.encrypted === true,
      remoteAddress: request.raw.socket?.remoteAddress,
      forwardedProto: request.headers['x-forwarded-proto'],
      trustedProxies: options.trustedProxies,
    });
    if (tls) reply.header('strict-transport-security', STRICT_TRANSPORT_SECURITY);
  };
}

/** Every answer gets the headers as it is sent, so none escapes them. */
export function installSecurityHeaders(app: FastifyInstance, apply: SecurityHeaders): void {
  app.addHook('onSend', async (request, reply, payload) => {
    apply(request, reply);
    return payload;
  });
}
