// The languages the checkout, its emails and its pages speak (docs/languages.md). A store enables some of them and
// names its default; the shopper's choice, then their browser's, then the store's default decide which one a page uses.

export const LANGUAGES = ['en', 'es', 'fr', 'de', 'it', 'pt-BR', 'nl', 'ja', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];

export const DEFAULT_LANGUAGE: Language = 'en';

/** Each language's name in itself, as a switcher lists them (a shopper looks for their own language's name). */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = {
  en: 'English',
  es: 'Español',
  fr: 'Français',
  de: 'Deutsch',
  it: 'Italiano',
  'pt-BR': 'Português (Brasil)',
  nl: 'Nederlands',
  ja: '日本語',
  ar: 'العربية',
};

export function isLanguage(value: string): value is Language {
  return (LANGUAGES as readonly string[]).includes(value);
}

/**
 * The locale amounts, dates and numbers are written in for a language: English as in the United States (the page's
 * first language, and how it wrote amounts before it had others), every other language as Intl writes it.
 */
export function formattingLocaleOf(language: Language): string {
  return language === 'en' ? 'en-US' : language;
}

const RIGHT_TO_LEFT: ReadonlySet<Language> = new Set(['ar']);

export function directionOf(language: Language): 'ltr' | 'rtl' {
  return RIGHT_TO_LEFT.has(language) ? 'rtl' : 'ltr';
}

/** A tag as written by a browser or a URL ("pt-br", "es-MX", "ja") → the language we speak for it, or null. */
export function languageOf(tag: string | null | undefined): Language | null {
  if (!tag) return null;
  const lower = tag.trim().toLowerCase();
  if (!lower) return null;
  const exact = LANGUAGES.find((language) => language.toLowerCase() === lower);
  if (exact) return exact;
  // A region we have no catalogue of takes its language's: es-MX → es, pt-PT → pt-BR (the one Portuguese we have).
  const base = lower.split(/[-_]/)[0];
  return LANGUAGES.find((language) => language.toLowerCase().split('-')[0] === base) ?? null;
}

/** An Accept-Language header's tags, most preferred first ("es-MX,es;q=0.9,en;q=0.8" → es-MX, es, en). */
export function acceptedTags(header: string | null | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((param) => /^\s*q=([0-9.]+)\s*$/.exec(param)?.[1]).find(Boolean);
      return { tag: tag.trim(), weight: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.tag && entry.tag !== '*' && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((entry) => entry.tag);
}

export interface LanguageChoice {
  /** `?lang=` on the page's URL: the shopper (or the link they followed) asked for it */
  requested?: string | null | undefined;
  /** what this cart's shopper chose before (the switcher, or an earlier `?lang=`) */
  remembered?: string | null | undefined;
  /** the browser's languages, most preferred first */
  accepted?: readonly string[];
  /** the store's languages; its default is among them */
  enabled: readonly Language[];
  storeDefault: Language;
}

/** Which language a page speaks: asked for, then remembered, then the browser's first the store speaks, then its default. */
export function chooseLanguage(choice: LanguageChoice): Language {
  const spoken = (tag: string | null | undefined) => {
    const language = languageOf(tag);
    return language && (language === choice.storeDefault || choice.enabled.includes(language))
      ? language
      : null;
  };
  return (
    spoken(choice.requested) ??
    spoken(choice.remembered) ??
    (choice.accepted ?? []).map(spoken).find((language) => language !== null) ??
    choice.storeDefault
  );
}

/** Why a store's languages cannot be kept as given, or null: its default must be one it speaks. */
export function storeLanguagesProblem(languages: {
  default: Language;
  enabled: readonly Language[];
}): string | null {
  if (!languages.enabled.includes(languages.default))
    return `The default language must be enabled: add "${languages.default}" to enabled, or choose another default.`;
  return null;
}
