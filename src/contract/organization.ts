import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../i18n/languages.js';
import { translationsOf } from './translations.js';
import { unlessUnused, z } from './zod.js';

/** The section component types a checkout is built from, in the organization's chosen order. */
export const SECTION_TYPES = [
  'ContactInformation',
  'ShippingAddress',
  'BillingAddress',
  'GiftInformation',
  'PaymentInformation',
] as const;
export type SectionType = (typeof SECTION_TYPES)[number];

export const SectionSchema = z.object({
  id: z.string().check(z.regex(/^[a-z][a-z0-9-]{0,39}$/, 'Use lower-case letters, digits and dashes.')),
  component: z.enum(SECTION_TYPES),
});
export type Section = z.infer<typeof SectionSchema>;

export const SectionsSchema = z.array(SectionSchema).check(
  z.minLength(1, 'List at least one section.'),
  z.maxLength(SECTION_TYPES.length),
  z.refine((sections) => new Set(sections.map((s) => s.component)).size === sections.length, {
    message: 'Each section type may appear once.',
  }),
  z.refine((sections) => new Set(sections.map((s) => s.id)).size === sections.length, {
    message: 'Section ids must be unique.',
  }),
  z.refine((sections) => sections.some((s) => s.component === 'PaymentInformation'), {
    message: 'The PaymentInformation section is required: it holds the order button.',
  }),
);

export const DEFAULT_SECTIONS: Section[] = [
  { id: 'contact', component: 'ContactInformation' },
  { id: 'shipping', component: 'ShippingAddress' },
  { id: 'billing', component: 'BillingAddress' },
  { id: 'gifts', component: 'GiftInformation' },
  { id: 'payment', component: 'PaymentInformation' },
];

const CheckboxOptionSchema = z.object({ display: z.boolean(), autoChecked: z.boolean() });

const TestCardSchema = z
  .string()
  .check(z.regex(/^\d{12,19}$/, 'A test card is 12 to 19 digits without spaces.'));

/** The page's client options, with their own names (docs/checkout-rules.md#client-options). */
export const ClientOptionsSchema = z.object({
  cart: z.object({
    editable: z.object({
      value: z.boolean(),
      /** When set (not null), wins over value. */
      override: z.nullable(z.boolean()),
    }),
  }),
  testCards: z.array(TestCardSchema).check(z.maxLength(20)),
  subscriptionTermsCheckbox: CheckboxOptionSchema,
  emailOptInCheckbox: CheckboxOptionSchema,
});
export type ClientOptions = z.infer<typeof ClientOptionsSchema>;

export const DEFAULT_CLIENT_OPTIONS: ClientOptions = {
  cart: { editable: { value: false, override: null } },
  testCards: [],
  subscriptionTermsCheckbox: { display: true, autoChecked: false },
  emailOptInCheckbox: { display: true, autoChecked: false },
};

const HttpsUrlSchema = z.url({ protocol: /^https?$/, error: 'Enter a full http(s) URL.' });

export const LegalLinksSchema = z.object({
  refund_policy_url: z.optional(z.nullable(HttpsUrlSchema)),
  terms_url: z.optional(z.nullable(HttpsUrlSchema)),
  privacy_url: z.optional(z.nullable(HttpsUrlSchema)),
});
export type LegalLinks = z.infer<typeof LegalLinksSchema>;

/** The wording a shopper agrees to for subscriptions; the version is recorded with each consent. */
export const SubscriptionTermsSchema = z.object({
  text: z.string().check(z.minLength(1), z.maxLength(2000)),
  version: z.string().check(z.minLength(1), z.maxLength(40)),
});
export type SubscriptionTerms = z.infer<typeof SubscriptionTermsSchema>;

/**
 * What the merchant gives and the settings keep (docs/api.md, "Translations"): the terms and legal links with their
 * text per language; the page gets them resolved to its language (SubscriptionTermsSchema, LegalLinksSchema).
 */
