// The dashboard's session cookie (docs/dashboard.md, "Sessions").
import type {} from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_MAX_MS } from './staff-rules.js';

/** Behind TLS the cookie takes the __Host- prefix: Secure, for this host only, on every path. */
export function sessionCookieName(secure: boolean): string {
  return secure ? '__Host-sc_staff' : 'sc_staff';
}

export function setSessionCookie(reply: FastifyReply, secure: boolean, token: string): void {
  reply.setCookie(sessionCookieName(secure), token, {
    path: '/',
    httpOnly: true,
    secure,
    sameSite: 'strict',
    maxAge: SESSION_MAX_MS / 1000,
  });
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(sessionCookieName(secure), { path: '/', httpOnly: true, secure, sameSite: 'strict' });
}

export function sessionCookieOf(request: FastifyRequest, secure: boolean): string | undefined {
  const value = request.cookies[sessionCookieName(secure)];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
