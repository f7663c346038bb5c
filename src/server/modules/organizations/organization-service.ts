import { storeLanguagesProblem } from '../../../i18n/languages.js';
import type { Organization, UpdateOrganization } from '../../../contract/merchant.js';
import { parseOrganizationSettings, type OrganizationSettings } from '../../../contract/organization.js';
import { isKnownCurrency } from '../../../domain/money.js';
import type { Queryable } from '../../platform/db/database.js';
import { AppError, validationError } from '../../platform/errors.js';
import { insertApiKey } from './api-keys-repository.js';
import { checkBumpOffers } from '../catalog/bump-offers.js';
import {
  findOrganizationById,
  insertOrganization,
  organizationHasCarts,
  updateOrganization,
  type OrganizationRow,
} from './organizations-repository.js';
import { apiKeyPrefix, hashApiKey, newMerchantApiKey } from '../../platform/security/secrets.js';

// A request reads its organization's row afresh and asks for its settings several times (validation, pricing, the
// answer). Parsing them (URLs and all) was about 5% of the server's CPU per shopper flow, so each organization's last
// parse is kept, and reused while the stored settings are the same JSON. Parsed settings are shared and never changed
// (their defaults already are shared objects). One entry per organization, and organizations are never deleted.
const lastParsed = new Map<number, { stored: unknown; settings: OrganizationSettings }>();

export function settingsOf(row: OrganizationRow): OrganizationSettings {
  const known = lastParsed.get(row.id);
  if (known && (known.stored === row.settings || sameJson(known.stored, row.settings))) {
    // The same row asked again (a request asks several times) then answers at the identity check.
    known.stored = row.settings;
    return known.settings;
  }
  const settings = parseOrganizationSettings(row.settings);
  lastParsed.set(row.id, { stored: row.settings, settings });
  return settings;
}

/**
 * Whether two values parsed from JSON are the same JSON (key order aside). node:util's isDeepStrictEqual answers the
 * same for such values, but took 23 µs a comparison of a store's settings in the server against 10 µs for this (a run
 * of 1,000 flows, about 3,200 comparisons each), and a parse 66 µs.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, index) => sameJson(item, b[index]));
  }
  if (Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) => Object.hasOwn(right, key) && sameJson(left[key], right[key]));
}

function toStoredSettings(settings: OrganizationSettings): Record<string, unknown> {
  return {
    clientOptions: settings.clientOptions,
    sections: settings.sections,
    subscriptionTerms: settings.subscriptionTerms,
    legal: settings.legal,
    logoUrl: settings.logoUrl,
    dunning: settings.dunning,
    subscriptionEmails: settings.subscriptionEmails,
    abandonedCheckout: settings.abandonedCheckout,
    selfService: settings.selfService,
    bumpOfferIds: settings.bumpOfferIds,
    languages: settings.languages,
  };
}

/** The organization as the merchant API answers it; `currencyLocked` is whether carts exist (organizationHasCarts). */
export function presentOrganization(row: OrganizationRow, currencyLocked: boolean): Organization {
  const settings = settingsOf(row);
  return {
    id: row.public_id,
    name: row.name,
    currency: row.currency,
    currency_locked: currencyLocked,
    client_options: settings.clientOptions,
    sections: settings.sections,
    subscription_terms: settings.subscriptionTerms,
    legal: settings.legal,
    logo_url: settings.logoUrl,
    dunning: settings.dunning,
    subscription_emails: settings.subscriptionEmails,
    abandoned_checkout: settings.abandonedCheckout,
    self_service: settings.selfService,
    bump_offer_ids: settings.bumpOfferIds,
    languages: settings.languages,
  };
}

export interface NewOrganization {
  publicId: string;
  name: string;
  currency?: string;
  settings?: Partial<OrganizationSettings>;
  /** Use this key instead of generating one (the demo organization's MERCHANT_API_KEY). */
  apiKey?: string;
}