export const TranslatedSubscriptionTermsSchema = unlessUnused(() =>
  z.extend(SubscriptionTermsSchema, {
    translations: z.optional(translationsOf({ text: SubscriptionTermsSchema.shape.text })),
  }),
);
export type TranslatedSubscriptionTerms = z.infer<typeof TranslatedSubscriptionTermsSchema>;

export const TranslatedLegalLinksSchema = unlessUnused(() =>
  z.extend(LegalLinksSchema, {
    translations: z.optional(
      translationsOf({
        refund_policy_url: HttpsUrlSchema,
        terms_url: HttpsUrlSchema,
        privacy_url: HttpsUrlSchema,
      }),
    ),
  }),
);
export type TranslatedLegalLinks = z.infer<typeof TranslatedLegalLinksSchema>;

export const DEFAULT_SUBSCRIPTION_TERMS: SubscriptionTerms = {
  text:
    'I agree that my payment method will be charged automatically at the price and interval shown until I cancel. ' +
    'I can cancel at any time before the next charge.',
  version: '2026-11-01',
};

/**
 * How a declined renewal is retried (docs/operations.md, "Dunning"): after each decline the next retry waits the
 * next number of days; after the last one, or at once on a hard decline, the subscription ends up as `after_last_retry`.
 */
export const DunningSchema = z.strictObject({
  retry_days: z
    .array(
      z
        .int({ error: 'Each retry is a whole number of days.' })
        .check(z.gte(1, 'Each retry waits 1 to 60 days.'), z.lte(60, 'Each retry waits 1 to 60 days.')),
    )
    .check(z.maxLength(8, 'Retry at most 8 times.')),
  after_last_retry: z.enum(['past_due', 'cancel', 'pause'], {
    error: 'Use past_due, cancel or pause.',
  }),
});
export type Dunning = z.infer<typeof DunningSchema>;

/** Today's behaviour for an organization that never set it: 1, 3 and 7 days, then past due. */
export const DEFAULT_DUNNING: Dunning = { retry_days: [1, 3, 7], after_last_retry: 'past_due' };

/** The dunning an organization's stored settings hold (their `dunning`), or the default. */
export function parseDunning(stored: unknown): Dunning {
  const parsed = DunningSchema.safeParse(stored);
  return parsed.success ? parsed.data : DEFAULT_DUNNING;
}

/**
 * The emails a subscriber gets (docs/emails.md, "Subscription emails"): `reminder_days_before` is how many days before
 * each renewal charge the upcoming-charge reminder goes out; null sends none.
 */
export const SubscriptionEmailsSchema = z.strictObject({
  reminder_days_before: z.nullable(
    z
      .int({ error: 'Send the reminder a whole number of days before the charge, or null for none.' })
      .check(
        z.gte(1, 'Send the reminder 1 to 30 days before the charge, or null for none.'),
        z.lte(30, 'Send the reminder 1 to 30 days before the charge, or null for none.'),
      ),
  ),
});
export type SubscriptionEmails = z.infer<typeof SubscriptionEmailsSchema>;

/** An organization that never set it reminds its subscribers 3 days before each renewal charge. */
export const DEFAULT_SUBSCRIPTION_EMAILS: SubscriptionEmails = { reminder_days_before: 3 };
/**
 * The abandoned-checkout reminder (docs/emails.md, "Abandoned checkout"): off by default; when on, a shopper who gave
 * an email and agreed to emails but did not place the order gets one reminder after_minutes later.
 */
const AfterMinutesSchema = z
  .int({ error: 'after_minutes is a whole number of minutes.' })
  .check(
    z.gte(5, 'Wait 5 to 10080 minutes (a week) before the reminder.'),
    z.lte(10_080, 'Wait 5 to 10080 minutes (a week) before the reminder.'),
  );
export const AbandonedCheckoutSchema = z.strictObject({
  enabled: z.boolean({ error: 'enabled is true or false.' }),
  after_minutes: AfterMinutesSchema,
});
export type AbandonedCheckout = z.infer<typeof AbandonedCheckoutSchema>;

/** A change of it: either part, the other kept. */
export const AbandonedCheckoutPatchSchema = z.strictObject({
  enabled: z.optional(z.boolean({ error: 'enabled is true or false.' })),
  after_minutes: z.optional(AfterMinutesSchema),
});

