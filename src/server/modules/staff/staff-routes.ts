// The dashboard's sign-in, links and staff (docs/dashboard.md), and the audit trail of what staff change.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { IdParamsSchema } from '../../../contract/common.js';
import {
  AuditEventListSchema,
  AuditQuerySchema,
  CompleteLinkSchema,
  InviteStaffSchema,
  LinkInfoSchema,
  LinkTokenSchema,
  SignInSchema,
  StaffMemberListSchema,
  StaffMemberSchema,
  StaffSessionSchema,
} from '../../../contract/staff.js';
import type { AppContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import type { Router } from '../../platform/http/router.js';
import { findOrganizationById } from '../organizations/organizations-repository.js';
import { clientIpOf, merchantOf } from '../organizations/request-context.js';
import { clearSessionCookie, setSessionCookie } from './staff-cookie.js';
import { insertAuditEvent, listAuditEvents } from './staff-repository.js';
import { auditedObjectOf } from './staff-rules.js';
import {
  completeLink,
  inspectLink,
  inviteStaff,
  listStaff,
  presentMember,
  removeStaff,
  signIn,
  signOut,
  type LiveSession,
} from './staff-service.js';
import { findMember } from './staff-repository.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** the dashboard session this merchant request was made with (none for an API key) */
    staffSession?: LiveSession;
  }
}

const NOT_SIGNED_IN = 'Sign in to the dashboard first.';

function signedIn(request: FastifyRequest): LiveSession {
  if (!request.staffSession) throw new AppError(401, 'not_signed_in', NOT_SIGNED_IN);
  return request.staffSession;
}

