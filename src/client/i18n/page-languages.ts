// A page's languages (docs/languages.md): English is in the page's first load; every other language's messages are a
// chunk of their own, loaded when the page turns to it.
import { type I18n, type Messages } from '@lingui/core';
import { setupPageI18n } from '../../i18n/page-i18n.js';
import { DEFAULT_LANGUAGE, directionOf, type Language } from '../../i18n/languages.js';

export type CatalogueLoaders = Record<Exclude<Language, 'en'>, () => Promise<{ default: Messages }>>;

export interface PageLanguages {
  i18n: I18n;
  /** Loads the language's messages if they are not here yet, then turns the page (and <html lang dir>) to it. */
  activate: (language: Language) => Promise<void>;
}

export function pageLanguages(
  english: Messages,
  loaders: CatalogueLoaders,
  root?: HTMLElement,
): PageLanguages {
  const i18n = setupPageI18n({ locale: DEFAULT_LANGUAGE, messages: { [DEFAULT_LANGUAGE]: english } });
  const loaded = new Set<Language>([DEFAULT_LANGUAGE]);
  return {
    i18n,
    async activate(language) {
      if (language !== 'en' && !loaded.has(language)) {
        i18n.load(language, (await loaders[language]()).default);
        loaded.add(language);
      }
      i18n.activate(language);
      const html = root ?? (typeof document === 'undefined' ? null : document.documentElement);
      if (html) {
        html.lang = language;
        html.dir = directionOf(language);
      }
    },
  };
}
