// The server's words in a shopper's language: emails, the page's first view, refusals (docs/languages.md).
import { setupI18n, type I18n } from '@lingui/core';
import { LANGUAGES, type Language } from '../../i18n/languages.js';
import type { MessageKey, MessageValues } from '../../i18n/message-keys.js';
import { catalogueNamespaces, compileCatalogues } from './catalogue-files.js';

export type Translate = (key: MessageKey, values?: MessageValues) => string;

let loaded: Map<Language, I18n> | null = null;

/** Every language's catalogues, compiled once: about a millisecond a language, at the first message asked. */
function instances(): Map<Language, I18n> {
  if (loaded) return loaded;
  const namespaces = catalogueNamespaces();
  loaded = new Map(
    LANGUAGES.map((language) => [
      language,
      setupI18n({ locale: language, messages: { [language]: compileCatalogues(namespaces, language) } }),
    ]),
  );
  return loaded;
}

export function translatorFor(language: Language): Translate {
  const i18n = instances().get(language);
  if (!i18n) throw new Error(`No catalogue for ${language}.`);
  return (key, values) => i18n._(key, values);
}

/** A language's translator with the language: what shared rules that write amounts or join phrases take (src/domain). */
export function wordsFor(language: Language): { t: Translate; language: Language } {
  return { t: translatorFor(language), language };
}
