// The processor's pages speak the checkout page's language, which the page passes as `lang` on their URL, and the card
// frame again whenever the page's switcher turns it (docs/languages.md): <html lang dir>, and every element marked
// data-t gets its message (data-t-placeholder: its placeholder).
import type { Messages } from '@lingui/core';
import { setupPageI18n } from '../i18n/page-i18n.js';
import { DEFAULT_LANGUAGE, directionOf, languageOf, type Language } from '../i18n/languages.js';
import type { MessageKey, MessageValues } from '../i18n/message-keys.js';
import english from 'virtual:catalogue/card-frame/en';

export type FrameTranslate = (key: MessageKey, values?: MessageValues) => string;

const LOADERS: Record<Exclude<Language, 'en'>, () => Promise<{ default: Messages }>> = {
  es: () => import('virtual:catalogue/card-frame/es'),
  fr: () => import('virtual:catalogue/card-frame/fr'),
  de: () => import('virtual:catalogue/card-frame/de'),
  it: () => import('virtual:catalogue/card-frame/it'),
  'pt-BR': () => import('virtual:catalogue/card-frame/pt-BR'),
  nl: () => import('virtual:catalogue/card-frame/nl'),
  ja: () => import('virtual:catalogue/card-frame/ja'),
  ar: () => import('virtual:catalogue/card-frame/ar'),
};

/** `?lang=ja` → ja; a missing or unknown one → English. */
export function frameLanguage(search: string): Language {
  return languageOf(new URLSearchParams(search).get('lang')) ?? DEFAULT_LANGUAGE;
}

/** The messages of a language (English is in the frame's first load, each other one a chunk of its own). */
export async function frameTranslator(language: Language): Promise<FrameTranslate> {
  const messages = language === 'en' ? english : (await LOADERS[language]()).default;
  const i18n = setupPageI18n({ locale: language, messages: { [language]: messages } });
  return (key, values) => i18n._(key, values);
}

/** Writes a language's words on the page: <html lang dir>, the title, each data-t element; nothing typed changes. */
export function writeFrameLanguage(document: Document, language: Language, t: FrameTranslate): void {
  document.documentElement.lang = language;
  document.documentElement.dir = directionOf(language);
  for (const element of document.querySelectorAll<HTMLElement>('[data-t]')) {
    element.textContent = t(element.dataset.t as MessageKey);
  }
  for (const element of document.querySelectorAll<HTMLElement>('[data-t-placeholder]')) {
    element.setAttribute('placeholder', t(element.dataset.tPlaceholder as MessageKey));
  }
}

/** Turns the page to the language of its `lang` parameter. */
export async function speakFrameLanguage(document: Document, search: string): Promise<FrameTranslate> {
  const language = frameLanguage(search);
  const t = await frameTranslator(language);
  writeFrameLanguage(document, language, t);
  return t;
}
