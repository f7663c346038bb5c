// The test processor's answers stand where a real processor's would: its card fields and its bank challenge may be
// framed by the checkout's origin only, everything else by nobody (docs/payments.md, docs/security.md "Card data").
import { PERMISSIONS_POLICY, RESOURCE_CONTENT_SECURITY_POLICY } from '../../http/security-headers.js';

/** What an answer is, for its headers: a page the checkout frames, or anything else. */
export type AnswerKind = 'framed-page' | 'resource';

/**
 * The card frame's and the challenge's policy: their own script, styles (their stylesheet is written into the page,
 * allowed by its hashes) and icons, calls to their own origin only, no inline script (the checkout's origin comes in
 * a JSON block), framed by the checkout's origin alone.
 */
export function framedPagePolicy(checkoutOrigin: string, styleHashes: readonly string[] = []): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    ["style-src 'self'", ...styleHashes].join(' '),
    "img-src 'self'",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${checkoutOrigin}`,
  ].join('; ');
}

/**
 * The headers of one answer. The framed pages carry no X-Frame-Options: DENY would forbid the checkout too, and
 * frame-ancestors already names who may frame them.
 */
export function testProcessorHeaders(
  kind: AnswerKind,
  checkoutOrigin: string,
  styleHashes: readonly string[] = [],
): Record<string, string> {
  const common = {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'permissions-policy': PERMISSIONS_POLICY,
  };
  if (kind === 'framed-page') {
    return { ...common, 'content-security-policy': framedPagePolicy(checkoutOrigin, styleHashes) };
  }
  return {
    ...common,
    'content-security-policy': RESOURCE_CONTENT_SECURITY_POLICY,
    'x-frame-options': 'DENY',
  };
}
