import {
  ClientOptionsSchema,
  LegalLinksSchema,
  SectionsSchema,
  SubscriptionTermsSchema,
} from './organization.js';
import type { AddressFormat, FormField } from '../domain/address/address-format.js';
import { ADDRESS_FIELDS } from './address-fields.js';
import type { MoneyFormat } from '../domain/money.js';
import type { MessageKey } from '../i18n/message-keys.js';
import { z } from './zod.js';
import { LANGUAGES } from '../i18n/languages.js';

/** How the page writes amounts of the organization's currency (src/domain/money.ts MoneyFormat). */
export const MoneyFormatSchema: z.ZodMiniType<MoneyFormat> = z.object({
  locale: z.string(),
  currency: z.string(),
  digits: z.number(),
  prefix: z.string(),
  suffix: z.string(),
  negative_prefix: z.string(),
  negative_suffix: z.string(),
  group: z.string(),
  decimal: z.string(),
});

const FORM_FIELDS = ADDRESS_FIELDS.filter((field): field is FormField => field !== 'country');
const FormFieldSchema = z.enum(FORM_FIELDS);
// A catalogue key the server took from the same catalogues the page has.
const MessageKeySchema = z.custom<MessageKey>((value) => typeof value === 'string');

/** A country's address format (src/domain/address/address-format.ts AddressFormat). */
export const AddressFormatSchema: z.ZodMiniType<AddressFormat> = z.object({
  country: z.string(),
  layout: z.string(),
  rows: z.array(z.array(FormFieldSchema)),
  required: z.array(FormFieldSchema),
  stateLabel: MessageKeySchema,
  postalLabel: MessageKeySchema,
  cityLabel: MessageKeySchema,
  stateType: z.string(),
  postalType: z.string(),
  cityType: z.string(),
  postalPattern: z.nullable(z.string()),
  postalExample: z.nullable(z.string()),
  language: z.nullable(z.string()),
  subdivisions: z.array(
    z.object({ code: z.string(), name: z.string(), key: z.string(), latinName: z.optional(z.string()) }),
  ),
});

/**
 * Which processor's card fields the page mounts, in a frame of that processor's origin (docs/payments.md): the
 * built-in test processor's, served from its own origin, or Stripe's Payment Element with the publishable key.
 */
export const CardProcessorSchema = z.union([
  z.object({ name: z.literal('test'), origin: z.string() }),
  z.object({ name: z.literal('stripe'), publishable_key: z.string() }),
]);
export type CardProcessorConfig = z.infer<typeof CardProcessorSchema>;

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
  /**
   * how en-US writes that currency, read off the server's Intl, so the page formats amounts without starting its
   * own (the first Intl formatter of a page loads ICU's data: 20 to 60 ms of main thread on the first render); null
   * when the currency cannot be described that way, and the page asks Intl
   */
  money_format: z.nullable(MoneyFormatSchema),
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
  card_processor: CardProcessorSchema,
  /** the language the page opens in (docs/languages.md, "Which language") */
  language: z.enum(LANGUAGES),
  /** the store's languages, for the page's switcher; the page's language is among them */
  languages: z.array(z.enum(LANGUAGES)),
  /** the language the cart already keeps (null: none yet, or a link's cart still to be made) */
  kept_language: z.optional(z.nullable(z.enum(LANGUAGES))),
  /**
   * the formats of the countries the cart's addresses are in, by country code, so the finished steps and the
   * confirmation write them at the first paint without loading every country's data (docs/languages.md, "Addresses")
   */
  address_formats: z.optional(z.record(z.string(), AddressFormatSchema)),
});
export type PageConfig = z.infer<typeof PageConfigSchema>;

/** What the page shows when the token names no cart (the page is then served with status 404). */
export const PageErrorSchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
export type PageError = z.infer<typeof PageErrorSchema>;

export const PageBootSchema = z.union([PageConfigSchema, PageErrorSchema]);
