import type { PageConfig, PageError } from '../../../contract/page-config.js';
import { GIFT_ALREADY_CLAIMED_CODE } from '../../../domain/link-errors.js';
import type { Translate } from '../../i18n/translator.js';

export const SHELL_PLACEHOLDER = '<!--checkout-shell-->';

/** The page's first paint before its script runs: escaped for text and for double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#x27;');
}

const LOCK_ICON =
  '<svg class="header__lock" width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">' +
  '<path fill="currentColor" d="M8 1a3.5 3.5 0 0 0-3.5 3.5V6H4a1.5 1.5 0 0 0-1.5 1.5v6A1.5 1.5 0 0 0 4 15h8a1.5 1.5 0 0 ' +
  '0 1.5-1.5v-6A1.5 1.5 0 0 0 12 6h-.5V4.5A3.5 3.5 0 0 0 8 1Zm-2 3.5a2 2 0 1 1 4 0V6H6V4.5Z"></path></svg>';

type ShellConfig = Pick<PageConfig, 'organization_name' | 'logo_url' | 'legal' | 'test_mode'> | null;

/** The same markup as the page's PageShell (src/client/checkout/page-shell.tsx) around `body`. */
function shell(config: ShellConfig, body: string, t: Translate): string {
  const store = config?.logo_url
    ? `<img class="header__logo" src="${escapeHtml(config.logo_url)}" alt="${escapeHtml(config.organization_name)}" height="32"/>`
    : `<p class="header__store">${escapeHtml(config?.organization_name ?? '')}</p>`;
  const banner = config?.test_mode ? `<p class="test-banner">${escapeHtml(t('common.test_banner'))}</p>` : '';
  const links = [
    { href: config?.legal.refund_policy_url, label: t('common.refund_policy') },
    { href: config?.legal.terms_url, label: t('common.terms_of_service') },
    { href: config?.legal.privacy_url, label: t('common.privacy_policy') },
  ]
    .filter((link): link is { href: string; label: string } => Boolean(link.href))
    .map(
      (link) =>
        `<li><a href="${escapeHtml(link.href)}" target="_blank" rel="noreferrer">${escapeHtml(link.label)}</a></li>`,
    );
  const footer =
    links.length > 0
      ? `<footer class="footer"><ul class="footer__links">${links.join('')}</ul></footer>`
      : '';
  return (
    '<div class="shell"><header class="header"><div class="header__inner">' +
    `${store}<h1 class="header__title">${LOCK_ICON}${escapeHtml(t('common.secure_checkout'))}</h1></div>${banner}</header>` +
    `<main class="main" id="main">${body}</main>${footer}</div>`
  );
}

/**
 * What the page shows before its script has run, inside #root: the page's own first view (the store's header and
 * "Loading your order…", or the link's error), so the first paint is the HTML's and nothing moves when React
 * replaces it with the same markup.
 */
export function renderPageShell(boot: PageConfig | PageError, t: Translate): string {
  if ('error' in boot) {
    const title =
      boot.error.code === GIFT_ALREADY_CLAIMED_CODE ? 'common.gift_claimed_title' : 'common.link_error_title';
    return shell(
      null,
      `<div class="page-error" role="alert"><h2>${escapeHtml(t(title))}</h2>` +
        `<p>${escapeHtml(boot.error.message)}</p></div>`,
      t,
    );
  }
  return shell(
    boot,
    '<div class="checkout checkout--loading" aria-busy="true">' +
      `<p class="loading" role="status">${escapeHtml(t('common.loading_order'))}</p></div>`,
    t,
  );
}
