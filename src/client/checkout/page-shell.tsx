import type { ReactNode } from 'react';
import type { PageConfig } from '../../contract/page-config.js';
import { useT } from '../i18n/use-t.js';
import './checkout.css';

export interface PageShellProps {
  config: Pick<PageConfig, 'organization_name' | 'logo_url' | 'legal' | 'test_mode'> | null;
  children: ReactNode;
  /** while an order is processed the page behind the overlay is inert */
  inert?: boolean;
  /** the language switcher, first in the footer (below the fold: nothing visible moves when it appears) */
  languages?: ReactNode;
}

function LockIcon() {
  return (
    <svg
      className="header__lock"
      width="16"
      height="16"
      viewBox="0 0 16 16"
      aria-hidden="true"
      focusable="false"
    >
      <path
        fill="currentColor"
        d="M8 1a3.5 3.5 0 0 0-3.5 3.5V6H4a1.5 1.5 0 0 0-1.5 1.5v6A1.5 1.5 0 0 0 4 15h8a1.5 1.5 0 0 0 1.5-1.5v-6A1.5 1.5 0 0 0 12 6h-.5V4.5A3.5 3.5 0 0 0 8 1Zm-2 3.5a2 2 0 1 1 4 0V6H6V4.5Z"
      />
    </svg>
  );
}

/** Header (the store, a lock and "Secure Checkout"), the page, and the store's legal links. No way out but back. */
export function PageShell({ config, children, inert = false, languages = null }: PageShellProps) {
  const { t } = useT();
  const legal = config?.legal;
  const links = [
    { href: legal?.refund_policy_url, label: t('common.refund_policy') },
    { href: legal?.terms_url, label: t('common.terms_of_service') },
    { href: legal?.privacy_url, label: t('common.privacy_policy') },
  ].filter((link): link is { href: string; label: string } => Boolean(link.href));
  return (
    <div className="shell" inert={inert}>
      <header className="header">
        <div className="header__inner">
          {config?.logo_url ? (
            <img className="header__logo" src={config.logo_url} alt={config.organization_name} height={32} />
          ) : (
            <p className="header__store">{config?.organization_name ?? ''}</p>
          )}
          <h1 className="header__title">
            <LockIcon />
            {t('common.secure_checkout')}
          </h1>
        </div>
        {config?.test_mode ? <p className="test-banner">{t('common.test_banner')}</p> : null}
      </header>
      <main className="main" id="main">
        {children}
      </main>
      {links.length > 0 || languages ? (
        <footer className="footer">
          {languages}
          <ul className="footer__links">
            {links.map((link) => (
              <li key={link.label}>
                <a href={link.href} target="_blank" rel="noreferrer">
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </footer>
      ) : null}
    </div>
  );
}
