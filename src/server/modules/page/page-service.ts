import type { CardProcessorConfig, PageConfig, PageError } from '../../../contract/page-config.js';
import { parseCartToken } from '../../../domain/cart-token.js';
import { GIFT_ALREADY_CLAIMED_CODE, GIFT_ALREADY_CLAIMED_MESSAGE } from '../../../domain/link-errors.js';
import { describeMoneyFormat } from '../../../domain/money.js';
import type { Queryable } from '../../platform/db/database.js';
import { findOrganizationById } from '../organizations/organizations-repository.js';
import {
  findOrganizationIdForCart,
  findGiftClaimOrganization,
  findOrganizationIdForLink,
} from './page-repository.js';
import { settingsOf } from '../organizations/organization-service.js';
import { renderPageShell, SHELL_PLACEHOLDER } from './page-shell.js';

export const CONFIG_PLACEHOLDER = '<!--checkout-config-->';

export const LINK_NO_LONGER_VALID = 'This checkout link is no longer valid. Ask the store for a new one.';

/** The page's JSON config for a cart token, or the error the page shows (served with 404). */
export async function resolvePageBoot(
  db: Queryable,
  cartToken: string | undefined,
  options: {
    testMode: boolean;
    now: Date;
    errorReportingDsn: string | null;
    cardProcessor: CardProcessorConfig;
  },
): Promise<{ status: 200; boot: PageConfig } | { status: 404; boot: PageError }> {
  const parsed = parseCartToken(cartToken);
  let organizationId: number | null = null;
  if (parsed.kind === 'cart') organizationId = await findOrganizationIdForCart(db, parsed.token, options.now);
  if (parsed.kind === 'checkout_link')
    organizationId = await findOrganizationIdForLink(db, parsed.linkId, options.now);
  if (parsed.kind === 'gift_claim') {
    const gift = await findGiftClaimOrganization(db, parsed.claimCode);
    if (gift?.claimed) {
      return {
        status: 404,
        boot: { error: { code: GIFT_ALREADY_CLAIMED_CODE, message: GIFT_ALREADY_CLAIMED_MESSAGE } },
      };
    }
    organizationId = gift?.organization_id ?? null;
  }
  const organization = organizationId === null ? null : await findOrganizationById(db, organizationId);
  if (!organization) {
    return {
      status: 404,
      boot: {
        error: {
          code: cartToken ? 'cart_not_found' : 'cart_token_missing',
          message: cartToken ? LINK_NO_LONGER_VALID : 'This page needs a checkout link from a store.',
        },
      },
    };
  }
  const settings = settingsOf(organization);
  return {
    status: 200,
    boot: {
      organization: organization.public_id,
      organization_name: organization.name,
      logo_url: settings.logoUrl,
      currency: organization.currency,
      money_format: describeMoneyFormat(organization.currency),
      client_options: settings.clientOptions,
      sections: settings.sections,
      subscription_terms: settings.subscriptionTerms,
      legal: settings.legal,
      api_base: '/checkout/api',
      test_mode: options.testMode,
      error_reporting_dsn: options.errorReportingDsn,
      card_processor: options.cardProcessor,
      language: 'en',
      languages: ['en'],
    },
  };
}

/** JSON that is safe inside a <script type="application/json"> element: nothing can close the element early. */
export function jsonForHtml(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The template with the page's config block and, inside #root, its first view (a template without one gets none). */
export function renderPage(template: string, boot: PageConfig | PageError): string {
  const block = `<script type="application/json" id="checkout-config">${jsonForHtml(boot)}</script>`;
  return template
    .replace(CONFIG_PLACEHOLDER, () => block)
    .replace(SHELL_PLACEHOLDER, () => renderPageShell(boot));
}
