import {
  ClientOptionsSchema,
  LegalLinksSchema,
  SectionsSchema,
  SubscriptionTermsSchema,
} from './organization.js';
import { z } from './zod.js';

/**
 * The JSON block the server puts in the page (<script type="application/json" id="checkout-config">), resolved from
 * the cart token: which organization to authorize as, its client options and sections. No inline script runs.
 */
export const PageConfigSchema = z.object({
  /** the organization's public id, for POST /checkout/api/authorize */
  organization: z.string(),
  organization_name: z.string(),
  logo_url: z.nullable(z.string()),
  currency: z.string(),
  client_options: ClientOptionsSchema,
  sections: SectionsSchema,
  subscription_terms: SubscriptionTermsSchema,
  legal: LegalLinksSchema,
  /** the API base, "/checkout/api" */
  api_base: z.string(),
  /** test mode (cypress=1 on the page's URL, or a test cart) */
  test_mode: z.boolean(),
  /** a Sentry-compatible DSN; errors are reported to the server when null */
  error_reporting_dsn: z.nullable(z.string()),
});
export type PageConfig = z.infer<typeof PageConfigSchema>;

/** What the page shows when the token names no cart (the page is then served with status 404). */
export const PageErrorSchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
export type PageError = z.infer<typeof PageErrorSchema>;

export const PageBootSchema = z.union([PageConfigSchema, PageErrorSchema]);