/** Creates an organization and its first merchant key; the key is returned once and stored only as a hash. */
export async function createOrganization(
  db: Queryable,
  input: NewOrganization,
): Promise<{ organization: OrganizationRow; apiKey: string }> {
  const settings = { ...parseOrganizationSettings({}), ...input.settings };
  const organization = await insertOrganization(db, {
    publicId: input.publicId,
    name: input.name,
    currency: input.currency ?? 'USD',
    settings: toStoredSettings(settings),
  });
  const apiKey = input.apiKey ?? newMerchantApiKey();
  await addApiKey(db, organization.id, apiKey, 'default');
  return { organization, apiKey };
}

export async function addApiKey(
  db: Queryable,
  organizationId: number,
  apiKey: string,
  label: string,
): Promise<void> {
  await insertApiKey(db, {
    organizationId,
    keyHash: hashApiKey(apiKey),
    keyPrefix: apiKeyPrefix(apiKey),
    label,
  });
}

export async function changeOrganization(
  db: Queryable,
  organization: OrganizationRow,
  patch: UpdateOrganization,
  now: Date,
): Promise<Organization> {
  const currencyLocked = await organizationHasCarts(db, organization.id);
  if (patch.currency !== undefined && patch.currency !== organization.currency) {
    if (!isKnownCurrency(patch.currency)) {
      throw validationError({ currency: 'Use an ISO 4217 currency code such as USD.' });
    }
    if (currencyLocked) {
      throw new AppError(
        409,
        'currency_locked',
        'The currency cannot change once carts exist: their amounts were computed in the current currency.',
      );
    }
  }
  if (patch.bump_offer_ids !== undefined) {
    // The store's default bumps go on carts whose link names none: no link lines to compare with.
    const fields: Record<string, string> = {};
    await checkBumpOffers(db, organization.id, patch.bump_offer_ids, [], fields);
    if (Object.keys(fields).length > 0) throw validationError(fields);
  }
  if (patch.languages) {
    const problem = storeLanguagesProblem(patch.languages);
    if (problem) throw validationError({ languages: problem });
  }
  const current = settingsOf(organization);
  const next: OrganizationSettings = {
    clientOptions: { ...current.clientOptions, ...patch.client_options },
    sections: patch.sections ?? current.sections,
    subscriptionTerms: patch.subscription_terms ?? current.subscriptionTerms,
    legal: patch.legal === undefined ? current.legal : { ...current.legal, ...patch.legal },
    logoUrl: patch.logo_url === undefined ? current.logoUrl : patch.logo_url,
    dunning: patch.dunning ?? current.dunning,
    subscriptionEmails: patch.subscription_emails ?? current.subscriptionEmails,
    abandonedCheckout: { ...current.abandonedCheckout, ...patch.abandoned_checkout },
    selfService: patch.self_service ?? current.selfService,
    bumpOfferIds: patch.bump_offer_ids ?? current.bumpOfferIds,
    languages: patch.languages
      ? { default: patch.languages.default, enabled: [...new Set(patch.languages.enabled)] }
      : current.languages,
  };
  const updated = await updateOrganization(
    db,
    organization.id,
    {
      ...(patch.name === undefined ? {} : { name: patch.name }),
      ...(patch.currency === undefined ? {} : { currency: patch.currency }),
      settings: toStoredSettings(next),
    },
    now,
  );
  return presentOrganization(updated ?? organization, currencyLocked);
}

/** GET /organization: the organization, and whether its currency can still change. */
export async function readOrganization(db: Queryable, row: OrganizationRow): Promise<Organization> {
  return presentOrganization(row, await organizationHasCarts(db, row.id));
}

export async function requireOrganization(db: Queryable, id: number): Promise<OrganizationRow> {
  const row = await findOrganizationById(db, id);
  if (!row) throw new AppError(404, 'organization_not_found', 'This organization does not exist.');
  return row;
}
