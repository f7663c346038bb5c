// A language the store has not enabled is refused with the ones it has, named and listed as the reader's language
// names and lists them (docs/languages.md, "Refusals and field errors").
import type { Language } from '../../../i18n/languages.js';
import type { Message } from '../../../i18n/message-keys.js';

/** The refusal's message for a reader of `reader`: "… Choose one of: English and Spanish." */
export function languageNotOfferedMessage(enabled: readonly Language[], reader: Language): Message {
  const names = new Intl.DisplayNames([reader], { type: 'language' });
  const languages = new Intl.ListFormat(reader, { type: 'conjunction' }).format(
    enabled.map((code) => names.of(code) ?? code),
  );
  return { key: 'language.not_offered', values: { languages } };
}
