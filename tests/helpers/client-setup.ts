import { cleanup } from '@testing-library/react';
import { setupPageI18n } from '../../src/i18n/page-i18n.js';
import english from 'virtual:catalogue/all/en';
import { afterEach, vi } from 'vitest';
import { setFallbackI18n } from '../../src/client/i18n/fallback-i18n.js';

// A component rendered without a page's I18nProvider speaks English from every catalogue.
setFallbackI18n(setupPageI18n({ locale: 'en', messages: { en: english } }));

// Component tests pass a fake card processor (src/client/testing/fake-card-processor.ts); the real adapters load
// processors' scripts and frames from other origins, which jsdom has no business fetching.
vi.mock('../../src/client/checkout/payment/processors/load-card-processor.js', () => ({
  loadCardProcessor: () => Promise.reject(new Error('Component tests pass a fake card processor.')),
}));

afterEach(() => {
  cleanup();
  // The page keeps its open section in the history entry's state: each test starts on an unmarked entry.
  // (jsdom's window; this file is type-checked without the DOM's types)
  const { history } = globalThis as unknown as {
    history: { replaceState(state: unknown, unused: string, url: string): void };
  };
  history.replaceState(null, '', '/');
});
