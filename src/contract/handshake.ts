import { unlessUnused, z } from './zod.js';

// The page imports this module for the answers' schemas: every schema the page does not use (requests', query
// strings') is built in unlessUnused, so the page's bundle leaves it out (tests/e2e/page-bundle.test.ts).

export const CSRF_DEFAULT_EXPIRY_SECONDS = 3600;
export const CSRF_MIN_EXPIRY_SECONDS = 16;
/** Longest CSRF token lifetime the server issues (a day); longer requests are capped, not refused. */
export const CSRF_MAX_EXPIRY_SECONDS = 86_400;

export const CsrfRequestSchema = unlessUnused(() =>
  z.strictObject({
    csrfTokenExpiry: z.optional(
      z.number({ error: 'csrfTokenExpiry must be a number of seconds.' }).check(
        z.refine((n) => Number.isFinite(n), 'csrfTokenExpiry must be a number of seconds.'),
        z.gte(
          CSRF_MIN_EXPIRY_SECONDS,
          `csrfTokenExpiry must be at least ${CSRF_MIN_EXPIRY_SECONDS} seconds.`,
        ),
      ),
    ),
    _is_vrio_checkout: z.optional(z.union([z.literal(1), z.literal('1'), z.literal(true)])),
    ip_address: z.optional(z.string().check(z.maxLength(64))),
  }),
);
export type CsrfRequest = z.infer<typeof CsrfRequestSchema>;

export const CsrfResponseSchema = z.object({ csrfToken: z.string(), csrfTokenExpiry: z.number() });
export type CsrfResponse = z.infer<typeof CsrfResponseSchema>;

export const AuthorizeRequestSchema = unlessUnused(() =>
  z.strictObject({
    organization: z.string().check(z.minLength(1, 'Name the organization.'), z.maxLength(64)),
    _is_vrio_checkout: z.optional(z.union([z.literal(1), z.literal('1'), z.literal(true)])),
    ip_address: z.optional(z.string().check(z.maxLength(64))),
  }),
);
export type AuthorizeRequest = z.infer<typeof AuthorizeRequestSchema>;

export const AuthorizeResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number(),
});
export type AuthorizeResponse = z.infer<typeof AuthorizeResponseSchema>;
