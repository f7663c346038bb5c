import type { FastifyRequest } from 'fastify';
import { chooseClientIp } from '../../../domain/client-ip.js';
import type { Language } from '../../../i18n/languages.js';
import type { OrganizationRow } from './organizations-repository.js';

export interface ShopperContext {
  organizationId: number;
  organizationPublicId: string;
  /** cypress=1 on the query: orders made now are flagged is_test */
  testMode: boolean;
  /** the visitor's public IP as this server sees it, or null */
  clientIp: string | null;
  /** the page's language, sent as Accept-Language on every call: what the cart's notices are said in */
  language: Language;
}

declare module 'fastify' {
  interface FastifyRequest {
    merchantOrganization?: OrganizationRow;
    /** the merchant key this request was made with */
    merchantKeyId?: number;
    shopper?: ShopperContext;
  }
}

export function merchantOf(request: FastifyRequest): OrganizationRow {
  if (!request.merchantOrganization) throw new Error('merchant guard did not run for this route');
  return request.merchantOrganization;
}

export function shopperOf(request: FastifyRequest): ShopperContext {
  if (!request.shopper) throw new Error('shopper guard did not run for this route');
  return request.shopper;
}

export function clientIpOf(request: FastifyRequest, trustedProxies: readonly string[]): string | null {
  return chooseClientIp({
    remoteAddress: request.socket.remoteAddress,
    forwardedFor: request.headers['x-forwarded-for'],
    trustedProxies,
  });
}

export function isTestModeRequest(request: FastifyRequest): boolean {
  const query = request.query as Record<string, unknown> | undefined;
  return query?.cypress === '1';
}
