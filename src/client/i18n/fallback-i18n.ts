import type { I18n } from '@lingui/core';

let fallback: I18n | null = null;

/** Component tests render without a page's provider; they read this one (tests/helpers/client-setup.ts). */
export function setFallbackI18n(i18n: I18n | null): void {
  fallback = i18n;
}

export function fallbackI18n(): I18n | null {
  return fallback;
}
