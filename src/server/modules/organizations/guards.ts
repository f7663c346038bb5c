import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import type { MessageKey } from '../../../i18n/message-keys.js';
import { AppError, refusal } from '../../platform/errors.js';
import { acceptedLanguage } from '../../platform/http/answer-language.js';
import { findActiveKey } from './api-keys-repository.js';
import { findOrganizationById } from './organizations-repository.js';
import { hashApiKey } from '../../platform/security/secrets.js';
import type { TokenService } from '../../platform/security/tokens.js';
import { clientIpOf, isTestModeRequest } from './request-context.js';
import { sessionCookieOf } from '../staff/staff-cookie.js';
import { staffMayUse } from '../staff/staff-rules.js';
import { csrfMatches, sessionOf } from '../staff/staff-service.js';

type Credential = { kind: 'missing' } | { kind: 'malformed' } | { kind: 'token'; value: string };

/** The credential of "Authorization: Bearer <credential>"; a header in any other form is malformed, not missing. */
function bearer(request: FastifyRequest): Credential {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || /^\s*(Bearer\s*)?$/i.test(header)) return { kind: 'missing' };
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ? { kind: 'token', value: match[1] } : { kind: 'malformed' };
}

function csrfHeader(request: FastifyRequest): string | undefined {
  const header = request.headers['csrf-token'];
  return typeof header === 'string' ? header : undefined;
}

const CSRF_MESSAGES = {
  missing: 'errors.csrf_token_missing',
  invalid: 'errors.csrf_token_invalid',
  expired: 'errors.csrf_token_expired',
} as const satisfies Record<string, MessageKey>;

const ACCESS_MESSAGES = {
  missing: 'errors.access_token_missing',
  invalid: 'errors.access_token_invalid',
  expired: 'errors.access_token_expired',
} as const satisfies Record<string, MessageKey>;

export function createGuards(context: AppContext, tokens: TokenService) {
  async function checkCsrf(request: FastifyRequest): Promise<void> {
    const result = await tokens.verifyCsrfToken(csrfHeader(request));
    if (!result.ok) throw refusal(403, `csrf_token_${result.reason}`, { key: CSRF_MESSAGES[result.reason] });
  }

  const secureCookies = new URL(context.config.publicUrl).protocol === 'https:';

  /**
   * A dashboard session instead of a key (docs/dashboard.md): its changes must send the session's CSRF token, and
   * staff reach only what their role allows.
   */
  async function staffSession(request: FastifyRequest, token: string): Promise<void> {
    const session = await sessionOf(context.db, token, context.clock.now());
    const organization = session ? await findOrganizationById(context.db, session.organizationId) : null;
    if (!session || !organization) {
      throw new AppError(401, 'not_signed_in', 'Your session has ended. Sign in again.');
    }
    if (
      request.method !== 'GET' &&
      request.method !== 'HEAD' &&
      !csrfMatches(session, request.headers['x-csrf-token'])
    ) {
      throw new AppError(
        403,
        'csrf_token_invalid',
        'This change needs the session’s CSRF token. Reload the page.',
      );
    }
    const route = request.routeOptions.url ?? '';
    if (!staffMayUse(session.member.role, request.method, route)) {
      throw new AppError(403, 'owner_only', 'Only the store’s owner can do this.');
    }
    request.merchantOrganization = organization;
    request.staffSession = session;
  }

  const merchant: preHandlerAsyncHookHandler = async (request, reply) => {
    const key = bearer(request);
    const cookie = key.kind === 'missing' ? sessionCookieOf(request, secureCookies) : undefined;
    if (cookie !== undefined) return staffSession(request, cookie);
    const active = key.kind === 'token' ? await findActiveKey(context.db, hashApiKey(key.value)) : null;
    const organization =
      active === null ? null : await findOrganizationById(context.db, active.organization_id);
    if (!organization) {
      reply.header('www-authenticate', 'Bearer realm="merchant"');
      throw new AppError(
        401,
        key.kind === 'missing' ? 'api_key_missing' : 'api_key_invalid',
        key.kind === 'missing'
          ? 'Send your merchant API key as "Authorization: Bearer <key>".'
          : 'This merchant API key is not valid or was revoked.',
      );
    }
    request.merchantOrganization = organization;
    request.merchantKeyId = active?.id;
  };

  const csrf: preHandlerAsyncHookHandler = async (request) => {
    await checkCsrf(request);
  };

  const shopper: preHandlerAsyncHookHandler = async (request, reply) => {
    const credential = bearer(request);
    const access =
      credential.kind === 'malformed'
        ? ({ ok: false, reason: 'invalid' } as const)
        : await tokens.verifyAccessToken(credential.kind === 'token' ? credential.value : undefined);
    if (!access.ok) {
      reply.header('www-authenticate', 'Bearer realm="checkout"');
      throw refusal(401, `access_token_${access.reason}`, { key: ACCESS_MESSAGES[access.reason] });
    }
    await checkCsrf(request);
    // The visitor's address is worked out when a route asks for it (orders do; a cart read does not).
    let clientIp: string | null | undefined;
    request.shopper = {
      organizationId: access.value.organizationId,
      organizationPublicId: access.value.organizationPublicId,
      testMode: isTestModeRequest(request),
      language: acceptedLanguage(request.headers['accept-language']),
      get clientIp() {
        if (clientIp === undefined) clientIp = clientIpOf(request, context.config.trustedProxies);
        return clientIp;
      },
    };
  };

  return { merchant, csrf, shopper };
}