export function registerStaffRoutes(app: FastifyInstance, router: Router, context: AppContext): void {
  const { db, clock, config } = context;
  const secure = new URL(config.publicUrl).protocol === 'https:';

  router.add({
    method: 'POST',
    url: '/admin/api/session',
    summary: 'Sign in to the dashboard',
    description:
      'Answers the session and sets its cookie (HttpOnly, SameSite=Strict, Secure behind TLS). Five failed sign-ins ' +
      'for one email, or twenty from one address, in 15 minutes stop further tries for a while (429).',
    tags: ['dashboard'],
    guard: 'none',
    body: SignInSchema,
    responses: {
      200: { description: 'Signed in', schema: StaffSessionSchema },
      401: { description: 'The email or password is not right' },
      429: { description: 'Too many failed sign-ins (Retry-After)' },
    },
    async handler({ body, request, reply }) {
      const issued = await signIn(
        db,
        { ...body, ip: clientIpOf(request, config.trustedProxies) },
        clock.now(),
      );
      setSessionCookie(reply, secure, issued.token);
      return issued.session;
    },
  });

  router.add({
    method: 'GET',
    url: '/admin/api/session',
    summary: 'The dashboard session of this cookie',
    tags: ['dashboard'],
    guard: 'merchant',
    responses: {
      200: { description: 'The session', schema: StaffSessionSchema },
      401: { description: 'Not signed in, or the session ended' },
    },
    async handler({ request }) {
      const session = signedIn(request);
      const member = await findMember(db, session.organizationId, session.member.id);
      const organization = await findOrganizationById(db, session.organizationId);
      if (!member || !organization) throw new AppError(401, 'not_signed_in', NOT_SIGNED_IN);
      return {
        member: presentMember(member),
        organization: { id: organization.public_id, name: organization.name },
        csrf_token: session.csrfToken,
        expires_at: session.expiresAt.toISOString(),
      };
    },
  });

  router.add({
    method: 'DELETE',
    url: '/admin/api/session',
    summary: 'Sign out',
    tags: ['dashboard'],
    guard: 'merchant',
    responses: { 204: { description: 'Signed out: the session ended and its cookie is cleared' } },
    async handler({ request, reply }) {
      await signOut(db, signedIn(request));
      clearSessionCookie(reply, secure);
      return reply.status(204).send();
    },
  });

  router.add({
    method: 'POST',
    url: '/admin/api/links/inspect',
    summary: 'What a one-time dashboard link is for',
    tags: ['dashboard'],
    guard: 'none',
    body: LinkTokenSchema,
    responses: {
      200: { description: 'The link', schema: LinkInfoSchema },
      410: { description: 'Used or expired' },
    },
    handler: async ({ body }) => inspectLink(db, body.token, clock.now()),
  });

  router.add({
    method: 'POST',
    url: '/admin/api/links/complete',
    summary: 'Set a password through a one-time link, and sign in',
    description: "The first owner's link also takes the owner's email and name.",
    tags: ['dashboard'],
    guard: 'none',
    body: CompleteLinkSchema,
    responses: {
      200: { description: 'Signed in', schema: StaffSessionSchema },
      410: { description: 'Used or expired' },
      422: { description: 'A password of fewer than 12 characters, a missing or taken email' },
    },
    async handler({ body, reply }) {
      const issued = await completeLink(db, body, clock.now());
      setSessionCookie(reply, secure, issued.token);
      return issued.session;
    },
  });

  router.add({
    method: 'GET',
    url: '/checkout/api/merchant/staff',
    summary: "List the store's staff (owner only)",
    tags: ['merchant: staff'],
    guard: 'merchant',
    responses: { 200: { description: 'The staff', schema: StaffMemberListSchema } },
    handler: async ({ request }) => ({ data: await listStaff(db, merchantOf(request).id) }),
  });

  router.add({
    method: 'POST',
    url: '/checkout/api/merchant/staff',
    summary: 'Invite a member of staff by email (owner only)',
    description:
      'The member is made now, without a password; an email with a one-time link (valid 7 days) lets them set one.',
    tags: ['merchant: staff'],
    guard: 'merchant',
    body: InviteStaffSchema,
    responses: {
      201: { description: 'The member, not active until they set a password', schema: StaffMemberSchema },
      409: { description: 'A member already has this email' },
    },
    async handler({ body, request, reply }) {
      const member = await inviteStaff(db, merchantOf(request).id, body, clock.now());
      return reply.status(201).send(member);
    },
  });

  router.add({
    method: 'DELETE',
    url: '/checkout/api/merchant/staff/:id',
    summary: 'Remove a member of staff (owner only)',
    tags: ['merchant: staff'],
    guard: 'merchant',
    params: IdParamsSchema,
    responses: {
      204: { description: 'Removed: their sessions and links ended' },
      404: { description: 'No such member' },
      409: { description: 'The only owner' },
    },
    async handler({ params, request, reply }) {
      await removeStaff(db, merchantOf(request).id, params.id, clock.now());
      return reply.status(204).send();
    },
  });

  router.add({
    method: 'GET',
    url: '/checkout/api/merchant/audit-events',
    summary: 'What staff changed in the dashboard, newest first',
    description: 'object_type and object_id keep one object’s: an order’s refunds, a subscription’s pause.',
    tags: ['merchant: staff'],
    guard: 'merchant',
    query: AuditQuerySchema,
    responses: { 200: { description: 'The changes', schema: AuditEventListSchema } },
    async handler({ query, request }) {
      const rows = await listAuditEvents(db, merchantOf(request).id, {
        objectType: query.object_type ?? null,
        objectId: query.object_id ?? null,
        limit: 200,
      });
      return {
        data: rows.map((row) => ({
          id: Number(row.id),
          action: row.action,
          status_code: row.status_code,
          object_type: row.object_type,
          object_id: row.object_id,
          staff: { id: Number(row.staff_member_id), email: row.staff_email, name: row.staff_name },
          created_at: row.created_at.toISOString(),
        })),
      };
    },
  });

  // Every change made in the dashboard, recorded with who made it before the answer goes out (docs/dashboard.md).
  app.addHook('onSend', async (request, reply, payload) => {
    const session = request.staffSession;
    const route = request.routeOptions.url;
    if (!session || !route || request.method === 'GET' || request.method === 'HEAD') return payload;
    if (reply.statusCode >= 400 || !route.startsWith('/checkout/api/merchant/')) return payload;
    const object = auditedObjectOf(route, (request.params ?? {}) as Record<string, unknown>);
    let objectId = object?.id ?? null;
    if (object && objectId === null && typeof payload === 'string') {
      const id = (JSON.parse(payload) as { id?: unknown }).id;
      if (typeof id === 'number' || typeof id === 'string') objectId = String(id);
    }
    try {
      await insertAuditEvent(db, {
        organization_id: session.organizationId,
        staff_member_id: session.member.id,
        action: `${request.method} ${route}`,
        status_code: reply.statusCode,
        object_type: object?.type ?? null,
        object_id: objectId,
        created_at: clock.now(),
      });
    } catch (error) {
      request.log.error({ err: error, route }, 'the audit trail did not record a change');
    }
    return payload;
  });
}
