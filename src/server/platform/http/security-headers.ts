import type { TLSSocket } from 'node:tls';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isInRanges } from '../../../domain/client-ip.js';

/**
 * The page's policy: its own scripts, styles and fonts only (no inline script: the page's config is a JSON block),
 * images from itself or any https host (merchants' offer images and logos), API calls to itself and to the
 * error-reporting endpoint when one is configured; never framed, never posting forms elsewhere.
 */
export function pageContentSecurityPolicy(errorReportingDsn: string | null): string {
  const connect = ["'self'"];
  if (errorReportingDsn !== null) connect.push(new URL(errorReportingDsn).origin);
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: https:",
    `connect-src ${connect.join(' ')}`,
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Everything that is not the page (JSON, assets, images): it may load nothing and is never framed. */
export const RESOURCE_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

export const PERMISSIONS_POLICY =
  'accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(self), usb=()';

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

export type SecurityHeaders = (request: FastifyRequest, reply: FastifyReply) => void;

/**
 * Sets the security headers of an answer (page, API, assets, errors) from what it is about to send.
 * Referrer-Policy is no-referrer: checkout URLs carry the cart token, which must not travel to image hosts or the
 * merchant's links, and the checkout needs no referrer of its own.
 */
export function createSecurityHeaders(options: {
  errorReportingDsn: string | null;
  trustedProxies: readonly string[];
}): SecurityHeaders {
  const pagePolicy = pageContentSecurityPolicy(options.errorReportingDsn);
  return (request, reply) => {
    reply.header('content-security-policy', isHtml(reply) ? pagePolicy : RESOURCE_CONTENT_SECURITY_POLICY);
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
