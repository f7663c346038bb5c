import {
  AuthorizeRequestSchema,
  AuthorizeResponseSchema,
  CSRF_DEFAULT_EXPIRY_SECONDS,
  CSRF_MAX_EXPIRY_SECONDS,
  CsrfRequestSchema,
  CsrfResponseSchema,
} from '../../../contract/handshake.js';
import { describeIssue, issuesToFields } from '../../../contract/errors.js';
import type { AppContext } from '../../platform/context.js';
import { AppError, refusal } from '../../platform/errors.js';
import { clientIpOf } from '../organizations/request-context.js';
import type { Router } from '../../platform/http/router.js';
import type { TokenService } from '../../platform/security/tokens.js';
import { createOrganizationDirectory } from '../organizations/organization-directory.js';

export function registerHandshakeRoutes(router: Router, context: AppContext, tokens: TokenService): void {
  const organizations = createOrganizationDirectory(context.db);
  router.add({
    method: 'POST',
    url: '/checkout/api/csrf',
    summary: 'Get a CSRF token',
    description: `csrfTokenExpiry in seconds: default ${CSRF_DEFAULT_EXPIRY_SECONDS}, at least 16, at most ${CSRF_MAX_EXPIRY_SECONDS}.`,
    tags: ['handshake'],
    guard: 'none',
    body: CsrfRequestSchema,
    // A bad expiry is a 400 with the rule in words (docs/checkout-rules.md#csrf-token-timing).
    invalidBody: (issues, input) => {
      const issue = issues.find((candidate) => candidate.path[0] === 'csrfTokenExpiry') ?? issues[0];
      const fields = issuesToFields(issues, input);
      const message = issue ? describeIssue(issue, input) : 'The request body is not valid.';
      return typeof message === 'string'
        ? new AppError(400, 'invalid_csrf_request', message, { fields })
        : refusal(400, 'invalid_csrf_request', message, { fields });
    },
    responses: {
      200: { description: 'A fresh CSRF token', schema: CsrfResponseSchema },
      400: { description: 'Bad expiry' },
    },
    async handler({ body }) {
      const expiry = Math.min(
        Math.floor(body.csrfTokenExpiry ?? CSRF_DEFAULT_EXPIRY_SECONDS),
        CSRF_MAX_EXPIRY_SECONDS,
      );
      return { csrfToken: await tokens.issueCsrfToken(expiry), csrfTokenExpiry: expiry };
    },
  });

  router.add({
    method: 'POST',
    url: '/checkout/api/authorize',
    summary: 'Get an access token for an organization',
    tags: ['handshake'],
    guard: 'csrf',
    body: AuthorizeRequestSchema,
    responses: {
      200: { description: 'An access token', schema: AuthorizeResponseSchema },
      403: { description: 'Missing, invalid or expired CSRF token' },
      404: { description: 'Unknown organization' },
      429: { description: 'Too many authorizations from this IP address (Retry-After says when to retry)' },
    },
    async handler({ body, request }) {
      const organization = await organizations.find(body.organization);
      // Counted whether or not the organization exists, so guessing organizations is limited too.
      await context.limits.authorize({
        ip: clientIpOf(request, context.config.trustedProxies),
        organizationId: organization?.id ?? null,
      });
      if (!organization) {
        throw refusal(404, 'organization_not_found', { key: 'errors.organization_not_found' });
      }
      const access = await tokens.issueAccessToken({
        organizationId: organization.id,
        organizationPublicId: organization.public_id,
      });
      return { access_token: access.token, token_type: 'Bearer' as const, expires_in: access.expiresIn };
    },
  });
}
