// A page the server serves as HTML, in its reader's language before any script runs (docs/languages.md): its
// <html lang dir>, and the words of each element marked data-t="<message key>" (a title, a loading line).
import { directionOf, type Language } from '../../i18n/languages.js';
import type { MessageKey } from '../../i18n/message-keys.js';
import { translatorFor } from './translator.js';

/** An element with only text inside, marked with the message it says. */
const MARKED_ELEMENT = /(<([a-z][a-z0-9]*)\b[^>]*\sdata-t="([^"]+)"[^>]*>)[^<]*(<\/\2>)/gi;

function escapeText(value: string): string {
  return value.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c] ?? c);
}

/** The page with <html lang dir> of the language and each data-t element's text in its words. */
export function writePageLanguage(html: string, language: Language): string {
  const t = translatorFor(language);
  return html
    .replace(/<html\b[^>]*>/, () => `<html lang="${language}" dir="${directionOf(language)}">`)
    .replace(
      MARKED_ELEMENT,
      (_match, open: string, _tag: string, key: string, close: string) =>
        `${open}${escapeText(t(key as MessageKey))}${close}`,
    );
}
