// The merchant's own text in the shopper's language (docs/api.md, "Translations"): the translation when the merchant
// gave one for that language and field, otherwise the store's default text (the base field).
import type { Language } from './languages.js';

export type Translations = Partial<Record<Language, { readonly [field: string]: string | null | undefined }>>;

/** One field: its translation into `language` if there is a non-empty one, else `base`. */
export function localizedText<Field extends string, Base extends string | null>(
  base: Base,
  translations: Translations | null | undefined,
  language: Language | null | undefined,
  field: Field,
): string | Base {
  if (!language || !translations) return base;
  const text = translations[language]?.[field];
  return typeof text === 'string' && text.trim() !== '' ? text : base;
}

/** Each of `fields` of `record` in `language`, the rest of it unchanged. */
export function localizedFields<Row extends Record<Field, string | null>, Field extends string>(
  row: Row,
  translations: Translations | null | undefined,
  language: Language | null | undefined,
  fields: readonly Field[],
): Row {
  if (!language || !translations?.[language]) return row;
  const out = { ...row };
  for (const field of fields) {
    (out as Record<Field, string | null>)[field] = localizedText(row[field], translations, language, field);
  }
  return out;
}
