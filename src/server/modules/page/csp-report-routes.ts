import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { installJsonBodyParser } from '../../platform/http/json-body-parser.js';
import { CSP_REPORT_PATH } from '../../platform/http/security-headers.js';
import type { Metrics } from '../../platform/observability/metrics.js';
import { clientIpOf } from '../organizations/request-context.js';
import { cspViolationsOf } from './csp-reports.js';

/** report-uri's type and the Reporting API's (report-to); both are JSON. */
export const CSP_REPORT_TYPES = ['application/csp-report', 'application/reports+json'] as const;

/** A report is a few hundred bytes; a batch of the Reporting API a few KB. */
export const CSP_REPORT_BODY_LIMIT = 16 * 1024;

/**
 * POST /checkout/api/csp-reports: what browsers report when the page's policy blocks something (docs/security.md,
 * "Page scripts"). No token, as browsers send it on their own: limited per client IP, logged at warn with its URLs
 * scrubbed, counted by directive in /metrics, answered 204.
 */
export async function registerCspReportRoutes(
  app: FastifyInstance,
  context: AppContext,
  metrics: Pick<Metrics, 'recordCspViolation'>,
): Promise<void> {
  // A scope of its own: the report types are parsed here only; every other route stays application/json.
  await app.register(async (scope) => {
    installJsonBodyParser(scope, CSP_REPORT_TYPES);
    scope.post(CSP_REPORT_PATH, { bodyLimit: CSP_REPORT_BODY_LIMIT }, async (request, reply) => {
      await context.limits.cspReport({ ip: clientIpOf(request, context.config.trustedProxies) });
      const violations = cspViolationsOf(request.body);
      if (violations === null) {
        throw new AppError(
          400,
          'invalid_report',
          'Send a CSP violation report as application/csp-report or application/reports+json.',
        );
      }
      for (const violation of violations) metrics.recordCspViolation(violation.directive);
      if (violations.length > 0)
        request.log.warn({ cspViolations: violations }, 'content security policy violated');
      return reply.code(204).send();
    });
  });
}
