import { scrubCardData } from '../../../domain/card.js';
import { parseCartToken } from '../../../domain/cart-token.js';

/** One violation as logged: URLs without query, fragment or cart token; the sample clipped and scrubbed. */
export interface CspViolation {
  directive: string;
  blocked: string | null;
  document: string | null;
  source: string | null;
  line: number | null;
  column: number | null;
  disposition: string | null;
  sample: string | null;
}

/** A body carries at most this many reports (browsers batch a few); the rest are dropped unread. */
export const MAX_REPORTS_PER_BODY = 20;

/** The label values of checkout_csp_violations_total: directive names, so a browser cannot invent new series. */
const KNOWN_DIRECTIVES = new Set([
  'default-src',
  'script-src',
  'script-src-elem',
  'script-src-attr',
  'style-src',
  'style-src-elem',
  'style-src-attr',
  'img-src',
  'connect-src',
  'frame-src',
  'child-src',
  'worker-src',
  'font-src',
  'media-src',
  'manifest-src',
  'object-src',
  'base-uri',
  'form-action',
  'frame-ancestors',
  'require-trusted-types-for',
  'trusted-types',
]);

/** The directive a report names, as a metric label: a known directive name, else "other". */
export function directiveLabel(value: unknown): string {
  const name = typeof value === 'string' ? (value.trim().split(/\s+/)[0]?.toLowerCase() ?? '') : '';
  return KNOWN_DIRECTIVES.has(name) ? name : 'other';
}

/** What browsers write instead of a URL for what they blocked. */
const BLOCKED_KEYWORDS = new Set([
  'inline',
  'eval',
  'wasm-eval',
  'self',
  'data',
  'blob',
  'trusted-types-policy',
  'trusted-types-sink',
]);

/**
 * A reported URL as it may be logged: scheme, host and path only (queries can carry a shopper's address or
 * cart_token), every path segment that is a cart, link or gift token written `[token]` (checkout URLs carry them,
 * docs/security.md "What is stored"), and card numbers masked as in every log line.
 */
export function scrubReportUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  const text = value.slice(0, 2000);
  if (BLOCKED_KEYWORDS.has(text)) return text;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return '[not a URL]';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return url.protocol;
  const path = url.pathname
    .split('/')
    .map((segment) => {
      let decoded = segment;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        // a broken escape is kept as it is
      }
      return parseCartToken(decoded).kind === 'invalid' ? segment : '[token]';
    })
    .join('/');
  return scrubCardData(`${url.origin}${path}`);
}

const text = (value: unknown, max: number): string | null =>
  typeof value === 'string' && value !== '' ? scrubCardData(value.slice(0, max)) : null;

const whole = (value: unknown): number | null =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** report-uri's body (application/csp-report): {"csp-report": {...}} with dashed names. */
function fromReportUri(report: Record<string, unknown>): CspViolation {
  return {
    directive: directiveLabel(report['effective-directive'] ?? report['violated-directive']),
    blocked: scrubReportUrl(report['blocked-uri']),
    document: scrubReportUrl(report['document-uri']),
    source: scrubReportUrl(report['source-file']),
    line: whole(report['line-number']),
    column: whole(report['column-number']),
    disposition: text(report.disposition, 16),
    sample: text(report['script-sample'], 40),
  };
}

/** The Reporting API's body (application/reports+json): [{type: "csp-violation", body: {...}}] in camelCase. */
function fromReportTo(body: Record<string, unknown>): CspViolation {
  return {
    directive: directiveLabel(body.effectiveDirective),
    blocked: scrubReportUrl(body.blockedURL),
    document: scrubReportUrl(body.documentURL),
    source: scrubReportUrl(body.sourceFile),
    line: whole(body.lineNumber),
    column: whole(body.columnNumber),
    disposition: text(body.disposition, 16),
    sample: text(body.sample, 40),
  };
}

/**
 * The violations in a report body of either kind; other report types (deprecations, interventions) are ignored.
 * Null when the body is neither shape.
 */
export function cspViolationsOf(payload: unknown): CspViolation[] | null {
  if (isObject(payload) && isObject(payload['csp-report'])) return [fromReportUri(payload['csp-report'])];
  if (!Array.isArray(payload)) return null;
  return payload
    .slice(0, MAX_REPORTS_PER_BODY)
    .filter((report) => isObject(report) && report.type === 'csp-violation' && isObject(report.body))
    .map((report) => fromReportTo((report as { body: Record<string, unknown> }).body));
}