export const DEFAULT_ABANDONED_CHECKOUT: AbandonedCheckout = { enabled: false, after_minutes: 60 };
/**
 * What a subscriber may do on their self-service page (docs/subscriptions.md, "Self-service"): whether their cancel
 * takes effect at once or at the end of the period already paid for.
 */
// Built in unlessUnused: the checkout page bundles this module and never uses it (tests/e2e/page-bundle.test.ts).
export const SelfServiceSchema = unlessUnused(() =>
  z.strictObject({
    cancel: z.enum(['immediately', 'end_of_period'], { error: 'Use immediately or end_of_period.' }),
  }),
);
export type SelfService = z.infer<typeof SelfServiceSchema>;

/** A subscriber who cancels keeps what they paid for until its end. */
export const DEFAULT_SELF_SERVICE: SelfService = { cancel: 'end_of_period' };

/**
 * The languages the store's pages and emails speak (docs/languages.md): `default` when nothing else decides, and
 * those a shopper may get from their browser, `?lang=` or the page's switcher. Every language by default.
 */
export const StoreLanguagesSchema = unlessUnused(() =>
  z.object({
    default: z.enum(LANGUAGES),
    enabled: z.array(z.enum(LANGUAGES)).check(z.minLength(1)),
  }),
);
export interface StoreLanguages {
  default: Language;
  enabled: Language[];
}
export const DEFAULT_STORE_LANGUAGES: StoreLanguages = { default: DEFAULT_LANGUAGE, enabled: [...LANGUAGES] };

/** What organizations.settings holds. Parsed with defaults so older rows keep working as settings grow. */
export interface OrganizationSettings {
  clientOptions: ClientOptions;
  sections: Section[];
  subscriptionTerms: TranslatedSubscriptionTerms;
  legal: TranslatedLegalLinks;
  logoUrl: string | null;
  dunning: Dunning;
  subscriptionEmails: SubscriptionEmails;
  abandonedCheckout: AbandonedCheckout;
  selfService: SelfService;
  /** the order bumps of carts whose checkout link names none */
  bumpOfferIds: number[];
  languages: StoreLanguages;
}

const StoredSettingsSchema = unlessUnused(() =>
  z.object({
    clientOptions: z.optional(ClientOptionsSchema),
    sections: z.optional(SectionsSchema),
    subscriptionTerms: z.optional(TranslatedSubscriptionTermsSchema),
    legal: z.optional(TranslatedLegalLinksSchema),
    logoUrl: z.optional(z.nullable(z.string())),
    dunning: z.optional(DunningSchema),
    subscriptionEmails: z.optional(SubscriptionEmailsSchema),
    abandonedCheckout: z.optional(AbandonedCheckoutSchema),
    selfService: z.optional(SelfServiceSchema),
    bumpOfferIds: z.optional(z.array(z.int())),
    languages: z.optional(StoreLanguagesSchema),
  }),
);

export function parseOrganizationSettings(stored: unknown): OrganizationSettings {
  const parsed = StoredSettingsSchema.safeParse(stored ?? {});
  const value = parsed.success ? parsed.data : {};
  return {
    clientOptions: value.clientOptions ?? DEFAULT_CLIENT_OPTIONS,
    sections: value.sections ?? DEFAULT_SECTIONS,
    subscriptionTerms: value.subscriptionTerms ?? DEFAULT_SUBSCRIPTION_TERMS,
    legal: value.legal ?? {},
    logoUrl: value.logoUrl ?? null,
    dunning: value.dunning ?? DEFAULT_DUNNING,
    subscriptionEmails: value.subscriptionEmails ?? DEFAULT_SUBSCRIPTION_EMAILS,
    abandonedCheckout: value.abandonedCheckout ?? DEFAULT_ABANDONED_CHECKOUT,
    selfService: value.selfService ?? DEFAULT_SELF_SERVICE,
    bumpOfferIds: value.bumpOfferIds ?? [],
    languages: value.languages ?? DEFAULT_STORE_LANGUAGES,
  };
}
