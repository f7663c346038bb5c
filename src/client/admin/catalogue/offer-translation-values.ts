// An offer's text in other languages as its form holds it (docs/api.md, "Translations"): every field as typed, one
// option row per option of the offer, and the API's `translations` with what is left empty left out (it falls back).
import type { Offer } from '../../../contract/merchant.js';
import { LANGUAGES, type Language } from '../../../i18n/languages.js';

/** The offer's text fields a language may have its own of, in the order the form shows them. */
export const TRANSLATED_TEXT_FIELDS = [
  'offer_name',
  'offer_title',
  'bump_text',
  'item_name',
  'override_initial_item_name',
] as const;
export type TranslatedTextField = (typeof TRANSLATED_TEXT_FIELDS)[number];

export type LanguageTextValues = Record<TranslatedTextField, string> & {
  /** as many as the offer's options, in their order */
  item_options: { name: string; value: string }[];
};

/** The languages the form shows, each with its fields as typed. */
export type TranslationValues = Partial<Record<Language, LanguageTextValues>>;

const emptyOptions = (count: number) => Array.from({ length: count }, () => ({ name: '', value: '' }));

/** A language's empty fields, for an offer with `optionCount` options. */
export function emptyLanguageText(optionCount: number): LanguageTextValues {
  return {
    offer_name: '',
    offer_title: '',
    bump_text: '',
    item_name: '',
    override_initial_item_name: '',
    item_options: emptyOptions(optionCount),
  };
}

/** The form's translations for a saved offer: one option row per option of the offer. */
export function translationValues(offer: Pick<Offer, 'translations' | 'item_options'>): TranslationValues {
  const values: TranslationValues = {};
  for (const language of LANGUAGES) {
    const saved = offer.translations[language];
    if (!saved) continue;
    const entry = emptyLanguageText(offer.item_options.length);
    for (const field of TRANSLATED_TEXT_FIELDS) entry[field] = saved[field] ?? '';
    entry.item_options = entry.item_options.map((_, index) => ({
      name: saved.item_options?.[index]?.name ?? '',
      value: saved.item_options?.[index]?.value ?? '',
    }));
    values[language] = entry;
  }
  return values;
}

/** The languages the form shows, in the checkout's order. */
export function shownLanguages(values: TranslationValues): Language[] {
  return LANGUAGES.filter((language) => values[language] !== undefined);
}

/** Every language's option rows after the offer's options changed: a row added at the end, or row `index` gone. */
export function withOptionAdded(values: TranslationValues): TranslationValues {
  return mapLanguages(values, (entry) => ({
    ...entry,
    item_options: [...entry.item_options, { name: '', value: '' }],
  }));
}

export function withOptionRemoved(values: TranslationValues, index: number): TranslationValues {
  return mapLanguages(values, (entry) => ({
    ...entry,
    item_options: entry.item_options.filter((_, i) => i !== index),
  }));
}

function mapLanguages(
  values: TranslationValues,
  change: (entry: LanguageTextValues) => LanguageTextValues,
): TranslationValues {
  const next: TranslationValues = {};
  for (const language of shownLanguages(values)) {
    const entry = values[language];
    if (entry) next[language] = change(entry);
  }
  return next;
}

type OptionBody = { name?: string; value?: string };
type LanguageBody = Partial<Record<TranslatedTextField, string>> & { item_options?: OptionBody[] };

/**
 * The API's `translations`: per language only the fields typed (trimmed), the options only when one of them is, as
 * many as the offer's with their empty parts left out; a language with nothing typed is left out.
 */
export function translationsBody(values: TranslationValues): Partial<Record<Language, LanguageBody>> {
  const body: Partial<Record<Language, LanguageBody>> = {};
  for (const language of shownLanguages(values)) {
    const entry = values[language];
    if (!entry) continue;
    const out: LanguageBody = {};
    for (const field of TRANSLATED_TEXT_FIELDS) {
      const text = entry[field].trim();
      if (text !== '') out[field] = text;
    }
    const options = entry.item_options.map((option) => {
      const part: OptionBody = {};
      if (option.name.trim() !== '') part.name = option.name.trim();
      if (option.value.trim() !== '') part.value = option.value.trim();
      return part;
    });
    if (options.some((option) => Object.keys(option).length > 0)) out.item_options = options;
    if (Object.keys(out).length > 0) body[language] = out;
  }
  return body;
}

/** The form's fields in the order it shows them, for its error summary. */
export function translationFieldOrder(values: TranslationValues): string[] {
  return shownLanguages(values).flatMap((language) => [
    `translations.${language}`,
    ...TRANSLATED_TEXT_FIELDS.map((field) => `translations.${language}.${field}`),
    `translations.${language}.item_options`,
    ...(values[language]?.item_options ?? []).flatMap((_, i) => [
      `translations.${language}.item_options.${i}.name`,
      `translations.${language}.item_options.${i}.value`,
    ]),
  ]);
}
